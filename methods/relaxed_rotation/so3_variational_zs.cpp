#include "methods/relaxed_rotation/so3_variational_zs.hpp"

#include <Eigen/Cholesky>
#include <cmath>
#include <cstring>
#include <memory>
#include <nlohmann/json.hpp>
#include <sstream>

#include "core/errors.hpp"

namespace gib::relaxed_rotation {

namespace {

using Mat9 = Eigen::Matrix<double, 9, 9>;
using Vec9 = Eigen::Matrix<double, 9, 1>;

double isotropic_moment(const RigidBodyModel& body) {
  const Vec3& I = body.inertia();
  if (I(0) != I(1) || I(1) != I(2)) {
    std::ostringstream msg;
    msg << "so3_variational_zs: needs an isotropic body I = c 1 (the paper's scheme has one scalar mass), got inertia ("
        << I(0) << ", " << I(1) << ", " << I(2) << ")";
    throw InputError(msg.str());
  }
  return I(0);
}

}  // namespace

So3VariationalZs::So3VariationalZs(const RigidBodyModel& body, So3ZsOptions options)
    : body_(body), o_(options), c_(isotropic_moment(body)), m_(0.5 * c_) {
  if (!body_.torque_free() && !body_.potential()->has_euclidean_extension())
    throw InputError("so3_variational_zs: the body's potential has no extension to 3x3 matrices");
  if (!(o_.beta >= 0) || !std::isfinite(o_.beta)) throw InputError("so3_variational_zs: beta must be >= 0 and finite");
  if (!(o_.omega > 0) || !std::isfinite(o_.omega)) throw InputError("so3_variational_zs: omega must be positive and finite");
}

Mat3 So3VariationalZs::gradient(const Mat3& R) const {
  Mat3 g = 2 * o_.omega * o_.omega * (R * R.transpose() * R - R);
  if (!body_.torque_free()) g += body_.potential()->euclidean_gradient(R);
  return g;
}

Mat3 So3VariationalZs::hessian_apply(const Mat3& R, const Mat3& a) const {
  Mat3 out = 2 * o_.omega * o_.omega * (a * R.transpose() * R + R * a.transpose() * R + R * R.transpose() * a - a);
  if (!body_.torque_free()) out += body_.potential()->euclidean_hessian_apply(R, a);
  return out;
}

Mat3 So3VariationalZs::third_contracted(const Mat3& R, const Mat3& a) const {
  Mat3 out = 4 * o_.omega * o_.omega * (R * a.transpose() * a + a * R.transpose() * a + a * a.transpose() * R);
  if (!body_.torque_free()) out += body_.potential()->euclidean_third_contracted(R, a);
  return out;
}

// (37): (1 + beta h^2 H_R) vec(a) = -vec(grad V), the matrix built by applying H_R to the unit matrices E_ij.
Mat3 So3VariationalZs::auxiliary(const Mat3& R, double h) const {
  const double s = o_.beta * h * h;
  Mat9 A;
  for (int col = 0; col < 9; ++col) {
    Mat3 e = Mat3::Zero();
    e(col % 3, col / 3) = 1.0;
    const Mat3 column = e + s * hessian_apply(R, e);
    A.col(col) = Eigen::Map<const Vec9>(column.data());
  }
  const Mat3 g = gradient(R);
  const Vec9 rhs = -Eigen::Map<const Vec9>(g.data());
  Eigen::LDLT<Mat9> ldlt(A);
  const Vec9 a = ldlt.solve(rhs);
  return Eigen::Map<const Mat3>(a.data());
}

Mat3 So3VariationalZs::force(const Mat3& R, double h) const {
  const Mat3 a = auxiliary(R, h);
  const double b2h4 = o_.beta * o_.beta * h * h * h * h;
  if (o_.force == So3ZsForce::corrected) return a - 0.5 * b2h4 * third_contracted(R, a);
  // The printed f (spec A18): wrong sign and transposed penalty bracket; the body part kept as derived.
  Mat3 f = a + 2 * o_.omega * o_.omega * b2h4 *
                   (a.transpose() * a * R.transpose() + a.transpose() * R * a.transpose() + R.transpose() * a * a.transpose());
  if (!body_.torque_free()) f -= 0.5 * b2h4 * body_.potential()->euclidean_third_contracted(R, a);
  return f;
}

double So3VariationalZs::energy(const Mat3& R, const Mat3& p) const {
  const Mat3 C = R.transpose() * R - Mat3::Identity();
  return p.squaredNorm() / (2 * m_) + body_.potential_energy(R) + 0.5 * o_.omega * o_.omega * C.squaredNorm();
}

// ---------------------------------------------------------------------------------------------

namespace {

class So3VariationalZsStepper final : public RigidBodyStepper {
 public:
  So3VariationalZsStepper(const RigidBodyModel& body, So3ZsOptions o) : body_(body), scheme_(body, o) {}

  StepStatus step(RigidBodyState& x, double h, OpCounters& c) override { return advance(x, h, 1, c).status; }

  // Steps in (R, p) and recovers Pi once per call, not per step.
  Advanced advance(RigidBodyState& x, double h, std::int64_t n, OpCounters& c) override {
    if (n <= 0) return {StepStatus::ok, 0};
    if (!kept_ || !same_bits(x, written_)) {
      R_ = x.R;
      p_ = scheme_.mass() * x.R * so3::hat(body_.angular_velocity(x.Pi));
      f_valid_ = false;
    }
    for (std::int64_t i = 0; i < n; ++i) native_step(h, c);
    const double m = scheme_.mass();
    x.R = R_;
    x.Pi = body_.inertia().cwiseProduct(so3::vee_skew_part<double>(R_.transpose() * p_ / m));
    written_ = x;
    kept_ = true;
    return {StepStatus::ok, n};
  }

  void reset() override { kept_ = false; }

 private:
  void native_step(double h, OpCounters& c) {
    const double m = scheme_.mass();
    if (scheme_.options().form == So3ZsForm::first_order) {
      p_ += h * force(R_, h, c);
      R_ += (h / m) * p_;
    } else {
      // f depends on h only through h^2 and h^4, so a kept f serves -h as well (Phi_-h o Phi_h = id).
      if (!f_valid_ || std::abs(h) != f_step_) f_ = force(R_, h, c);
      const Mat3 half = p_ + 0.5 * h * f_;
      R_ += (h / m) * half;
      f_ = force(R_, h, c);
      f_step_ = std::abs(h);
      f_valid_ = true;
      p_ = half + 0.5 * h * f_;
    }
  }

  Mat3 force(const Mat3& R, double h, OpCounters& c) const {
    ++c.rhs_evals;
    if (!body_.torque_free()) ++c.force_evals;
    ++c.linear_solves;
    return scheme_.force(R, h);
  }

  const RigidBodyModel& body_;  // owned by the problem; outlives the stepper
  So3VariationalZs scheme_;
  Mat3 R_ = Mat3::Identity(), p_ = Mat3::Zero(), f_ = Mat3::Zero();
  double f_step_ = 0;
  bool f_valid_ = false;
  RigidBodyState written_;
  bool kept_ = false;
};

So3ZsOptions options_from(const Json& params) {
  So3ZsOptions o;
  const auto number = [&](const char* key, double def) {
    const Json v = params.value(key, Json(def));
    if (!v.is_number()) throw InputError(std::string("so3_variational_zs: ") + key + " must be a number, got " + v.dump());
    return v.get<double>();
  };
  o.beta = number("beta", o.beta);
  o.omega = number("omega", o.omega);
  const std::string form = params.value("form", std::string("first_order"));
  if (form == "first_order")
    o.form = So3ZsForm::first_order;
  else if (form == "trapezoidal")
    o.form = So3ZsForm::trapezoidal;
  else
    throw InputError("so3_variational_zs: form must be \"first_order\" or \"trapezoidal\", got \"" + form + "\"");
  const std::string f = params.value("f", std::string("corrected"));
  if (f == "corrected")
    o.force = So3ZsForce::corrected;
  else if (f == "printed")
    o.force = So3ZsForce::printed;
  else
    throw InputError("so3_variational_zs: f must be \"corrected\" or \"printed\", got \"" + f + "\"");
  return o;
}

}  // namespace

MethodInfo so3_variational_zs() {
  MethodInfo m;
  m.id = "so3_variational_zs";
  m.display_name = "Variational Z&S on SO(3) (relaxed R, penalty)";
  m.citation = "Tao & Owhadi 2014 section 4.5, eqs (36), (37), with the corrected f (spec 2.11, A16-A20)";
  m.family = "zhang_skeel";
  // The default (first-order) form: symplectic Euler in (R, p) with a gradient force; the trapezoidal form is order
  // 2 and symmetric. Order and invariants hold for the penalised system, not the rigid body (see the report).
  m.claims.order = 1;
  m.claims.symplectic = true;
  m.default_params = {{"beta", 0.4}, {"omega", 10.0}, {"form", "first_order"}, {"f", "corrected"}};
  m.rigid_body = [](const RigidBodyModel& body, const Json& params) -> std::unique_ptr<RigidBodyStepper> {
    return std::make_unique<So3VariationalZsStepper>(body, options_from(params));
  };
  return m;
}

}  // namespace gib::relaxed_rotation
