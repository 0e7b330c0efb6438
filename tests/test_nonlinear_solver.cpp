// The nonlinear solver shared by the implicit methods (methods/implicit/nonlinear_solver.hpp) and the analytic
// Jacobians it runs on: Newton and fixed point on model maps, the fallback, the root-rejection safeguard, the
// parameters; Newton on n unknowns and in the F(y) = 0 form, its buffers, the noise floor; the Lie-group derivatives
// of methods/krysl/lie_derivatives.hpp and every Krysl method's fixed-point map against central differences, with
// and without torque; the counters and failures of the lectures' implicit vector-field methods on the solver.
#include <catch2/catch.hpp>
#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "core/errors.hpp"
#include "core/method.hpp"
#include "core/problem.hpp"
#include "core/vector_field_problem.hpp"
#include "harness/runner.hpp"
#include "methods/implicit/nonlinear_solver.hpp"
#include "methods/krysl/implicit_stepper.hpp"
#include "methods/krysl/lie_derivatives.hpp"
#include "problems/common/r33_potential.hpp"

namespace gibench_test_nonlinear_solver {

namespace {

using gib::Json;
using gib::Mat3;
using gib::Vec3;
namespace imp = gib::implicit;

// x = 0.3 sin(x) + b componentwise: a contraction with one root.
struct SineMap {
  Vec3 b{0.5, -1.0, 2.0};
  void operator()(const Vec3& x, Vec3& g, Mat3* dg) const {
    g = 0.3 * x.array().sin().matrix() + b;
    if (dg != nullptr) *dg = (0.3 * x.array().cos()).matrix().asDiagonal();
  }
};

// x = x^2 / 5 componentwise: roots 0 (attracting for the fixed-point iteration) and 5 (repelling). Newton from
// beyond 2.5 goes to 5.
struct TwoRootMap {
  void operator()(const Vec3& x, Vec3& g, Mat3* dg) const {
    g = x.cwiseAbs2() / 5;
    if (dg != nullptr) *dg = (0.4 * x).asDiagonal();
  }
};

Mat3 central_difference(const std::function<Vec3(const Vec3&)>& f, const Vec3& x, double step) {
  Mat3 J;
  for (int j = 0; j < 3; ++j) {
    const Vec3 e = Vec3::Unit(j) * step;
    J.col(j) = (f(x + e) - f(x - e)) / (2 * step);
  }
  return J;
}

}  // namespace

TEST_CASE("Newton and fixed-point iteration find the same root of a contraction", "[nonlinear_solver]") {
  SineMap G;
  gib::OpCounters c;
  const imp::SolverOptions o;
  const auto n = imp::newton<3>(G, Vec3::Zero(), o, c);
  const auto f = imp::fixed_point<3>(G, Vec3::Zero(), o);
  REQUIRE(n.converged);
  REQUIRE(f.converged);
  Vec3 g;
  G(n.x, g, nullptr);
  CHECK((g - n.x).norm() < 1e-15);
  CHECK((n.x - f.x).norm() < 1e-13);
  CHECK(n.iterations <= 6);  // quadratic
  CHECK(f.iterations > n.iterations);
  CHECK(c.linear_solves == n.iterations);
}

TEST_CASE("the solver reports non-convergence and falls back to fixed point from the predictor", "[nonlinear_solver]") {
  SineMap G;
  gib::OpCounters c;
  imp::SolverOptions o;
  o.max_iter = 2;
  CHECK_FALSE(imp::newton<3>(G, Vec3::Constant(10), o, c).converged);
  CHECK_FALSE(imp::fixed_point<3>(G, Vec3::Constant(10), o).converged);
  // Newton diverging to a non-finite iterate stops at once.
  auto blow_up = [](const Vec3& x, Vec3& g, Mat3* dg) {
    g = x + Vec3::Ones();
    if (dg != nullptr) *dg = Mat3::Identity();  // I - dG singular
  };
  o.max_iter = 50;
  const auto s = imp::newton<3>(blow_up, Vec3::Zero(), o, c);
  CHECK_FALSE(s.converged);
  CHECK(s.iterations == 1);
  // Fallback: Newton capped at one iteration fails, fixed point from the predictor succeeds; iterations add up.
  o.max_iter = 1;
  imp::SolverStats stats;
  const auto r = imp::solve<3>(G, Vec3::Zero(), Vec3::Zero(), o, c, stats);
  CHECK_FALSE(r.converged);  // the fallback has the same cap
  CHECK(stats.fallbacks == 1);
}

TEST_CASE("the safeguard rejects a root far from the predictor and re-solves by fixed point", "[nonlinear_solver]") {
  TwoRootMap G;
  gib::OpCounters c;
  imp::SolverOptions o;
  imp::SolverStats stats;
  // Newton from the predictor 2.6 runs to the far root 5, 24 predictor increments away: fixed point from the
  // predictor finds 0.
  const Vec3 predictor = Vec3::Constant(2.6), previous = Vec3::Constant(2.5);
  o.safeguard = false;
  const auto wild = imp::solve<3>(G, predictor, previous, o, c, stats);
  REQUIRE(wild.converged);
  CHECK((wild.x - Vec3::Constant(5)).norm() < 1e-12);
  CHECK(stats.root_rejections == 0);
  o.safeguard = true;
  const auto safe = imp::solve<3>(G, predictor, previous, o, c, stats);
  REQUIRE(safe.converged);
  CHECK(safe.x.norm() < 1e-12);
  CHECK(safe.by_fixed_point_from_predictor);
  CHECK(stats.root_rejections == 1);
  CHECK(safe.iterations > wild.iterations);
  CHECK(imp::plausible_root<3>(Vec3::Constant(3.0), predictor, previous));
  CHECK_FALSE(imp::plausible_root<3>(Vec3::Constant(5.0), predictor, previous));
}

TEST_CASE("with start previous the safeguard cross-checks the root against a solve from the predictor",
          "[nonlinear_solver]") {
  TwoRootMap G;
  gib::OpCounters c;
  imp::SolverOptions o;
  o.start = imp::StartKind::previous;
  imp::SolverStats stats;
  // Newton from "previous" (2.7) finds 5, 6.75 predictor increments from the predictor (2.3), which the distance
  // test accepts; Newton from the predictor finds 0.
  const Vec3 predictor = Vec3::Constant(2.3), previous = Vec3::Constant(2.7);
  CHECK(imp::plausible_root<3>(Vec3::Constant(5.0), predictor, previous));
  o.safeguard = false;
  const auto wild = imp::solve<3>(G, predictor, previous, o, c, stats);
  REQUIRE(wild.converged);
  CHECK((wild.x - Vec3::Constant(5)).norm() < 1e-12);
  o.safeguard = true;
  const auto safe = imp::solve<3>(G, predictor, previous, o, c, stats);
  REQUIRE(safe.converged);
  CHECK(safe.x.norm() < 1e-12);
  CHECK(stats.root_rejections == 1);
  CHECK(safe.iterations > wild.iterations);  // both solves are counted
  // Where both starts agree nothing is rejected.
  const auto calm = imp::solve<3>(G, Vec3::Constant(0.3), Vec3::Constant(0.4), o, c, stats);
  REQUIRE(calm.converged);
  CHECK(calm.x.norm() < 1e-12);
  CHECK(stats.root_rejections == 1);
}

TEST_CASE("solver parameters have spec 6 defaults and reject bad values", "[nonlinear_solver]") {
  const imp::SolverOptions d = imp::solver_options_from(imp::solver_default_params(), "x");
  CHECK(d.kind == imp::SolverKind::newton);
  CHECK(d.start == imp::StartKind::predictor);
  CHECK(d.tol == 1e-14);
  CHECK(d.max_iter == 50);
  CHECK(d.safeguard);
  const std::vector<std::pair<std::string, Json>> bad = {{"solver", "broyden"}, {"start", "zero"},   {"tol", 0.0},
                                                         {"tol", -1e-3},        {"tol", "small"},    {"max_iter", 0},
                                                         {"max_iter", 2.5},     {"safeguard", "no"}, {"safeguard", 1}};
  for (const auto& [key, value] : bad) {
    Json p = imp::solver_default_params();
    p[key] = value;
    INFO(key << "=" << value.dump());
    CHECK_THROWS_AS(imp::solver_options_from(p, "imid"), gib::InputError);
  }
  const gib::MethodInfo& m = gib::find_method("mkrk_implicit");
  CHECK_THROWS_AS(m.rigid_body(gib::RigidBodyModel(Vec3(1, 2, 3)), gib::merge_method_params(m, {{"tableau", "rk4"}})),
                  gib::InputError);
}

TEST_CASE("Cayley and dexp-inverse derivatives agree with central differences", "[nonlinear_solver][krysl]") {
  const Vec3 w(0.3, -1.2, 0.7);
  for (const double angle : {1e-3, 0.1, 0.49, 0.51, 2.0, 5.0}) {
    const Vec3 a = angle * Vec3(0.48, -0.6, 0.64);
    INFO("angle " << angle);
    // cay(a + d) = cay(a) exp(J d) to first order: read J d from the skew part of cay(a)^T cay(a + d).
    const Mat3 C = gib::so3::cayley(a);
    const Mat3 Jc = central_difference(
        [&](const Vec3& b) { return gib::so3::vee_skew_part(Mat3(C.transpose() * gib::so3::cayley(b))); }, a, 1e-6);
    CHECK((Jc - gib::krysl::cayley_right_jacobian(a)).norm() < 1e-8);
    const Mat3 Jd = central_difference([&](const Vec3& p) { return Vec3(gib::so3::dexp_inv_right(p) * w); }, a, 1e-6);
    CHECK((Jd - gib::krysl::dexp_inv_right_jacobian(a, w)).norm() < 1e-8);
  }
  // The series and closed-form branches of d'(s) meet at s = 0.25.
  const double below = gib::krysl::dexp_inv_coefficient_derivative(0.25 - 1e-12);
  const double above = gib::krysl::dexp_inv_coefficient_derivative(0.25 + 1e-12);
  CHECK(below == Approx(above).epsilon(1e-12));
  CHECK(gib::krysl::dexp_inv_coefficient_derivative(0) == Approx(1.0 / 720).epsilon(1e-15));
}

namespace {

struct JacobianCase {
  std::string name;
  gib::RigidBodyModel model;
  gib::RigidBodyState x;
};

std::vector<JacobianCase> jacobian_cases() {
  const gib::RigidBodyState x{gib::so3::exp(Vec3(0.4, -0.9, 1.3)), Vec3(1.1, -0.7, 2.2)};
  return {{"free body", gib::RigidBodyModel(Vec3(2, 3, 4.5)), x},
          {"heavy top", gib::RigidBodyModel(Vec3(2, 3, 4.5), gib::uniform_gravity_potential(20)), x},
          {"Coulomb body", gib::RigidBodyModel(Vec3(2, 3, 4.5), gib::coulomb_wall_potential(1, 0.001, 1.1)), x}};
}

Eigen::MatrixXd map_central_difference(gib::krysl::StepMapProbe& p, const Eigen::VectorXd& z, double step) {
  const auto n = z.size();
  Eigen::MatrixXd J(n, n);
  Eigen::VectorXd gp, gm;
  for (Eigen::Index j = 0; j < n; ++j) {
    Eigen::VectorXd e = Eigen::VectorXd::Zero(n);
    e(j) = step;
    p.probe_map(z + e, gp, nullptr);
    p.probe_map(z - e, gm, nullptr);
    J.col(j) = (gp - gm) / (2 * step);
  }
  return J;
}

}  // namespace

TEST_CASE("every Krysl method's analytic Jacobian matches central differences", "[nonlinear_solver][krysl]") {
  const std::vector<std::pair<std::string, Json>> methods = {{"imid", {}},
                                                             {"trap", {}},
                                                             {"imidm", {}},
                                                             {"trapm", {}},
                                                             {"akw", {}},
                                                             {"swc1", {}},
                                                             {"bbtrap", {}},
                                                             {"bbtrapwd", {}},
                                                             {"mkrk_implicit", {{"tableau", "midpoint"}}},
                                                             {"mkrk_implicit", {{"tableau", "backward_euler"}}},
                                                             {"mkrk_implicit", {{"tableau", "trapezoid"}}},
                                                             {"mkrk_implicit", {{"tableau", "gauss4"}}}};
  for (const auto& jc : jacobian_cases()) {
    for (const auto& [id, params] : methods) {
      const gib::MethodInfo& m = gib::find_method(id);
      auto stepper = m.rigid_body(jc.model, gib::merge_method_params(m, params.is_null() ? Json::object() : params));
      auto* probe = dynamic_cast<gib::krysl::StepMapProbe*>(stepper.get());
      REQUIRE(probe != nullptr);
      for (const double dt : {0.05, 0.5}) {
        INFO(id << " " << params.dump() << " on the " << jc.name << ", dt = " << dt);
        Eigen::VectorXd z = probe->probe_prepare(jc.x, dt);
        z += 0.05 * Eigen::VectorXd::LinSpaced(z.size(), -1, 1);  // off the predictor, so nothing vanishes by symmetry
        Eigen::VectorXd g;
        Eigen::MatrixXd J;
        probe->probe_map(z, g, &J);
        const Eigen::MatrixXd Jfd = map_central_difference(*probe, z, 1e-6);
        CHECK((J - Jfd).norm() < 1e-8 * std::max(1.0, J.norm()));
      }
    }
  }
}

TEST_CASE("an implicit step counts its iterations and linear solves and reports a failed solve",
          "[nonlinear_solver][krysl]") {
  const gib::RigidBodyModel model(Vec3(2, 3, 4.5), gib::coulomb_wall_potential(1, 0.001, 1.1));
  const gib::RigidBodyState x0{Mat3::Identity(), Vec3(2, 2, 2)};
  const gib::MethodInfo& m = gib::find_method("imid");
  auto stepper = m.rigid_body(model, gib::merge_method_params(m, Json::object()));
  gib::OpCounters c;
  gib::RigidBodyState x = x0;
  REQUIRE(stepper->step(x, 0.5, c) == gib::StepStatus::ok);
  CHECK(c.nonlinear_iters >= 2);
  CHECK(c.linear_solves == c.nonlinear_iters);  // one LU per Newton update
  CHECK(c.nonlinear_iters_max == c.nonlinear_iters);
  // IMID with torque: T_{n-1} for the predictor, one per Newton iteration, one at the midpoint after the solve.
  CHECK(c.force_evals == 1 + c.nonlinear_iters + 1);
  CHECK(c.solver_failures == 0);

  auto capped = m.rigid_body(model, gib::merge_method_params(m, {{"max_iter", 1}}));
  gib::OpCounters f;
  gib::RigidBodyState y = x0;
  CHECK(capped->step(y, 0.5, f) == gib::StepStatus::solver_failed);
  CHECK(f.solver_failures == 1);
  CHECK(y.Pi == x0.Pi);  // the state is left as it was
  CHECK(dynamic_cast<imp::SolverStatsSource&>(*capped).solver_stats().fallbacks == 1);
}

namespace {

using VecX = Eigen::VectorXd;
using MatX = Eigen::MatrixXd;

// x = 0.3 sin(x) + b on n unknowns, coupled through b_i + 0.1 x_{i+1}, for any N.
template <int N>
struct CoupledSineMap {
  imp::VecN<N> b;
  explicit CoupledSineMap(Eigen::Index n) : b(imp::VecN<N>::LinSpaced(n, -1.5, 2.0)) {}
  void operator()(const imp::VecN<N>& x, imp::VecN<N>& g, imp::MatN<N>* dg) const {
    const Eigen::Index n = x.size();
    g = 0.3 * x.array().sin().matrix() + b;
    g.head(n - 1) += 0.1 * x.tail(n - 1);
    if (dg == nullptr) return;
    *dg = (0.3 * x.array().cos()).matrix().asDiagonal();
    for (Eigen::Index i = 0; i + 1 < n; ++i) (*dg)(i, i + 1) += 0.1;
  }
};

}  // namespace

TEST_CASE("Newton runs on n unknowns (N = Eigen::Dynamic) as on a fixed size, and both forms share one loop",
          "[nonlinear_solver]") {
  const imp::SolverOptions o;
  CoupledSineMap<6> G6(6);
  CoupledSineMap<Eigen::Dynamic> Gx(6);
  gib::OpCounters c6, cx;
  const auto fixed = imp::newton<6>(G6, imp::VecN<6>::Zero(), o, c6);
  const auto dynamic = imp::newton<Eigen::Dynamic>(Gx, VecX::Zero(6), o, cx);
  REQUIRE(fixed.converged);
  REQUIRE(dynamic.converged);
  CHECK(dynamic.iterations == fixed.iterations);
  CHECK(cx.linear_solves == c6.linear_solves);
  CHECK((dynamic.x - VecX(fixed.x)).norm() < 1e-15);
  VecX g;
  Gx(dynamic.x, g, nullptr);
  CHECK((g - dynamic.x).norm() < 1e-15);
  CHECK(dynamic.iterations <= 6);  // quadratic

  // newton_root on F(x) = x - G(x), J = I - dG/dx takes the same iterates as newton on G, bit for bit.
  VecX gx;
  MatX dgx;
  auto F = [&](const VecX& x, VecX& f, MatX& J) {
    Gx(x, gx, &dgx);
    f = x - gx;
    J = MatX::Identity(6, 6) - dgx;
  };
  gib::OpCounters cr;
  const auto root = imp::newton_root<Eigen::Dynamic>(F, VecX::Zero(6), o, cr);
  REQUIRE(root.converged);
  CHECK(root.iterations == dynamic.iterations);
  CHECK(root.x == dynamic.x);
  CHECK(cr.linear_solves == cx.linear_solves);
}

TEST_CASE("newton_root reuses the caller's buffers, counts no linear solve for one unknown, and fails as it must",
          "[nonlinear_solver]") {
  imp::SolverOptions o;
  // y^3 = a on n unknowns: a workspace kept between solves of the same size is not reallocated.
  auto cube = [](const VecX& a) {
    return [a](const VecX& y, VecX& f, MatX& J) {
      f = y.array().cube().matrix() - a;
      J = (3 * y.array().square()).matrix().asDiagonal();
    };
  };
  imp::NewtonWorkspace<Eigen::Dynamic> w;
  gib::OpCounters c;
  auto first = cube(VecX::Constant(5, 8.0));
  VecX y = VecX::Constant(5, 1.5);
  REQUIRE(imp::newton_root(first, y, o, c, w).converged);
  CHECK((y - VecX::Constant(5, 2.0)).norm() < 1e-15);
  const double* buffers[] = {w.F.data(), w.dx.data(), w.J.data(), w.lu.matrixLU().data()};
  auto second = cube(VecX::LinSpaced(5, 1.0, 27.0));
  y = VecX::Constant(5, 2.0);
  const imp::NewtonResult r = imp::newton_root(second, y, o, c, w);
  REQUIRE(r.converged);
  CHECK(y(4) == Approx(3.0).epsilon(1e-15));
  CHECK(w.F.data() == buffers[0]);
  CHECK(w.dx.data() == buffers[1]);
  CHECK(w.J.data() == buffers[2]);
  CHECK(w.lu.matrixLU().data() == buffers[3]);

  // One unknown (N = 1): the same iterates as the 1 x 1 dynamic solve, without a linear solve.
  auto scalar = [](const imp::VecN<1>& z, imp::VecN<1>& f, imp::MatN<1>& J) {
    f(0) = z(0) * z(0) * z(0) - 8.0;
    J(0, 0) = 3 * z(0) * z(0);
  };
  gib::OpCounters c1, cx;
  const auto one = imp::newton_root<1>(scalar, imp::VecN<1>::Constant(1.5), o, c1);
  const auto as_dynamic = imp::newton_root<Eigen::Dynamic>(first, VecX::Constant(5, 1.5), o, cx);
  REQUIRE(one.converged);
  CHECK(one.x(0) == as_dynamic.x(0));
  CHECK(one.iterations == as_dynamic.iterations);
  CHECK(c1.linear_solves == 0);
  CHECK(cx.linear_solves == as_dynamic.iterations);

  // y^2 + 1 = 0 has no real root: Newton runs to its cap and reports it, with one LU per update.
  auto no_root = [](const VecX& z, VecX& f, MatX& J) {
    f = z.array().square().matrix() + VecX::Ones(z.size());
    J = (2 * z).asDiagonal();
  };
  gib::OpCounters cf;
  o.max_iter = 40;
  const auto failed = imp::newton_root<Eigen::Dynamic>(no_root, VecX::Constant(2, 0.7), o, cf);
  CHECK_FALSE(failed.converged);
  CHECK(failed.iterations == 40);
  CHECK(cf.linear_solves == 40);
  // A singular Jacobian gives a non-finite iterate: the solve stops there.
  gib::OpCounters cs;
  const auto singular = imp::newton_root<Eigen::Dynamic>(no_root, VecX::Zero(2), o, cs);
  CHECK_FALSE(singular.converged);
  CHECK(singular.iterations == 1);
}

TEST_CASE("noise_floor: a stalled Newton with an inexact residual converges, a diverging one fails early",
          "[nonlinear_solver]") {
  // F(y) = y - 1 - 1e-12 sign(y - 1): a residual whose error flips with the side of the root, as rounding noise
  // does, so Newton's corrections stall at 2e-12 and the 1e-14 test is never met.
  auto noisy = [](const VecX& y, VecX& f, MatX& J) {
    f = VecX::Constant(1, y(0) - 1.0 + (y(0) < 1.0 ? -1e-12 : 1e-12));
    J = MatX::Identity(1, 1);
  };
  imp::SolverOptions o;
  gib::OpCounters c;
  const auto plain = imp::newton_root<Eigen::Dynamic>(noisy, VecX::Constant(1, 2.0), o, c);
  CHECK_FALSE(plain.converged);
  CHECK(plain.iterations == o.max_iter);
  o.noise_floor = 1e-11;
  const auto floored = imp::newton_root<Eigen::Dynamic>(noisy, VecX::Constant(1, 2.0), o, c);
  REQUIRE(floored.converged);
  CHECK(std::abs(floored.x(0) - 1.0) < 1.1e-12);
  CHECK(floored.iterations == 3);  // 2 -> 1 - 1e-12 -> 1 + 1e-12 -> 1 - 1e-12: the third correction did not shrink

  // Newton on atan(y) from y0 = 2 diverges, its corrections growing: the floor stops it at the first growth.
  auto arctan = [](const VecX& y, VecX& f, MatX& J) {
    f = y.array().atan().matrix();
    J = (1.0 / (1.0 + y.array().square())).matrix().asDiagonal();
  };
  const auto diverged = imp::newton_root<Eigen::Dynamic>(arctan, VecX::Constant(1, 2.0), o, c);
  CHECK_FALSE(diverged.converged);
  CHECK(diverged.iterations == 2);
  CHECK(diverged.x(0) == Approx(2.0 - std::atan(2.0) * 5.0));  // the first update applied, the growing one not
  o.noise_floor = 0;
  CHECK(imp::newton_root<Eigen::Dynamic>(arctan, VecX::Constant(1, 2.0), o, c).iterations > 2);
}

namespace {

// x' = x^2: the implicit Euler equation y = x + h y^2 has no real root when 4 h x > 1, the midpoint equation
// m = x + h/2 m^2 none when 2 h x > 1.
class QuadraticField final : public gib::VectorFieldModel {
 public:
  int dim() const override { return 1; }
  void rhs(const VecX& x, VecX& f) const override { f = x.array().square().matrix(); }
  void jacobian(const VecX& x, MatX& J) const override { J = (2 * x).asDiagonal(); }
};

std::unique_ptr<gib::VectorFieldStepper> vector_field_stepper(const char* method, const gib::VectorFieldModel& model) {
  const gib::MethodInfo& m = gib::find_method(method);
  return m.vector_field(model, *m.default_params);
}

std::unique_ptr<gib::VectorFieldProblem> vector_field_problem(const char* id, const Json& overrides = Json::object()) {
  auto p = gib::find_problem(id).make("mq1998", overrides, "preset");
  return std::unique_ptr<gib::VectorFieldProblem>(static_cast<gib::VectorFieldProblem*>(p.release()));
}

}  // namespace

TEST_CASE("the lectures' implicit vector-field methods count one LU per Newton update and fail at their cap",
          "[nonlinear_solver][vector_field]") {
  const QuadraticField quadratic;
  for (const char* id : {"implicit_euler", "implicit_midpoint"}) {
    INFO(id);
    auto s = vector_field_stepper(id, quadratic);
    gib::OpCounters ok;
    gib::VectorFieldState x{VecX::Constant(1, 1.0)};
    REQUIRE(s->step(x, 0.1, ok) == gib::StepStatus::ok);
    CHECK(ok.nonlinear_iters >= 2);
    CHECK(ok.linear_solves == ok.nonlinear_iters);
    CHECK(ok.rhs_evals == 1 + ok.nonlinear_iters);  // the predictor, then f and f' once per update
    gib::OpCounters failed;
    gib::VectorFieldState y{VecX::Constant(1, 1.0)};
    CHECK(s->step(y, 2.0, failed) == gib::StepStatus::solver_failed);
    CHECK(y.x(0) == 1.0);
    CHECK(failed.nonlinear_iters == 50);
    CHECK(failed.linear_solves == 50);
    CHECK(failed.solver_failures == 1);
  }
  // The volume-preserving correction's equation has one unknown: its Newton divides, and every update evaluates
  // the determinant three times (two Gauss points and the derivative); one rhs before, one after.
  const auto volterra = vector_field_problem("volterra");
  auto correction = vector_field_stepper("vp_correction", volterra->model());
  gib::OpCounters c;
  gib::VectorFieldState v = volterra->initial_state();
  REQUIRE(correction->step(v, 0.1, c) == gib::StepStatus::ok);
  CHECK(c.nonlinear_iters >= 2);
  CHECK(c.linear_solves == 0);
  CHECK(c.rhs_evals == 2 + 3 * c.nonlinear_iters);
  // The splitting's midpoint pieces: one LU per update; a piece without a root fails the step at 50 or fewer.
  auto splitting = vector_field_stepper("vp_splitting", volterra->model());
  gib::OpCounters cs;
  v = volterra->initial_state();
  REQUIRE(splitting->step(v, 0.1, cs) == gib::StepStatus::ok);
  CHECK(cs.linear_solves == cs.nonlinear_iters);
  const auto blow_up = vector_field_problem("volterra", {{"x3", 3.0}});
  gib::OpCounters cf;
  gib::VectorFieldState b = blow_up->initial_state();
  CHECK(vector_field_stepper("vp_splitting", blow_up->model())->step(b, 2.0, cf) == gib::StepStatus::solver_failed);
  CHECK(cf.nonlinear_iters >= 1);
  CHECK(cf.linear_solves == cf.nonlinear_iters);
  // The discrete gradients' Newton (forward-difference Jacobian) stops at 30.
  const auto integral3d = vector_field_problem("integral3d");
  gib::OpCounters cd;
  gib::VectorFieldState d = integral3d->initial_state();
  CHECK(vector_field_stepper("dg_avf", integral3d->model())->step(d, 50.0, cd) == gib::StepStatus::solver_failed);
  CHECK(cd.nonlinear_iters >= 1);
  CHECK(cd.nonlinear_iters <= 30);
  CHECK(cd.linear_solves == cd.nonlinear_iters);
}

}  // namespace gibench_test_nonlinear_solver
