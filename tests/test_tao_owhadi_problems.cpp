// The Newtonian problems of Tao and Owhadi 2014 (spec 4.1, 4.2, 4.4): the penalised double pendulum, the
// pendulum chain and the DNA torsion chain. Derivatives (gradient, Hessian, V'''[a, a]) against central finite
// differences (spec 6 items 8, 9), the penalty against a hand-written energy, the DNA wells against the spec's
// numbers, the initial states, the constrained (rod-angle) dynamics against the Cartesian Lagrange-multiplier
// equations, the references (exact oscillators, order independence, honest error estimates, penalised -> constrained
// as omega grows), the gravity sign, and bad input.
#include <Eigen/Cholesky>
#include <Eigen/Eigenvalues>
#include <Eigen/SparseCore>
#include <catch2/catch.hpp>
#include <algorithm>
#include <cmath>
#include <cstring>
#include <functional>
#include <omp.h>
#include <numbers>
#include <string>
#include <vector>

#include "core/errors.hpp"
#include "core/method.hpp"
#include "core/penalty.hpp"
#include "core/problem.hpp"
#include "core/random.hpp"
#include "problems/common/newtonian_reference.hpp"
#include "problems/common/planar_chain.hpp"
#include "problems/dna_torsion/dna_model.hpp"
#include "problems/common/row_chunks.hpp"
#include "problems/water_cluster/tip3p_model.hpp"

namespace gibench_test_tao_owhadi_problems {

namespace {

using Eigen::MatrixXd;
using Eigen::VectorXd;
using gib::Json;
using gib::NewtonianState;

std::unique_ptr<gib::NewtonianProblem> make(const std::string& problem, const std::string& preset,
                                            const Json& o = Json::object(), const std::string& ic = "preset") {
  auto p = gib::find_problem(problem).make(preset, o, ic);
  auto* n = dynamic_cast<gib::NewtonianProblem*>(p.get());
  REQUIRE(n != nullptr);
  p.release();
  return std::unique_ptr<gib::NewtonianProblem>(n);
}

VectorXd random_vector(gib::random::Stream& rng, int n, double lo, double hi) {
  VectorXd v(n);
  for (int i = 0; i < n; ++i) v(i) = rng.uniform(lo, hi);
  return v;
}

double max_abs(const VectorXd& v) { return v.cwiseAbs().maxCoeff(); }
double max_abs(const MatrixXd& m) { return m.cwiseAbs().maxCoeff(); }

// Central differences: grad V from V, Hess V from grad V, V'''[a, a] = d/de Hess V(q + e a) a (spec 6 item 8).
void check_derivatives(const gib::NewtonianModel& model, const VectorXd& q, const VectorXd& a) {
  const int n = model.dim();
  const double h = 1e-5;
  VectorXd grad, fd_grad(n), gp, gm;
  MatrixXd H, fd_H(n, n), Hp, Hm;
  model.gradient(q, grad);
  model.hessian(q, H);
  for (int j = 0; j < n; ++j) {
    VectorXd qp = q, qm = q;
    qp(j) += h;
    qm(j) -= h;
    fd_grad(j) = (model.potential(qp) - model.potential(qm)) / (2 * h);
    model.gradient(qp, gp);
    model.gradient(qm, gm);
    fd_H.col(j) = (gp - gm) / (2 * h);
  }
  VectorXd third;
  model.third_derivative_contracted(q, a, third);
  model.hessian(q + h * a, Hp);
  model.hessian(q - h * a, Hm);
  const VectorXd fd_third = (Hp * a - Hm * a) / (2 * h);
  CHECK(max_abs(VectorXd(grad - fd_grad)) <= 1e-7 * std::max(1.0, max_abs(grad)));
  CHECK(max_abs(MatrixXd(H - fd_H)) <= 1e-7 * std::max(1.0, max_abs(H)));
  CHECK(max_abs(MatrixXd(H - H.transpose())) == 0.0);
  CHECK(max_abs(VectorXd(third - fd_third)) <= 1e-7 * std::max(1.0, max_abs(third)));
}

// A plain quadratic model M q'' = -K q, for the reference against its closed form.
class Quadratic final : public gib::NewtonianModel {
 public:
  Quadratic(MatrixXd M, MatrixXd K) : M_(std::move(M)), K_(std::move(K)) {}
  int dim() const override { return static_cast<int>(M_.rows()); }
  const MatrixXd& mass_matrix() const override { return M_; }
  bool diagonal_mass() const override { return M_.isDiagonal(); }
  double potential(const VectorXd& q) const override { return 0.5 * q.dot(K_ * q); }
  void gradient(const VectorXd& q, VectorXd& g) const override { g = K_ * q; }
  void hessian(const VectorXd&, MatrixXd& H) const override { H = K_; }
  void third_derivative_contracted(const VectorXd& q, const VectorXd&, VectorXd& out) const override {
    out.setZero(q.size());
  }

 private:
  MatrixXd M_, K_;
};

// Normal modes: K phi = w^2 M phi with Phi^T M Phi = I.
NewtonianState quadratic_exact(const MatrixXd& M, const MatrixXd& K, const NewtonianState& x0, double t) {
  Eigen::GeneralizedSelfAdjointEigenSolver<MatrixXd> modes(K, M);
  const MatrixXd& Phi = modes.eigenvectors();
  const VectorXd w = modes.eigenvalues().cwiseSqrt();
  const VectorXd c = Phi.transpose() * M * x0.q, d = Phi.transpose() * M * x0.v;
  VectorXd a(c.size()), b(c.size());
  for (int i = 0; i < c.size(); ++i) {
    a(i) = c(i) * std::cos(w(i) * t) + d(i) / w(i) * std::sin(w(i) * t);
    b(i) = -c(i) * w(i) * std::sin(w(i) * t) + d(i) * std::cos(w(i) * t);
  }
  return {Phi * a, Phi * b};
}

double distance(const NewtonianState& a, const NewtonianState& b) {
  return std::sqrt((a.q - b.q).squaredNorm() + (a.v - b.v).squaredNorm());
}

gib::planar_chain::Chain printed_double_pendulum(double sign = 1.0) {
  return {{1.0, 1.0}, {1.0, std::sqrt(2.0)}, 1.0, sign};
}

// The Cartesian constrained acceleration from Lagrange multipliers (spec 3 eq. 6): M q'' = -grad V0 + G^T lambda
// with d^2 g / dt^2 = G q'' + (v^T Hess g_i v)_i = 0.
VectorXd multiplier_acceleration(const gib::planar_chain::Chain& chain, const NewtonianState& x) {
  const gib::planar_chain::GravityModel gravity(chain);
  const auto rods = gib::planar_chain::rods(chain);
  MatrixXd G;
  VectorXd grad, curvature;
  rods->jacobian(x.q, G);
  rods->hessian_quadratic_forms(x.q, x.v, curvature);
  gravity.gradient(x.q, grad);
  const VectorXd inv_m = gravity.mass_matrix().diagonal().cwiseInverse();
  const MatrixXd GMinv = G * inv_m.asDiagonal();
  const VectorXd lambda = (GMinv * G.transpose()).ldlt().solve(GMinv * grad - curvature);
  return inv_m.cwiseProduct(-grad + G.transpose() * lambda);
}

// x_i'' = sum_{k <= i} L_k (cos t_k t_k'' - sin t_k t_k'^2, sin t_k t_k'' + cos t_k t_k'^2).
VectorXd cartesian_acceleration(const gib::planar_chain::Chain& chain, const VectorXd& th, const VectorXd& w,
                                const VectorXd& th_dd) {
  VectorXd out(2 * chain.size());
  double ax = 0, ay = 0;
  for (int i = 0; i < chain.size(); ++i) {
    const double L = chain.lengths[static_cast<std::size_t>(i)];
    ax += L * (std::cos(th(i)) * th_dd(i) - std::sin(th(i)) * w(i) * w(i));
    ay += L * (std::sin(th(i)) * th_dd(i) + std::cos(th(i)) * w(i) * w(i));
    out.segment<2>(2 * i) << ax, ay;
  }
  return out;
}

bool has_observable(const gib::NewtonianProblem& p, const std::string& name) {
  for (const auto& o : p.observables())
    if (o.name == name) return true;
  return false;
}

double observable(const gib::NewtonianProblem& p, const std::string& name, const NewtonianState& x) {
  for (const auto& o : p.observables())
    if (o.name == name) return o.value(x);
  FAIL("no observable " << name);
  return 0;
}

void check_one_line_input_error(const std::string& problem, const std::string& preset, const Json& o,
                                const std::string& ic = "preset") {
  INFO(problem << " " << preset << " " << o.dump() << " " << ic);
  try {
    (void)gib::find_problem(problem).make(preset, o, ic);
    FAIL("no InputError");
  } catch (const gib::InputError& e) {
    const std::string what = e.what();
    INFO(what);
    CHECK(!what.empty());
    CHECK(what.find('\n') == std::string::npos);
  }
}

}  // namespace

TEST_CASE("Penalised pendula: gradient, Hessian and V'''[a, a] match finite differences", "[tao_owhadi_problems]") {
  gib::random::Stream rng(2014);
  const auto pendulum = make("double_pendulum", "taoowhadi2014");
  const auto chain = make("pendulum_chain", "taoowhadi2014_n10");
  const auto inverted = make("double_pendulum", "taoowhadi2014", {{"gravity_sign", -1}, {"masses", {0.7, 1.9}}});
  for (const auto* p : {pendulum.get(), chain.get(), inverted.get()}) {
    const int n = p->model().dim();
    for (int k = 0; k < 5; ++k) {
      // Off the constraint manifold, where the curvature terms g_i Hess g_i and V''' are non-zero.
      const VectorXd q = p->initial_state().q + random_vector(rng, n, -0.1, 0.1);
      check_derivatives(p->model(), q, random_vector(rng, n, -1, 1));
    }
  }
}

TEST_CASE("Penalised double pendulum: energy and force equal the hand-written penalty at fixed omega",
          "[tao_owhadi_problems]") {
  gib::random::Stream rng(23);
  const double w = 20, m1 = 0.7, m2 = 1.9, L1 = 1.3, L2 = 0.8, g = 9.81;
  const auto p = make("double_pendulum", "taoowhadi2014",
                      {{"masses", {m1, m2}}, {"lengths", {L1, L2}}, {"gravity", g}, {"omega", w}});
  for (int k = 0; k < 10; ++k) {
    const VectorXd q = random_vector(rng, 4, -2, 2);
    const double x1 = q(0), y1 = q(1), x2 = q(2), y2 = q(3);
    const double g1 = x1 * x1 + y1 * y1 - L1 * L1, g2 = (x2 - x1) * (x2 - x1) + (y2 - y1) * (y2 - y1) - L2 * L2;
    const double V = g * (m1 * y1 + m2 * y2) + 0.5 * w * w * (g1 * g1 + g2 * g2);
    VectorXd force(4);  // grad V by hand
    force << 2 * w * w * (g1 * x1 - g2 * (x2 - x1)), g * m1 + 2 * w * w * (g1 * y1 - g2 * (y2 - y1)),
        2 * w * w * g2 * (x2 - x1), g * m2 + 2 * w * w * g2 * (y2 - y1);
    VectorXd grad;
    p->model().gradient(q, grad);
    CHECK(p->model().potential(q) == Approx(V).epsilon(1e-13));
    CHECK(max_abs(VectorXd(grad - force)) <= 1e-12 * max_abs(force));
    const VectorXd v = random_vector(rng, 4, -1, 1);
    const double kinetic = 0.5 * (m1 * (v(0) * v(0) + v(1) * v(1)) + m2 * (v(2) * v(2) + v(3) * v(3)));
    CHECK(p->model().energy({q, v}) == Approx(kinetic + V).epsilon(1e-13));
    CHECK(p->model().mass_matrix().diagonal().isApprox((VectorXd(4) << m1, m1, m2, m2).finished()));
    // The stiff part (Integrator 5) is the penalty alone: Hess V - Hess P = Hess of gravity = 0.
    MatrixXd H, P;
    p->model().hessian(q, H);
    p->model().stiff_hessian(q, P);
    CHECK(max_abs(MatrixXd(H - P)) == 0.0);
  }
  REQUIRE(p->model().constraint_set() != nullptr);
  REQUIRE(p->model().unpenalized() != nullptr);
  CHECK(p->model().constraint_set()->size() == 2);
}

TEST_CASE("Gravity sign: +1 is the hanging fix, -1 the printed inverted pendulum", "[tao_owhadi_problems]") {
  const auto fixed = make("double_pendulum", "taoowhadi2014");
  const auto printed = make("double_pendulum", "taoowhadi2014", {{"gravity_sign", -1}});
  const VectorXd q0 = fixed->initial_state().q;
  const auto* V0 = fixed->model().unpenalized();
  const auto* V0_printed = printed->model().unpenalized();
  REQUIRE(V0 != nullptr);
  REQUIRE(V0_printed != nullptr);
  CHECK(V0->potential(q0) == -3.0);  // g (y1 + y2) = -1 - 2
  CHECK(V0_printed->potential(q0) == 3.0);
  CHECK(fixed->parameters()["gravity_sign"] == 1.0);
  CHECK(printed->parameters()["gravity_sign"] == -1.0);

  // Constrained motion over t <= 10: hanging, energy -3 keeps y1 + y2 <= -3, so y2 <= -2 throughout; inverted,
  // it falls over.
  double top_fixed = -INFINITY, top_printed = -INFINITY;
  for (int k = 1; k <= 100; ++k) {
    const double t = 0.1 * k;
    top_fixed = std::max(top_fixed, fixed->constrained_reference()->state(t).q(3));
    top_printed = std::max(top_printed, printed->constrained_reference()->state(t).q(3));
  }
  INFO("max y2 for t <= 10: hanging " << top_fixed << ", inverted " << top_printed);
  CHECK(top_fixed <= -1.5);
  CHECK(top_printed > -1.5);
}

TEST_CASE("DNA torsion: derivatives match finite differences, sparse Hessian equals dense", "[tao_owhadi_problems]") {
  gib::random::Stream rng(1400);
  for (const char* boundary : {"periodic", "free"}) {
    INFO(boundary);
    const auto p = make("dna_torsion", "n20", {{"boundary", boundary}});
    const auto& model = p->model();
    REQUIRE(model.sparse_hessian());
    Eigen::SparseMatrix<double> first_pattern;
    for (int k = 0; k < 5; ++k) {
      const VectorXd q = random_vector(rng, model.dim(), 0.0, 2 * std::numbers::pi);
      check_derivatives(model, q, random_vector(rng, model.dim(), -1, 1));
      MatrixXd H;
      Eigen::SparseMatrix<double> S;
      model.hessian(q, H);
      model.hessian_sparse(q, S);
      CHECK(max_abs(MatrixXd(H - MatrixXd(S))) == 0.0);
      // The pattern does not depend on q, so a sparse solver analyses it once.
      if (k == 0) first_pattern = S;
      REQUIRE(S.isCompressed());
      REQUIRE(S.nonZeros() == first_pattern.nonZeros());
      for (int i = 0; i <= S.outerSize(); ++i) CHECK(S.outerIndexPtr()[i] == first_pattern.outerIndexPtr()[i]);
      for (int i = 0; i < S.nonZeros(); ++i) CHECK(S.innerIndexPtr()[i] == first_pattern.innerIndexPtr()[i]);
    }
    // Cyclic tridiagonal (periodic: 3 per row) or tridiagonal (free: 3N - 2).
    const long n = model.dim();
    CHECK(first_pattern.nonZeros() == (std::string(boundary) == "periodic" ? 3 * n : 3 * n - 2));
  }
}

TEST_CASE("DNA torsion: the force is eq. (31), theta_{k+1} - 2 theta_k + theta_{k-1} - eps U'", "[tao_owhadi_problems]") {
  gib::random::Stream rng(31);
  const double a = 7, x0 = 0.3, eps = 1.0 / 1400;
  for (const char* boundary : {"periodic", "free"}) {
    const auto p = make("dna_torsion", "n20", {{"boundary", boundary}});
    const int n = p->model().dim();
    const bool periodic = std::string(boundary) == "periodic";
    const VectorXd q = random_vector(rng, n, -3, 3);
    VectorXd grad;
    p->model().gradient(q, grad);
    for (int k = 0; k < n; ++k) {
      // Free ends: a missing neighbour pulls as the site itself (no bond).
      const double left = k > 0 ? q(k - 1) : (periodic ? q(n - 1) : q(k));
      const double right = k + 1 < n ? q(k + 1) : (periodic ? q(0) : q(k));
      const double E = std::exp(-a * (1 - std::cos(q(k)) - x0));
      const double U1 = -2 * a * std::sin(q(k)) * E * (E - 1);
      CHECK(-grad(k) == Approx(right - 2 * q(k) + left - eps * U1).margin(1e-13));
    }
  }
}

TEST_CASE("DNA torsion: U and its derivatives, the wells at cos theta = 1 - x0 with U'' = 49.98", "[tao_owhadi_problems]") {
  using gib::dna_torsion::site_potential;
  const double a = 7, x0 = 0.3, h = 1e-5;
  gib::random::Stream rng(8);
  for (int k = 0; k < 50; ++k) {
    const double t = rng.uniform(-4, 4);
    const auto u = site_potential(t, a, x0), up = site_potential(t + h, a, x0), um = site_potential(t - h, a, x0);
    CHECK(u.first == Approx((up.value - um.value) / (2 * h)).epsilon(1e-7).margin(1e-7));
    CHECK(u.second == Approx((up.first - um.first) / (2 * h)).epsilon(1e-7).margin(1e-7));
    CHECK(u.third == Approx((up.second - um.second) / (2 * h)).epsilon(1e-7).margin(1e-6));
    CHECK(u.value >= 0);
  }
  const double well = std::acos(1 - x0);
  CHECK(well == Approx(0.795).margin(5e-4));                          // spec 4.4
  CHECK(2 * std::numbers::pi - well == Approx(5.49).margin(5e-3));  // the other well
  for (double t : {well, 2 * std::numbers::pi - well}) {
    const auto u = site_potential(t, a, x0);
    CHECK(std::abs(u.value) <= 1e-28);
    CHECK(std::abs(u.first) <= 1e-13);
    CHECK(u.second == Approx(2 * a * a * std::sin(t) * std::sin(t)).epsilon(1e-13));
    CHECK(u.second == Approx(49.98).epsilon(1e-13));
    CHECK(site_potential(t + 0.01, a, x0).value > 0);
    CHECK(site_potential(t - 0.01, a, x0).value > 0);
  }
}

TEST_CASE("DNA torsion: presets, initial state, observables, time scale", "[tao_owhadi_problems]") {
  const auto p = make("dna_torsion", "taoowhadi2014");
  const int n = p->model().dim();
  REQUIRE(n == 200);
  const NewtonianState& x = p->initial_state();
  const Json params = p->parameters();
  CHECK(params["a"] == 7.0);
  CHECK(params["x0"] == 0.3);
  CHECK(params["epsilon"] == 1.0 / 1400);
  CHECK(params["boundary"] == "periodic");
  CHECK(params["seed"] == 1);
  // xi_k = (theta_k - 0.8) / 0.1 should look standard normal.
  const VectorXd xi = (x.q.array() - 0.8) / 0.1;
  CHECK(std::abs(xi.mean()) < 4 / std::sqrt(double(n)));
  CHECK(std::sqrt((xi.array() - xi.mean()).square().sum() / (n - 1)) == Approx(1).margin(0.2));
  for (int k = 1; k <= n; ++k) CHECK(x.v(k - 1) == Approx(std::cos(4 * std::numbers::pi * k / n) / std::sqrt(200.0)));
  CHECK(observable(*p, "mean_angle", x) == Approx(x.q.sum() / n));
  CHECK(observable(*p, "mean_angle_rate", x) == Approx(0).margin(1e-15));
  CHECK(p->tip().empty());
  CHECK(p->constrained_reference() == nullptr);
  CHECK(p->model().constraint_set() == nullptr);

  // The seed is the draw: same seed, same bits; random:K and another seed differ.
  CHECK(make("dna_torsion", "taoowhadi2014")->initial_state().q == x.q);
  CHECK(make("dna_torsion", "taoowhadi2014", {{"seed", 2}})->initial_state().q != x.q);
  CHECK(make("dna_torsion", "taoowhadi2014", Json::object(), "random:1")->initial_state().q != x.q);

  // Time scale: 1/omega_max bounds the fastest mode of Hess V(q0) from above (Gershgorin), within 5%.
  MatrixXd H;
  p->model().hessian(x.q, H);
  const double top = Eigen::SelfAdjointEigenSolver<MatrixXd>(H).eigenvalues().maxCoeff();
  const double w_max = 1 / p->time_scale();
  CHECK(w_max * w_max >= top);
  CHECK(w_max * w_max <= 1.05 * top);

  const auto& info = gib::find_problem("dna_torsion");
  CHECK(!info.constrained);
  for (const auto& preset : info.presets) CHECK(preset.in_battery == (preset.name == "n20"));
}

TEST_CASE("Double pendulum: the printed initial state lies on the rods at theta0 = 0, phi0 = pi/4",
          "[tao_owhadi_problems]") {
  const auto p = make("double_pendulum", "taoowhadi2014");
  const NewtonianState& x = p->initial_state();
  CHECK(x.q == (VectorXd(4) << 0, -1, 1, -2).finished());
  CHECK(x.v == VectorXd::Zero(4));
  VectorXd g, theta, theta_dot;
  p->model().constraint_set()->values(x.q, g);
  CHECK(max_abs(g) <= 1e-15);
  gib::planar_chain::angles(printed_double_pendulum(), x, theta, theta_dot);
  CHECK(theta(0) == 0.0);
  CHECK(theta(1) == Approx(std::numbers::pi / 4).epsilon(1e-15));
  CHECK(theta_dot.norm() == 0.0);
  const Json params = p->parameters();
  CHECK(params["omega"] == 20.0);
  CHECK(params["masses"] == Json({1.0, 1.0}));
  CHECK(params["lengths"] == Json({1.0, std::sqrt(2.0)}));
  CHECK(params["reference"] == "penalized");

  // Other lengths keep the angles.
  const auto q = make("double_pendulum", "taoowhadi2014", {{"lengths", {2.0, 0.5}}})->initial_state().q;
  CHECK(q.isApprox((VectorXd(4) << 0, -2, 0.5 * std::sin(std::numbers::pi / 4), -2 - 0.5 * std::cos(std::numbers::pi / 4)).finished(), 1e-15));

  // Observables and tip (Figs 1, 2).
  for (const char* name : {"omega2_g1", "omega2_g2", "omega2_g_norm", "x2", "y2"}) CHECK(has_observable(*p, name));
  CHECK(p->tip() == std::vector<int>{2, 3});
  const VectorXd off = x.q + (VectorXd(4) << 0.01, 0, 0, 0).finished();
  const NewtonianState moved{off, x.v};
  CHECK(observable(*p, "omega2_g1", moved) == Approx(400 * (0.01 * 0.01)));
  CHECK(observable(*p, "omega2_g2", moved) == Approx(400 * (0.99 * 0.99 + 1 - 2)));
  CHECK(observable(*p, "omega2_g_norm", moved) == Approx(400 * std::hypot(1e-4, 0.99 * 0.99 - 1)));
  CHECK(observable(*p, "y2", moved) == -2.0);

  // Time scale: 1/omega_max, with omega_max^2 = omega^2 lambda_max(G G^T) on the manifold (Hess g_i weighted by
  // g = 0 drops out): G = [[0, -2, 0, 0], [-2, 2, 2, -2]], G G^T = [[4, -4], [-4, 16]], lambda = 10 + sqrt 52.
  CHECK(p->time_scale() * 20 * std::sqrt(10 + std::sqrt(52.0)) == Approx(1).epsilon(1e-12));

  const auto& info = gib::find_problem("double_pendulum");
  CHECK(info.constrained);
  CHECK(info.kind == gib::ModelKind::newtonian);
  for (const auto& preset : info.presets) {
    const bool stress = preset.name == "taoowhadi2014_omega2000";
    CHECK(preset.stress == stress);
    CHECK(preset.in_battery == !stress);
  }
  CHECK(make("double_pendulum", "taoowhadi2014_omega2000")->parameters()["omega"] == 2000.0);
}

TEST_CASE("Pendulum chain: preset, observables, tip, n override", "[tao_owhadi_problems]") {
  const auto p = make("pendulum_chain", "taoowhadi2014_n10");
  const NewtonianState& x = p->initial_state();
  REQUIRE(x.q.size() == 20);
  for (int i = 1; i <= 10; ++i) {
    CHECK(x.q(2 * i - 2) == i);
    CHECK(x.q(2 * i - 1) == -2 * i);
  }
  VectorXd g;
  p->model().constraint_set()->values(x.q, g);
  CHECK(max_abs(g) <= 1e-13);
  CHECK(p->model().mass_matrix() == MatrixXd::Identity(20, 20));
  CHECK(p->model().unpenalized()->potential(x.q) == -110.0);  // sum y_i = -2 (1 + ... + 10)
  for (const char* name : {"omega2_g_norm", "x1", "y1", "x5", "y5", "x10", "y10"}) CHECK(has_observable(*p, name));
  CHECK(p->tip() == std::vector<int>{18, 19});
  CHECK(gib::find_problem("pendulum_chain").constrained);

  const auto three = make("pendulum_chain", "taoowhadi2014_n10", {{"n", 3}});
  CHECK(three->model().dim() == 6);
  CHECK(three->tip() == std::vector<int>{4, 5});
  CHECK(has_observable(*three, "x3"));
  CHECK(!has_observable(*three, "x5"));
  CHECK(three->parameters()["n"] == 3);
}

TEST_CASE("Pendula: random:K initial states are consistent, seeded and distinct", "[tao_owhadi_problems]") {
  for (const auto& [id, preset] : std::vector<std::pair<std::string, std::string>>{
           {"double_pendulum", "taoowhadi2014"}, {"pendulum_chain", "taoowhadi2014_n10"}}) {
    INFO(id);
    const auto a = make(id, preset, Json::object(), "random:1");
    const auto again = make(id, preset, Json::object(), "random:1");
    const auto b = make(id, preset, Json::object(), "random:2");
    CHECK(a->initial_state().q == again->initial_state().q);
    CHECK(a->initial_state().q != b->initial_state().q);
    for (const auto* p : {a.get(), b.get()}) {
      VectorXd g;
      MatrixXd G;
      p->model().constraint_set()->values(p->initial_state().q, g);
      p->model().constraint_set()->jacobian(p->initial_state().q, G);
      CHECK(max_abs(g) <= 1e-13);
      CHECK(max_abs(VectorXd(G * p->initial_state().v)) <= 1e-13);
      CHECK(p->initial_state().v.norm() > 0);
    }
  }
}

TEST_CASE("Constrained dynamics in the rod angles equal the Cartesian Lagrange-multiplier equations",
          "[tao_owhadi_problems]") {
  gib::random::Stream rng(6);
  for (int n : {1, 2, 10}) {
    gib::planar_chain::Chain chain;
    for (int i = 0; i < n; ++i) {
      chain.masses.push_back(rng.uniform(0.5, 2));
      chain.lengths.push_back(rng.uniform(0.5, 2));
    }
    chain.gravity = 9.81;
    chain.gravity_sign = n == 2 ? -1.0 : 1.0;
    for (int k = 0; k < 5; ++k) {
      const VectorXd th = random_vector(rng, n, -3, 3), w = random_vector(rng, n, -2, 2);
      VectorXd th_dd;
      gib::planar_chain::angular_acceleration(chain, th, w, th_dd);
      const NewtonianState x = gib::planar_chain::cartesian_state(chain, th, w);
      const VectorXd expected = multiplier_acceleration(chain, x);
      CHECK(max_abs(VectorXd(cartesian_acceleration(chain, th, w, th_dd) - expected)) <= 1e-10 * std::max(1.0, max_abs(expected)));
      // The angle energy is the Cartesian energy of the mapped state.
      const gib::planar_chain::GravityModel gravity(chain);
      CHECK(gib::planar_chain::angular_energy(chain, th, w) == Approx(gravity.energy(x)).epsilon(1e-13));
      // angles() inverts cartesian_state().
      VectorXd th2, w2;
      gib::planar_chain::angles(chain, x, th2, w2);
      for (int i = 0; i < n; ++i) {
        CHECK(std::remainder(th2(i) - th(i), 2 * std::numbers::pi) == Approx(0).margin(1e-14));
        CHECK(w2(i) == Approx(w(i)).margin(1e-14));
      }
    }
  }
}

TEST_CASE("Constrained reference of the double pendulum: energy to 1e-10, g = 0 and G v = 0 in Cartesian",
          "[tao_owhadi_problems]") {
  const auto p = make("double_pendulum", "taoowhadi2014");
  const auto* ref = p->constrained_reference();
  REQUIRE(ref != nullptr);
  CHECK(ref->kind() == "numerical");
  const gib::planar_chain::GravityModel gravity(printed_double_pendulum());
  const auto* rods = p->model().constraint_set();
  const double E0 = gravity.energy(p->initial_state());
  CHECK(E0 == -3.0);
  double drift = 0, violation = 0, tangent = 0;
  for (int k = 0; k <= 200; ++k) {
    const NewtonianState x = ref->state(0.25 * k);
    VectorXd g;
    MatrixXd G;
    rods->values(x.q, g);
    rods->jacobian(x.q, G);
    drift = std::max(drift, std::abs(gravity.energy(x) - E0));
    violation = std::max(violation, max_abs(g));
    tangent = std::max(tangent, max_abs(VectorXd(G * x.v)));
  }
  INFO("t <= 50: max |E - E0| " << drift << ", max |g| " << violation << ", max |G v| " << tangent);
  CHECK(drift <= 1e-10);
  CHECK(violation <= 1e-13);
  CHECK(tangent <= 1e-13);
  CHECK(ref->state(0).q == p->initial_state().q);  // bit for bit at t = 0
  CHECK(ref->error_estimate(50) <= 1e-8);

  // The chain's: n = 10, t <= 10.
  const auto c = make("pendulum_chain", "taoowhadi2014_n10");
  const gib::planar_chain::GravityModel chain_gravity(
      {std::vector<double>(10, 1.0), std::vector<double>(10, std::sqrt(5.0)), 1.0, 1.0});
  double chain_drift = 0;
  for (int k = 1; k <= 20; ++k)
    chain_drift = std::max(chain_drift, std::abs(chain_gravity.energy(c->constrained_reference()->state(0.5 * k)) + 110));
  INFO("chain, t <= 10: max |E - E0| " << chain_drift);
  CHECK(chain_drift <= 1e-10);
}

TEST_CASE("Penalised reference approaches the constrained one as omega grows", "[tao_owhadi_problems]") {
  const double T = 2;
  std::vector<double> distances;
  for (double omega : {20.0, 100.0, 500.0}) {
    const auto p = make("double_pendulum", "taoowhadi2014", {{"omega", omega}});
    const NewtonianState pen = p->reference()->state(T), con = p->constrained_reference()->state(T);
    distances.push_back((pen.q - con.q).norm());
    CHECK(p->reference()->error_estimate(T) < 1e-3 * distances.back());
  }
  INFO("|q_omega(2) - q(2)| for omega = 20, 100, 500: " << distances[0] << ", " << distances[1] << ", "
                                                         << distances[2]);
  CHECK(distances[1] < distances[0]);
  CHECK(distances[2] < distances[1]);

  // reference = constrained: reference() is the constrained solution, and the choice is a parameter.
  const auto c = make("double_pendulum", "taoowhadi2014", {{"reference", "constrained"}});
  const auto d = make("double_pendulum", "taoowhadi2014");
  CHECK(c->reference() == c->constrained_reference());
  CHECK(d->reference() != d->constrained_reference());
  CHECK(c->parameter_hash() != d->parameter_hash());
}

TEST_CASE("Newtonian reference: exact on oscillators, independent of the request order, honest estimate",
          "[tao_owhadi_problems]") {
  // Diagonal and full mass matrices (the Cholesky branch).
  MatrixXd Md = MatrixXd::Zero(3, 3), Mf(3, 3), K(3, 3);
  Md.diagonal() << 1, 2, 0.5;
  Mf << 2, 0.5, 0.1, 0.5, 1, 0.2, 0.1, 0.2, 1.5;
  K << 3, -1, 0, -1, 2, -0.5, 0, -0.5, 4;
  const NewtonianState x0{VectorXd::LinSpaced(3, 0.5, -0.5), VectorXd::LinSpaced(3, -1, 1)};
  for (const MatrixXd& M : {Md, Mf}) {
    const gib::NewtonianNumericalReference ref(gib::newtonian_ode(std::make_shared<Quadratic>(M, K), x0));
    for (double t : {0.3, 7.0, 31.4, 100.0}) {
      const double err = distance(ref.state(t), quadratic_exact(M, K, x0, t));
      INFO("t = " << t << ": error " << err << ", estimate " << ref.error_estimate(t));
      CHECK(err <= 1e-10);
      CHECK(err <= ref.error_estimate(t));
    }
  }

  // The same states whatever was asked before: forwards, backwards, interleaved.
  const auto p = make("double_pendulum", "taoowhadi2014");
  const auto model = p->model_ptr();
  const gib::NewtonianNumericalReference forward(gib::newtonian_ode(model, p->initial_state()));
  const gib::NewtonianNumericalReference backward(gib::newtonian_ode(model, p->initial_state()));
  CHECK(forward.step_attempts() == 0);  // building integrates nothing
  std::vector<double> times;
  for (int k = 1; k <= 60; ++k) times.push_back(0.37 * k);
  std::vector<NewtonianState> a, b(times.size());
  for (double t : times) a.push_back(forward.state(t));
  for (std::size_t k = times.size(); k-- > 0;) b[k] = backward.state(times[k]);
  for (std::size_t k = 0; k < times.size(); ++k) {
    CHECK(a[k].q == b[k].q);
    CHECK(a[k].v == b[k].v);
  }
  CHECK(forward.state(0).q == p->initial_state().q);

  // The estimate bounds the distance to a 100x tighter run (penalised omega = 20, t <= 20).
  const gib::NewtonianNumericalReference tight(gib::newtonian_ode(model, p->initial_state()),
                                               gib::NewtonianReferenceSettings{10.0, 1e-15, 10.0});
  for (double t : {5.0, 20.0}) {
    const double err = distance(forward.state(t), tight.state(t));
    INFO("t = " << t << ": distance to the tight run " << err << ", estimate " << forward.error_estimate(t));
    CHECK(err <= forward.error_estimate(t));
    CHECK(forward.error_estimate(t) <= 1e-9);
  }
  CHECK_THROWS_AS(forward.state(-1), std::domain_error);
  CHECK_THROWS_AS(forward.state(NAN), std::domain_error);
}

TEST_CASE("Tao-Owhadi problems: building is lazy and equal problems share one reference", "[tao_owhadi_problems]") {
  const Json o = {{"masses", {1.0, 1.0000123}}};  // trajectories no other test asks for
  const auto p = make("double_pendulum", "taoowhadi2014", o);
  const auto* ref = dynamic_cast<const gib::NewtonianNumericalReference*>(p->reference());
  const auto* con = dynamic_cast<const gib::NewtonianNumericalReference*>(p->constrained_reference());
  REQUIRE(ref != nullptr);
  REQUIRE(con != nullptr);
  CHECK(ref->step_attempts() == 0);
  CHECK(con->step_attempts() == 0);
  CHECK(make("double_pendulum", "taoowhadi2014", o)->reference() == p->reference());
  // The constrained solution does not depend on omega.
  Json other_omega = o;
  other_omega["omega"] = 50;
  const auto q = make("double_pendulum", "taoowhadi2014", other_omega);
  CHECK(q->constrained_reference() == p->constrained_reference());
  CHECK(q->reference() != p->reference());
  const auto d = make("dna_torsion", "n20", {{"seed", 987654}});
  const auto* dna = dynamic_cast<const gib::NewtonianNumericalReference*>(d->reference());
  REQUIRE(dna != nullptr);
  CHECK(dna->step_attempts() == 0);
  CHECK(dna->state(5).q.size() == 20);
  CHECK(dna->error_estimate(5) <= 1e-9);
}

TEST_CASE("Tao-Owhadi problems: bad input throws InputError with one line", "[tao_owhadi_problems]") {
  const Json nan = std::nan("");
  check_one_line_input_error("double_pendulum", "nope", Json::object());
  check_one_line_input_error("double_pendulum", "taoowhadi2014", {{"lengths", {1.0, -1.0}}});
  check_one_line_input_error("double_pendulum", "taoowhadi2014", {{"masses", {0.0, 1.0}}});
  check_one_line_input_error("double_pendulum", "taoowhadi2014", {{"masses", {1.0}}});
  check_one_line_input_error("double_pendulum", "taoowhadi2014", {{"omega", 0}});
  check_one_line_input_error("double_pendulum", "taoowhadi2014", {{"omega", nan}});
  check_one_line_input_error("double_pendulum", "taoowhadi2014", {{"gravity", -1}});
  check_one_line_input_error("double_pendulum", "taoowhadi2014", {{"gravity_sign", 2}});
  check_one_line_input_error("double_pendulum", "taoowhadi2014", {{"reference", "exact"}});
  check_one_line_input_error("double_pendulum", "taoowhadi2014", {{"q0", {0.0, -1.0, 1.0, -2.1}}});
  check_one_line_input_error("double_pendulum", "taoowhadi2014", {{"q0", {0.0, -1.0, 1.0, nan}}});
  check_one_line_input_error("double_pendulum", "taoowhadi2014", {{"v0", {1.0, 0.0, 0.0, 0.0}}});
  check_one_line_input_error("double_pendulum", "taoowhadi2014", {{"lengths", {1.0, 2.0}}, {"q0", {0.0, -1.0, 1.0, -2.0}}});
  check_one_line_input_error("double_pendulum", "taoowhadi2014", {{"omgea", 20}});
  check_one_line_input_error("double_pendulum", "taoowhadi2014", Json::object(), "random:0");
  check_one_line_input_error("double_pendulum", "taoowhadi2014", {{"q0", {0.0, -1.0, 1.0, -2.0}}}, "random:1");
  check_one_line_input_error("pendulum_chain", "taoowhadi2014", Json::object());
  check_one_line_input_error("pendulum_chain", "taoowhadi2014_n10", {{"n", 0}});
  check_one_line_input_error("pendulum_chain", "taoowhadi2014_n10", {{"n", 2.5}});
  check_one_line_input_error("pendulum_chain", "taoowhadi2014_n10", {{"n", 201}});
  check_one_line_input_error("pendulum_chain", "taoowhadi2014_n10", {{"reference", nullptr}});
  check_one_line_input_error("pendulum_chain", "taoowhadi2014_n10", {{"omega", -20}});
  check_one_line_input_error("pendulum_chain", "taoowhadi2014_n10", {{"lengths", {1.0}}});
  check_one_line_input_error("dna_torsion", "taoowhadi2014_n20", Json::object());
  check_one_line_input_error("dna_torsion", "n20", {{"N", 2}});
  check_one_line_input_error("dna_torsion", "n20", {{"epsilon", -1.0}});
  check_one_line_input_error("dna_torsion", "n20", {{"a", 0}});
  check_one_line_input_error("dna_torsion", "n20", {{"x0", nan}});
  check_one_line_input_error("dna_torsion", "n20", {{"boundary", "open"}});
  check_one_line_input_error("dna_torsion", "n20", {{"seed", -3}});
  check_one_line_input_error("dna_torsion", "n20", {{"beta", 0.3}});

  // Good overrides are accepted and recorded.
  const auto q = make("double_pendulum", "taoowhadi2014",
                      {{"q0", {std::sin(0.3), -std::cos(0.3), std::sin(0.3) + std::sqrt(2.0), -std::cos(0.3)}},
                       {"v0", {std::cos(0.3), std::sin(0.3), std::cos(0.3), std::sin(0.3)}}});
  CHECK(q->initial_state().v(0) == std::cos(0.3));
  CHECK(make("dna_torsion", "n20", {{"boundary", "free"}, {"epsilon", 0}})->parameters()["boundary"] == "free");
}

// ---- The rigid TIP3P water cluster (spec 4.3)

namespace {

// |g(q)| and |G v| within tol: on the rigid-water manifold, moving along it.
void check_on_constraints(const gib::ConstraintSet& rods, const NewtonianState& x, double tol) {
  VectorXd gv;
  MatrixXd G;
  rods.values(x.q, gv);
  rods.jacobian(x.q, G);
  CHECK(max_abs(gv) <= tol);
  CHECK(max_abs(VectorXd(G * x.v)) <= tol);
}

const gib::PenalizedModel& penalized_of(const gib::NewtonianProblem& p) {
  const auto* m = dynamic_cast<const gib::PenalizedModel*>(&p.model());
  REQUIRE(m != nullptr);
  return *m;
}

}  // namespace

TEST_CASE("Water cluster: TIP3P and penalty derivatives match finite differences", "[tao_owhadi_problems][water]") {
  const auto p = make("water_cluster", "n7", Json::object(), "random:3");
  const auto& penalized = penalized_of(*p);
  gib::random::Stream rng(21);
  const VectorXd a = random_vector(rng, p->model().dim(), -1, 1);
  // At the initial state (bonds at rest length) and off it, where the penalty's g Hess g term is not zero.
  check_derivatives(*penalized.unpenalized(), p->initial_state().q, a);
  check_derivatives(penalized, p->initial_state().q + 0.05 * random_vector(rng, p->model().dim(), -1, 1), a);
  // The radial terms of eq. 30 on their own, f''' included.
  const double r = 2.7, h = 1e-4;
  for (const auto& [name, f] : std::vector<std::pair<std::string, std::function<gib::water_cluster::Radial(double)>>>{
           {"coulomb", [](double x) { return gib::water_cluster::coulomb_term(-138.4, x); }},
           {"lennard-jones", [](double x) { return gib::water_cluster::lennard_jones_term(582.0e3, 595.0, x); }}}) {
    INFO(name);
    const auto t = f(r), tp = f(r + h), tm = f(r - h);
    CHECK(std::abs(t.d1 - (tp.f - tm.f) / (2 * h)) <= 1e-7 * std::abs(t.d1));
    CHECK(std::abs(t.d2 - (tp.d1 - tm.d1) / (2 * h)) <= 1e-7 * std::abs(t.d2));
    CHECK(std::abs(t.d3 - (tp.d2 - tm.d2) / (2 * h)) <= 1e-7 * std::abs(t.d3));
  }
}

TEST_CASE("Water cluster: the forces conserve linear and angular momentum (translation and rotation invariance)",
          "[tao_owhadi_problems][water]") {
  const auto p = make("water_cluster", "n7");
  const VectorXd& q = p->initial_state().q;
  VectorXd g;
  penalized_of(*p).unpenalized()->gradient(q, g);
  Eigen::Vector3d force = Eigen::Vector3d::Zero(), torque = Eigen::Vector3d::Zero();
  for (int i = 0; i < 21; ++i) {
    force += g.segment<3>(3 * i);
    torque += q.segment<3>(3 * i).cross(g.segment<3>(3 * i));
  }
  INFO("max |dV/dq| " << max_abs(g));
  CHECK(max_abs(g) > 1.0);  // the forces are not trivially zero
  CHECK(force.norm() <= 1e-12 * max_abs(g));
  CHECK(torque.norm() <= 1e-11 * max_abs(g));
}

TEST_CASE("Water cluster: the gradient has the same bits for 1, 2 and 4 threads", "[tao_owhadi_problems][water]") {
  const auto p = make("water_cluster", "n100");
  const auto& tip3p = *penalized_of(*p).unpenalized();
  const int saved = omp_get_max_threads();
  std::vector<VectorXd> g(3);
  const int threads[] = {1, 2, 4};
  for (int k = 0; k < 3; ++k) {
    omp_set_num_threads(threads[k]);
    tip3p.gradient(p->initial_state().q, g[static_cast<std::size_t>(k)]);
  }
  omp_set_num_threads(saved);
  CHECK(std::memcmp(g[0].data(), g[1].data(), sizeof(double) * static_cast<std::size_t>(g[0].size())) == 0);
  CHECK(std::memcmp(g[0].data(), g[2].data(), sizeof(double) * static_cast<std::size_t>(g[0].size())) == 0);
  // N = 100 has 49500 pair terms: more than one chunk, so the threads really split the work.
  std::vector<std::int64_t> work(100);
  for (int a = 0; a < 100; ++a) work[static_cast<std::size_t>(a)] = 10 * (99 - a);
  CHECK(gib::partition_rows(work, std::vector<std::size_t>(100, 100)).size() > 1);
}

// The TIP3P gradient as a plain scalar loop: molecule pairs a < b in order, the 9 Coulomb terms by atoms i, j, then the
// oxygens' Lennard-Jones, each term's force (f'(r) / r) d added to atom i and subtracted from atom j.
VectorXd scalar_tip3p_gradient(const gib::water_cluster::Tip3pModel& m, const VectorXd& q) {
  namespace wc = gib::water_cluster;
  const auto& p = m.parameters();
  VectorXd g = VectorXd::Zero(m.dim());
  auto add = [&](int i, int j, const wc::Radial& t, double r, const Eigen::Vector3d& d) {
    const Eigen::Vector3d f = (t.d1 / r) * d;
    g.segment<3>(3 * i) += f;
    g.segment<3>(3 * j) -= f;
  };
  for (int a = 0; a < p.molecules; ++a)
    for (int b = a + 1; b < p.molecules; ++b) {
      for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) {
          const Eigen::Vector3d d = q.segment<3>(3 * (3 * a + i)) - q.segment<3>(3 * (3 * b + j));
          const double r = d.norm();
          add(3 * a + i, 3 * b + j, wc::coulomb_term(p.coulomb * m.charge(i) * m.charge(j), r), r, d);
        }
      const Eigen::Vector3d d = q.segment<3>(3 * (3 * a + 1)) - q.segment<3>(3 * (3 * b + 1));
      const double r = d.norm();
      add(3 * a + 1, 3 * b + 1, wc::lennard_jones_term(p.lj_a, p.lj_c, r), r, d);
    }
  return g;
}

TEST_CASE("Water cluster: the 4-lane gradient rows have the scalar loop's bits on every path and tail",
          "[tao_owhadi_problems][water][simd]") {
  namespace wc = gib::water_cluster;
  for (const char* preset : {"n3", "n7", "n100"}) {
    INFO(preset);
    const auto p = make("water_cluster", preset, Json::object(), "random:2");
    const auto& tip3p = dynamic_cast<const wc::Tip3pModel&>(*penalized_of(*p).unpenalized());
    const VectorXd& q = p->initial_state().q;
    const VectorXd expected = scalar_tip3p_gradient(tip3p, q);
    const int n = tip3p.parameters().molecules;
    wc::MoleculeArrays arrays;
    arrays.gather(q, n);
    const wc::TermConstants& k = tip3p.term_constants();
    std::vector<gib::simd::SimdPath> paths{gib::simd::SimdPath::baseline};
    if (gib::simd::best_simd_path() == gib::simd::SimdPath::avx2) paths.push_back(gib::simd::SimdPath::avx2);
    for (const auto path : paths) {
      INFO(gib::simd::simd_path_name(path));
      VectorXd g = VectorXd::Zero(tip3p.dim());
      for (int a = 0; a < n; ++a) wc::molecule_row_simd(path, arrays, k, a, a + 1, n, g.data(), 0);
      CHECK(std::memcmp(g.data(), expected.data(), sizeof(double) * static_cast<std::size_t>(g.size())) == 0);
    }
    if (n < 100) {  // one chunk: the model's gradient is the rows' buffer itself
      VectorXd g;
      tip3p.gradient(q, g);
      CHECK(std::memcmp(g.data(), expected.data(), sizeof(double) * static_cast<std::size_t>(g.size())) == 0);
    }
  }
}

TEST_CASE("Water cluster: initial states on the constraints, at rest as a whole, seeded, on the compact lattice",
          "[tao_owhadi_problems][water]") {
  const auto p = make("water_cluster", "n7");
  const auto& x = p->initial_state();
  const auto* rods = p->model().constraint_set();
  REQUIRE(rods != nullptr);
  CHECK(rods->size() == 21);
  check_on_constraints(*rods, x, 1e-13);
  const VectorXd m = p->model().mass_matrix().diagonal();
  Eigen::Vector3d momentum = Eigen::Vector3d::Zero();
  for (int i = 0; i < 21; ++i) momentum += m(3 * i) * x.v.segment<3>(3 * i);
  CHECK(momentum.norm() <= 1e-13);
  CHECK(m(0) == 1.008);
  CHECK(m(3) == 15.9994);
  // N = 7: the octahedron and its centre, 3.0 A from the centre to each vertex.
  std::vector<double> from_centre;
  for (int a = 0; a < 7; ++a) from_centre.push_back(x.q.segment<3>(9 * a + 3).norm());
  std::sort(from_centre.begin(), from_centre.end());
  CHECK(from_centre[0] == 0.0);
  for (int a = 1; a < 7; ++a) CHECK(from_centre[static_cast<std::size_t>(a)] == Approx(3.0).epsilon(1e-15));
  // A cold cluster: the kinetic energy is about (63 - 21 - 3) / 2 kT with kT = 1/50, far from the bonds' scale.
  const double ke = p->model().kinetic_energy(x.v);
  INFO("kinetic energy " << ke);
  CHECK(ke > 0.05);
  CHECK(ke < 1.0);
  // Seeded: the same draw twice, another for random:1.
  CHECK(make("water_cluster", "n7")->initial_state().v == x.v);
  CHECK(make("water_cluster", "n7", Json::object(), "random:1")->initial_state().v != x.v);
  CHECK(p->time_scale() > 0.005);
  CHECK(p->time_scale() < 0.05);
}

TEST_CASE("Water cluster: the constrained reference keeps the rigid geometry, the energy and the momenta",
          "[tao_owhadi_problems][water]") {
  const auto p = make("water_cluster", "n7", {{"reference", "constrained"}});
  const auto* ref = p->reference();
  REQUIRE(ref != nullptr);
  const NewtonianState x = ref->state(2.0);
  const auto* rods = p->model().constraint_set();
  check_on_constraints(*rods, x, 1e-9);
  const auto& V0 = *penalized_of(*p).unpenalized();
  const double e0 = V0.energy(p->initial_state()), e1 = V0.energy(x);
  INFO("energy " << e0 << " -> " << e1);
  CHECK(std::abs(e1 - e0) <= 1e-9 * std::abs(e0));
  CHECK(distance(x, p->initial_state()) > 1e-3);  // it moved
  for (const auto& inv : p->invariants())
    if (inv.id != gib::Invariant::energy) CHECK((inv.value(x) - inv.value(p->initial_state())).norm() <= 1e-9 * (1 + inv.scale));
}

TEST_CASE("Generic constrained dynamics equal the planar chain's Lagrange-multiplier equations",
          "[tao_owhadi_problems][water]") {
  const auto chain = printed_double_pendulum();
  const auto gravity = std::make_shared<const gib::planar_chain::GravityModel>(chain);
  const NewtonianState x = gib::planar_chain::cartesian_state(chain, Eigen::Vector2d(0.4, -0.9), Eigen::Vector2d(0.7, 1.3));
  const auto ode = gib::constrained_newtonian_ode(gravity, gib::planar_chain::rods(chain), x);
  VectorXd a;
  ode.acceleration(x.q, x.v, a);
  CHECK(max_abs(VectorXd(a - multiplier_acceleration(chain, x))) <= 1e-12);
}

namespace {

// The same model with its block structure hidden: Integrator 5 then factorises the dense stiff Hessian.
class WithoutBlocks final : public gib::NewtonianModel {
 public:
  explicit WithoutBlocks(const gib::NewtonianModel& m) : m_(m) {}
  int dim() const override { return m_.dim(); }
  const MatrixXd& mass_matrix() const override { return m_.mass_matrix(); }
  bool diagonal_mass() const override { return m_.diagonal_mass(); }
  double potential(const VectorXd& q) const override { return m_.potential(q); }
  void gradient(const VectorXd& q, VectorXd& g) const override { m_.gradient(q, g); }
  void hessian(const VectorXd& q, MatrixXd& H) const override { m_.hessian(q, H); }
  void third_derivative_contracted(const VectorXd& q, const VectorXd& a, VectorXd& out) const override {
    m_.third_derivative_contracted(q, a, out);
  }
  bool has_stiff_part() const override { return m_.has_stiff_part(); }
  void stiff_hessian(const VectorXd& q, MatrixXd& H) const override { m_.stiff_hessian(q, H); }

 private:
  const gib::NewtonianModel& m_;
};

}  // namespace

TEST_CASE("Water cluster: the stiff Hessian's 9x9 blocks, and Integrator 5 solving block by block",
          "[tao_owhadi_problems][water]") {
  const auto p = make("water_cluster", "n7", Json::object(), "random:2");
  const auto& model = p->model();
  REQUIRE(model.stiff_block_size() == 9);
  gib::random::Stream rng(5);
  const VectorXd q = p->initial_state().q + 0.03 * random_vector(rng, model.dim(), -1, 1);  // bonds off rest length
  MatrixXd H;
  model.stiff_hessian(q, H);
  std::vector<MatrixXd> blocks(7);
  model.stiff_hessian_blocks(q, blocks);
  MatrixXd assembled = MatrixXd::Zero(63, 63);
  for (int k = 0; k < 7; ++k) assembled.block(9 * k, 9 * k, 9, 9) = blocks[static_cast<std::size_t>(k)];
  CHECK(max_abs(MatrixXd(assembled - H)) <= 1e-12 * max_abs(H));  // and H has nothing outside the blocks
  // 200 steps of Integrator 5 at the paper's h = 0.05: block by block and dense agree to round-off.
  const auto& zs_stiff = gib::find_method("zs_stiff");
  Json params = *zs_stiff.default_params;
  const WithoutBlocks dense(model);
  auto blocked_stepper = zs_stiff.newtonian(model, params);
  auto dense_stepper = zs_stiff.newtonian(dense, params);
  NewtonianState a = p->initial_state(), b = p->initial_state();
  gib::OpCounters ca, cb;
  for (int i = 0; i < 200; ++i) {
    REQUIRE(blocked_stepper->step(a, 0.05, ca) == gib::StepStatus::ok);
    REQUIRE(dense_stepper->step(b, 0.05, cb) == gib::StepStatus::ok);
  }
  INFO("distance " << distance(a, b));
  CHECK(distance(a, b) <= 1e-9 * (a.q.norm() + a.v.norm()));
  CHECK(distance(a, p->initial_state()) > 1e-2);
  CHECK(ca.linear_solves == cb.linear_solves);
}

TEST_CASE("Water cluster: bad input throws InputError with one line", "[tao_owhadi_problems][water]") {
  check_one_line_input_error("water_cluster", "n8", Json::object());
  check_one_line_input_error("water_cluster", "n7", {{"molecules", 1}});
  check_one_line_input_error("water_cluster", "n7", {{"molecules", 7.5}});
  check_one_line_input_error("water_cluster", "n7", {{"omega", 0}});
  check_one_line_input_error("water_cluster", "n7", {{"beta", -50}});
  check_one_line_input_error("water_cluster", "n7", {{"coulomb", "332"}});
  check_one_line_input_error("water_cluster", "n7", {{"reference", "exact"}});
  check_one_line_input_error("water_cluster", "n7", {{"temperature", 10}});
  CHECK(make("water_cluster", "n7", {{"omega", 500}})->parameters()["omega"] == 500);
}

}  // namespace gibench_test_tao_owhadi_problems
