// The composition and symmetry machinery of the McLachlan-Quispel lectures (spec 2.1-2.7, 10): exact tangent maps
// of the splittings, implicit Euler, the projections onto self-adjoint and reversible methods, processed symplectic
// Euler, and the Thue-Morse words on the Toda flow. Every expected value is independent of the code under test: a
// closed form, another registered method, or central differences of the map itself.
#include <Eigen/Eigenvalues>
#include <Eigen/LU>
#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <memory>
#include <vector>
#include <nlohmann/json.hpp>

#include "core/errors.hpp"
#include "core/method.hpp"
#include "core/problem.hpp"
#include "core/vector_field_problem.hpp"
#include "methods/composition/thue_morse.hpp"

namespace gibench_test_compositions_mq {

namespace {

using gib::VectorFieldState;

std::unique_ptr<gib::VectorFieldProblem> problem(const char* id, const char* preset, const gib::Json& o = gib::Json::object(),
                                                 const char* ic = "preset") {
  auto p = gib::find_problem(id).make(preset, o, ic);
  return std::unique_ptr<gib::VectorFieldProblem>(static_cast<gib::VectorFieldProblem*>(p.release()));
}

std::unique_ptr<gib::VectorFieldStepper> stepper(const char* method, const gib::VectorFieldModel& model,
                                                 const gib::Json& params = gib::Json::object()) {
  const gib::MethodInfo& m = gib::find_method(method);
  gib::Json merged = *m.default_params;
  merged.update(params);
  return m.vector_field(model, merged);
}

// n steps of h from x0.
Eigen::VectorXd run(gib::VectorFieldStepper& s, const Eigen::VectorXd& x0, double h, int n) {
  VectorFieldState x{x0};
  gib::OpCounters c;
  for (int i = 0; i < n; ++i) REQUIRE(s.step(x, h, c) == gib::StepStatus::ok);
  return x.x;
}

// One step's Jacobian by central differences of the stepper's own map.
Eigen::MatrixXd central_jacobian(const char* method, const gib::VectorFieldModel& model, const Eigen::VectorXd& x, double h) {
  const Eigen::Index n = x.size();
  Eigen::MatrixXd J(n, n);
  const double e = 1e-6;
  for (Eigen::Index i = 0; i < n; ++i) {
    Eigen::VectorXd a = x, b = x;
    a(i) += e;
    b(i) -= e;
    J.col(i) = (run(*stepper(method, model), a, h, 1) - run(*stepper(method, model), b, h, 1)) / (2 * e);
  }
  return J;
}

Eigen::MatrixXd exact_jacobian(const char* method, const gib::VectorFieldModel& model, const Eigen::VectorXd& x, double h) {
  auto s = stepper(method, model);
  auto* t = dynamic_cast<gib::TangentMap*>(s.get());
  REQUIRE(t != nullptr);
  VectorFieldState y{x};
  Eigen::MatrixXd D;
  gib::OpCounters c;
  REQUIRE(t->step_with_tangent(y, h, D, c) == gib::StepStatus::ok);
  // The tangent step lands where step() does, bit for bit.
  CHECK(y.x == run(*stepper(method, model), x, h, 1));
  return D;
}

// log2 of the ratio of global errors at T = 1 for h and h/2 (spec M13).
double observed_order(const char* method, const gib::VectorFieldProblem& p, double h, const gib::Json& params = gib::Json::object()) {
  const Eigen::VectorXd exact = p.reference()->state(1.0).x;
  const int n = static_cast<int>(std::lround(1.0 / h));
  const double e1 = (run(*stepper(method, p.model(), params), p.initial_state().x, h, n) - exact).norm();
  const double e2 = (run(*stepper(method, p.model(), params), p.initial_state().x, h / 2, 2 * n) - exact).norm();
  return std::log2(e1 / e2);
}

}  // namespace

TEST_CASE("splittings: the exact tangent map matches central differences and has det 1", "[compositions_mq]") {
  const auto p = problem("pendulum", "mq1998");
  for (const char* m : {"leapfrog_dkd", "leapfrog_kdk", "symplectic_euler", "symplectic_euler_processed", "leapfrog4"})
    for (const Eigen::Vector2d& x : {Eigen::Vector2d(1.0, 0.5), Eigen::Vector2d(-2.5, 1.8), Eigen::Vector2d(0.3, -2.0)})
      for (const double h : {0.1, 1.0}) {
        INFO(m << " at (" << x.transpose() << "), h = " << h);
        const Eigen::MatrixXd D = exact_jacobian(m, p->model(), x, h);
        CHECK((D - central_jacobian(m, p->model(), x, h)).norm() < 1e-8);
        CHECK(std::abs(D.determinant() - 1.0) < 1e-13);
      }
  // The comparison can fail: DKD's and KDK's maps differ at h = 1 by far more than the tolerance.
  const Eigen::VectorXd x = Eigen::Vector2d(1.0, 0.5);
  CHECK((exact_jacobian("leapfrog_dkd", p->model(), x, 1.0) - central_jacobian("leapfrog_kdk", p->model(), x, 1.0)).norm() > 1e-2);
}

TEST_CASE("implicit Euler: order 1, x+ = x + h f(x+), exact tangent, solver failure reported", "[compositions_mq]") {
  const auto p = problem("pendulum", "mq1998");
  CHECK(observed_order("implicit_euler", *p, 0.01) == Approx(1.0).margin(0.05));
  const Eigen::VectorXd x = Eigen::Vector2d(1.0, 0.5);
  const double h = 0.3;
  const Eigen::VectorXd y = run(*stepper("implicit_euler", p->model()), x, h, 1);
  Eigen::VectorXd f;
  p->model().rhs(y, f);
  CHECK((y - x - h * f).norm() < 1e-14);
  CHECK((exact_jacobian("implicit_euler", p->model(), x, h) - central_jacobian("implicit_euler", p->model(), x, h)).norm() < 1e-8);
  // Implicit Euler dissipates the pendulum's energy: its adjoint (explicit Euler) gains it.
  CHECK(p->model().energy(y) < p->model().energy(x));
}

namespace {

// x' = x^2: y = x + h y^2 has no real root when 4 h x > 1, so Newton cannot converge.
class Quadratic final : public gib::VectorFieldModel {
 public:
  int dim() const override { return 1; }
  void rhs(const Eigen::VectorXd& x, Eigen::VectorXd& f) const override { f = x.array().square().matrix(); }
  void jacobian(const Eigen::VectorXd& x, Eigen::MatrixXd& J) const override { J = (2 * x).asDiagonal(); }
};

}  // namespace

TEST_CASE("implicit methods: no real solution gives solver_failed, never the last iterate", "[compositions_mq]") {
  const Quadratic model;
  for (const char* m : {"implicit_euler", "projection_adjoint"}) {
    INFO(m);
    auto s = stepper(m, model);
    gib::OpCounters c;
    VectorFieldState x{Eigen::VectorXd::Constant(1, 1.0)};
    CHECK(s->step(x, 2.0, c) == gib::StepStatus::solver_failed);  // 4 h x = 8 > 1 (midpoint: 2 h x = 4 > 1)
    CHECK(c.solver_failures == 1);
    // Where a root exists the same stepper finds it: x+ = (1 - sqrt(1 - 4 h x)) / (2 h) for implicit Euler.
    VectorFieldState z{Eigen::VectorXd::Constant(1, 1.0)};
    REQUIRE(s->step(z, 0.1, c) == gib::StepStatus::ok);
    if (std::string(m) == "implicit_euler") CHECK(z.x(0) == Approx((1 - std::sqrt(1 - 0.4)) / 0.2).epsilon(1e-14));
  }
}

TEST_CASE("projection psi_{h/2} psi*_{h/2}: Euler gives the implicit midpoint rule, symplectic Euler gives KDK", "[compositions_mq]") {
  const auto p = problem("pendulum", "mq1998");
  const Eigen::VectorXd x0 = Eigen::Vector2d(1.0, 0.5);
  for (const double h : {0.1, 0.7}) {
    INFO("h = " << h);
    const Eigen::VectorXd chi = run(*stepper("projection_adjoint", p->model()), x0, h, 100);
    CHECK((chi - run(*stepper("implicit_midpoint", p->model()), x0, h, 100)).norm() < 1e-12);
    const Eigen::VectorXd chi_se = run(*stepper("projection_adjoint", p->model(), {{"base", "symplectic_euler"}}), x0, h, 100);
    CHECK((chi_se - run(*stepper("leapfrog_kdk", p->model()), x0, h, 100)).norm() < 1e-12);
    // ... and not DKD (the check can fail: the two leapfrogs differ at this h).
    CHECK((chi_se - run(*stepper("leapfrog_dkd", p->model()), x0, h, 100)).norm() > 1e-4);
  }
  CHECK(observed_order("projection_adjoint", *p, 0.01) == Approx(2.0).margin(0.05));
  // The base itself is order 1: the projection, not the base, makes the order 2.
  CHECK(observed_order("odeint_euler", *p, 0.01) == Approx(1.0).margin(0.05));
  // Self-adjoint: psi_{-h} o psi_h = id to round-off.
  auto s = stepper("projection_adjoint", p->model());
  const Eigen::VectorXd there = run(*s, x0, 0.5, 1);
  CHECK((run(*s, there, -0.5, 1) - x0).norm() < 1e-14);
  CHECK_THROWS_AS(stepper("projection_adjoint", p->model(), {{"base", "no_such_method"}}), gib::InputError);
  CHECK_THROWS_AS(stepper("projection_adjoint", p->model(), {{"base", "two_step_midpoint"}}), gib::InputError);
}

TEST_CASE("reversible projection psi_{h/2} R psi_{h/2}^-1 R: R-reversible, order 2", "[compositions_mq]") {
  const auto p = problem("pendulum", "mq1998");
  const Eigen::MatrixXd R = *p->model().reversing_involution();
  const Eigen::VectorXd x0 = Eigen::Vector2d(1.0, 0.5);
  for (const char* base : {"odeint_euler", "odeint_rk2", "symplectic_euler", "leapfrog_dkd"}) {
    INFO(base);
    auto s = stepper("reversible_projection", p->model(), {{"base", base}});
    // R chi R = chi^-1: R chi(R chi(x)) = x.
    const Eigen::VectorXd y = R * run(*s, x0, 0.6, 1);
    CHECK((R * run(*s, y, 0.6, 1) - x0).norm() < 1e-13);
    CHECK(observed_order("reversible_projection", *p, 0.01, {{"base", base}}) == Approx(2.0).margin(0.05));
  }
  // For a base with R psi_s R = psi_{-s} it is the adjoint projection (here the implicit midpoint rule).
  CHECK((run(*stepper("reversible_projection", p->model()), x0, 0.3, 50) -
         run(*stepper("implicit_midpoint", p->model()), x0, 0.3, 50)).norm() < 1e-12);
}

TEST_CASE("processed symplectic Euler: the KDK orbit, order 2, while plain symplectic Euler is order 1", "[compositions_mq]") {
  const auto p = problem("pendulum", "mq1998");
  const Eigen::VectorXd x0 = Eigen::Vector2d(0.0, 1.8);
  const Eigen::VectorXd kdk = run(*stepper("leapfrog_kdk", p->model()), x0, 0.5, 1000);
  CHECK((run(*stepper("symplectic_euler_processed", p->model()), x0, 0.5, 1000) - kdk).norm() < 1e-10);
  CHECK((run(*stepper("symplectic_euler", p->model()), x0, 0.5, 1000) - kdk).norm() > 1e-2);
  CHECK(observed_order("symplectic_euler_processed", *p, 0.01) == Approx(2.0).margin(0.05));
  CHECK(observed_order("symplectic_euler", *p, 0.01) == Approx(1.0).margin(0.05));
  // One gradient per step in a run (the output kick reuses symplectic Euler's), plus one for the pre-processing.
  auto s = stepper("symplectic_euler_processed", p->model());
  VectorFieldState x{x0};
  gib::OpCounters c;
  for (int i = 0; i < 10; ++i) s->step(x, 0.5, c);
  CHECK(c.force_evals == 11);
}

TEST_CASE("Toda flow: the symmetry X -> X^-T, the Jacobian, and L = X L0 X^-1 isospectral", "[compositions_mq][toda]") {
  const auto p = problem("toda", "mq1998", gib::Json::object(), "random:1");
  const gib::VectorFieldModel& m = p->model();
  const Eigen::VectorXd x = p->initial_state().x;
  REQUIRE(x.size() == 16);
  Eigen::VectorXd hx, hplus, hminus;
  REQUIRE(m.symmetry(x, hx));
  REQUIRE(m.symmetry(hx, hplus));
  CHECK((hplus - x).norm() < 1e-14);  // an involution
  CHECK((hx - x).norm() < 1e-13);      // the random start is orthogonal: on h's fixed set
  // Off the fixed set (X0 plus a generic perturbation) h moves the point, and is still a symmetry of the field.
  Eigen::VectorXd y = x;
  for (Eigen::Index i = 0; i < y.size(); ++i) y(i) += 0.3 * std::cos(1.3 * static_cast<double>(i));
  Eigen::VectorXd hy, fy, fhy;
  REQUIRE(m.symmetry(y, hy));
  CHECK((hy - y).norm() > 0.1);
  m.rhs(y, fy);
  m.rhs(hy, fhy);
  // dh(y) f(y) = f(h(y)), dh by central differences.
  const double e = 1e-6;
  m.symmetry(y + e * fy, hplus);
  m.symmetry(y - e * fy, hminus);
  CHECK(((hplus - hminus) / (2 * e) - fhy).norm() < 1e-7 * fhy.norm());
  CHECK(fhy.norm() > 0.1);
  // The analytic Jacobian against central differences of f.
  Eigen::MatrixXd J;
  m.jacobian(x, J);
  for (Eigen::Index i = 0; i < x.size(); ++i) {
    Eigen::VectorXd a = x, b = x, fa, fb;
    a(i) += e;
    b(i) -= e;
    m.rhs(a, fa);
    m.rhs(b, fb);
    CHECK(((fa - fb) / (2 * e) - J.col(i)).norm() < 1e-8);
  }
  // The spectrum of L = X L0 X^-1 along the reference is L0's.
  const auto q = problem("toda", "mq1998");
  const Eigen::VectorXd x2 = q->reference()->state(2.0).x;
  const Eigen::Map<const Eigen::MatrixXd> X(x2.data(), 4, 4);
  Eigen::MatrixXd L0 = Eigen::MatrixXd::Zero(4, 4);
  L0.diagonal() << 1, 2, 3, 4;
  L0(0, 1) = L0(1, 0) = 0.5;
  L0(1, 2) = L0(2, 1) = 0.6;
  L0(2, 3) = L0(3, 2) = 0.7;
  const Eigen::MatrixXd L = X * L0 * X.inverse();
  Eigen::VectorXd ev = L.eigenvalues().real(), ev0 = L0.eigenvalues().real();
  std::sort(ev.data(), ev.data() + 4);
  std::sort(ev0.data(), ev0.data() + 4);
  CHECK((ev - ev0).norm() < 1e-10);
  CHECK((X * X.transpose() - Eigen::MatrixXd::Identity(4, 4)).norm() < 1e-10);  // the exact flow stays in O(4)
  CHECK(X.isIdentity(1e-3) == false);
}

TEST_CASE("Thue-Morse words: letters, and the orthogonality error of psi_n falls as tau^(n+2)", "[compositions_mq][toda]") {
  CHECK(gib::composition::thue_morse_letter(0) == 0);
  const int expected[] = {0, 1, 1, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0, 1, 1, 0};
  for (int k = 0; k < 16; ++k) CHECK(gib::composition::thue_morse_letter(static_cast<unsigned>(k)) == expected[k]);
  const auto p = problem("toda", "mq1998");
  const auto orth = [](const Eigen::VectorXd& x) {
    const Eigen::Map<const Eigen::MatrixXd> X(x.data(), 4, 4);
    return (X * X.transpose() - Eigen::MatrixXd::Identity(4, 4)).norm();
  };
  // Depth n covers 2^n letters of tau in one step of 2^n tau; halving tau divides the error by ~2^(n+2).
  for (int depth = 0; depth <= 3; ++depth) {
    const double word = std::ldexp(1.0, depth);
    double err[2];
    for (int k = 0; k < 2; ++k) {
      const double tau = 0.05 / (1 << k);
      err[k] = orth(run(*stepper("thue_morse", p->model(), {{"depth", depth}}), p->initial_state().x, word * tau, 1));
    }
    INFO("depth " << depth << ": " << err[0] << " -> " << err[1]);
    CHECK(std::log2(err[0] / err[1]) > depth + 2 - 0.3);
  }
  // Depth 0 is plain Euler, which leaves O(4) at O(tau^2) per step.
  CHECK(run(*stepper("thue_morse", p->model(), {{"depth", 0}}), p->initial_state().x, 0.05, 1) ==
        run(*stepper("odeint_euler", p->model()), p->initial_state().x, 0.05, 1));
  // On a model without a symmetry the method is refused.
  const auto pend = problem("pendulum", "mq1998");
  CHECK_THROWS_AS(stepper("thue_morse", pend->model()), gib::InputError);
  CHECK_THROWS_AS(stepper("thue_morse", p->model(), {{"sequence", "prefix"}}), gib::InputError);
  CHECK_THROWS_AS(stepper("thue_morse", p->model(), {{"depth", -1}}), gib::InputError);
}

TEST_CASE("Thue-Morse letter by letter: the spec's Fig 4.1 numbers, and the word after 2^n letters", "[compositions_mq][toda]") {
  const auto p = problem("toda", "mq1998");
  const Eigen::VectorXd x0 = p->initial_state().x;
  const auto orth = [](const Eigen::VectorXd& x) {
    const Eigen::Map<const Eigen::MatrixXd> X(x.data(), 4, 4);
    return (X * X.transpose() - Eigen::MatrixXd::Identity(4, 4)).norm();
  };
  auto s = stepper("thue_morse", p->model(), {{"depth", 4}, {"sequence", "letters"}});
  VectorFieldState x{x0};
  gib::OpCounters c;
  std::vector<double> err;
  for (int k = 0; k < 16; ++k) {
    REQUIRE(s->step(x, 0.05, c) == gib::StepStatus::ok);
    err.push_back(orth(x.x));
  }
  // spec 10 [VERIFIED], tau = 0.05: 3.47e-3 after 1 step, 3.2e-4 after 2, 6.0e-5, 4.7e-5, 4.2e-5 after 4, 8, 16.
  CHECK(err[0] == Approx(3.47e-3).epsilon(0.005));
  CHECK(err[1] == Approx(3.2e-4).epsilon(0.05));
  CHECK(err[3] == Approx(6.0e-5).epsilon(0.05));
  CHECK(err[7] == Approx(4.7e-5).epsilon(0.05));
  CHECK(err[15] == Approx(4.2e-5).epsilon(0.05));
  // Between the word boundaries the error is back at Euler's size (the sharp drops of Fig 4.1).
  CHECK(err[2] > 10 * err[3]);
  // 2^n letters of tau are the word psi_n as one step of 2^n tau.
  CHECK((x.x - run(*stepper("thue_morse", p->model(), {{"depth", 4}}), x0, 0.8, 1)).norm() < 1e-15);
  // A state the stepper did not write restarts the word: letter 0 again, i.e. one Euler step.
  VectorFieldState y{x0};
  s->step(y, 0.05, c);
  VectorFieldState z{x0};
  s->step(z, 0.05, c);
  CHECK(z.x == y.x);
}

}  // namespace gibench_test_compositions_mq
