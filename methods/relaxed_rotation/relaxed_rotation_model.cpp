#include "methods/relaxed_rotation/relaxed_rotation_model.hpp"

#include <array>
#include <cmath>
#include <sstream>

#include "core/errors.hpp"

namespace gib::relaxed_rotation {

namespace {

constexpr double kSqrt2 = 1.4142135623730950488;

// The (k, l) column pair and weight of each constraint: C11, C22, C33, sqrt2 C12, sqrt2 C13, sqrt2 C23.
struct Pair {
  int k, l;
  double weight;
};
constexpr std::array<Pair, 6> kPairs = {{{0, 0, 1.0}, {1, 1, 1.0}, {2, 2, 1.0}, {0, 1, kSqrt2}, {0, 2, kSqrt2}, {1, 2, kSqrt2}}};

using ConstCol = Eigen::Map<const Vec3>;
ConstCol column(const Eigen::VectorXd& q, int k) { return ConstCol(q.data() + 3 * k); }

// A 9-vector viewed as the 3x3 matrix it vectorises, to write into without a temporary vector.
Eigen::Map<Mat3> as_matrix(double* data) { return Eigen::Map<Mat3>(data); }

// Adds s (x_l in column k + x_k in column l) to out, the derivative pattern of C_kl = r_k . r_l. out is any
// writable 9-vector: a vector, or a row of the Jacobian written in place.
template <class Out> void add_pattern(const Eigen::VectorXd& x, const Pair& p, double s, Out&& out) {
  out.template segment<3>(3 * p.k) += s * column(x, p.l);
  out.template segment<3>(3 * p.l) += s * column(x, p.k);
}

}  // namespace

Vec3 relaxed_mass(const Vec3& inertia) {
  const Vec3 J = Vec3::Constant(0.5 * inertia.sum()) - inertia;
  // A relative margin: Kjer's flat body (1, 1.88, 2.88) has J3 = 0 up to rounding, a massless column.
  if (!(J.minCoeff() > 1e-12 * inertia.sum())) {
    std::ostringstream msg;
    msg << "relaxed rotation: inertia (" << inertia(0) << ", " << inertia(1) << ", " << inertia(2)
        << ") gives J = 1/2 tr(I) - I = (" << J(0) << ", " << J(1) << ", " << J(2)
        << "), which must be positive (strict triangle inequality of the moments)";
    throw InputError(msg.str());
  }
  return J;
}

// ---------------------------------------------------------------------------------------------

RelaxedBodyModel::RelaxedBodyModel(RigidBodyModel body)
    : body_(std::move(body)), column_mass_(relaxed_mass(body_.inertia())), mass_(Eigen::MatrixXd::Zero(9, 9)) {
  if (!body_.torque_free() && !body_.potential()->has_euclidean_extension())
    throw InputError("relaxed rotation: the body's potential has no extension to 3x3 matrices, so it cannot be "
                     "integrated in the relaxed (Newtonian) form");
  for (int j = 0; j < 3; ++j)
    for (int i = 0; i < 3; ++i) mass_(i + 3 * j, i + 3 * j) = column_mass_(j);
}

double RelaxedBodyModel::potential(const Eigen::VectorXd& q) const { return body_.potential_energy(unvec(q)); }

void RelaxedBodyModel::gradient(const Eigen::VectorXd& q, Eigen::VectorXd& g) const {
  g.resize(9);
  if (body_.torque_free())
    g.setZero();
  else
    as_matrix(g.data()) = body_.potential()->euclidean_gradient(unvec(q));
}

void RelaxedBodyModel::hessian(const Eigen::VectorXd& q, Eigen::MatrixXd& H) const {
  H.setZero(9, 9);
  if (body_.torque_free()) return;
  const Mat3 R = unvec(q);
  for (int c = 0; c < 9; ++c) {
    Mat3 e = Mat3::Zero();
    e(c % 3, c / 3) = 1.0;
    as_matrix(H.col(c).data()) = body_.potential()->euclidean_hessian_apply(R, e);
  }
}

void RelaxedBodyModel::third_derivative_contracted(const Eigen::VectorXd& q, const Eigen::VectorXd& a,
                                                   Eigen::VectorXd& out) const {
  out.resize(9);
  if (body_.torque_free())
    out.setZero();
  else
    as_matrix(out.data()) = body_.potential()->euclidean_third_contracted(unvec(q), unvec(a));
}

// ---------------------------------------------------------------------------------------------

void OrthogonalityConstraints::values(const Eigen::VectorXd& q, Eigen::VectorXd& g) const {
  g.resize(6);
  for (int n = 0; n < 6; ++n) {
    const Pair& p = kPairs[n];
    g(n) = p.weight * (column(q, p.k).dot(column(q, p.l)) - (p.k == p.l ? 1.0 : 0.0));
  }
}

void OrthogonalityConstraints::jacobian(const Eigen::VectorXd& q, Eigen::MatrixXd& G) const {
  G.setZero(6, 9);
  for (int n = 0; n < 6; ++n) add_pattern(q, kPairs[n], kPairs[n].weight, G.row(n).transpose());
}

void OrthogonalityConstraints::add_weighted_hessian(const Eigen::VectorXd& /*q*/, const Eigen::VectorXd& w,
                                                    Eigen::MatrixXd& H) const {
  // Hess C_kl couples entry i of column k with entry i of column l (twice on the diagonal when k = l).
  for (int n = 0; n < 6; ++n) {
    const Pair& p = kPairs[n];
    const double s = w(n) * p.weight;
    for (int i = 0; i < 3; ++i) {
      H(i + 3 * p.k, i + 3 * p.l) += s;
      H(i + 3 * p.l, i + 3 * p.k) += s;
    }
  }
}

void OrthogonalityConstraints::weighted_hessian_vector(const Eigen::VectorXd& q, const Eigen::VectorXd& w,
                                                       const Eigen::VectorXd& a, Eigen::VectorXd& out) const {
  out.setZero(q.size());
  for (int n = 0; n < 6; ++n) add_pattern(a, kPairs[n], w(n) * kPairs[n].weight, out);
}

void OrthogonalityConstraints::hessian_quadratic_forms(const Eigen::VectorXd& /*q*/, const Eigen::VectorXd& a,
                                                       Eigen::VectorXd& out) const {
  out.resize(6);
  for (int n = 0; n < 6; ++n) {
    const Pair& p = kPairs[n];
    out(n) = 2.0 * p.weight * column(a, p.k).dot(column(a, p.l));
  }
}

// ---------------------------------------------------------------------------------------------

std::shared_ptr<const PenalizedModel> relaxed_rotation_model(const RigidBodyModel& body, double omega) {
  if (!(omega > 0) || !std::isfinite(omega)) {
    std::ostringstream msg;
    msg << "relaxed rotation: the penalty omega (relaxed_omega) must be positive and finite, got " << omega;
    throw InputError(msg.str());
  }
  return std::make_shared<PenalizedModel>(std::make_shared<RelaxedBodyModel>(body),
                                          std::make_shared<OrthogonalityConstraints>(), omega);
}

Eigen::VectorXd vec(const Mat3& m) { return Eigen::Map<const Eigen::VectorXd>(m.data(), 9); }

Mat3 unvec(const Eigen::VectorXd& q) { return Eigen::Map<const Mat3>(q.data()); }

NewtonianState to_relaxed(const RigidBodyState& x, const RigidBodyModel& body) {
  return {vec(x.R), vec(x.R * so3::hat(body.angular_velocity(x.Pi)))};
}

RigidBodyState from_relaxed(const NewtonianState& x, const RigidBodyModel& body) {
  RigidBodyState out;
  out.R = unvec(x.q);
  out.Pi = body.inertia().cwiseProduct(so3::vee_skew_part<double>(out.R.transpose() * unvec(x.v)));
  return out;
}

}  // namespace gib::relaxed_rotation
