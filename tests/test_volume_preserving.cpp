// Volume-preserving integrators (McLachlan-Quispel lectures section 5, spec 7): the Volterra and ABC problems, the VP
// splitting (Lie and Strang) with its exact tangent map, Quispel's correction method against the lectures' closed form
// (Example 25), and the adaptive Dormand-Prince baseline of Fig 5.3.
#include <catch2/catch.hpp>
#include <Eigen/LU>
#include <cmath>
#include <memory>
#include <nlohmann/json.hpp>
#include <numbers>

#include "core/errors.hpp"
#include "core/method.hpp"
#include "core/problem.hpp"
#include "core/vector_field_problem.hpp"

namespace gibench_test_volume_preserving {

namespace {

using gib::VectorFieldState;
using Json = nlohmann::json;

std::unique_ptr<gib::VectorFieldProblem> make(const char* id, const char* preset = "mq1998", const Json& o = Json::object(),
                                              const char* ic = "preset") {
  auto p = gib::find_problem(id).make(preset, o, ic);
  return std::unique_ptr<gib::VectorFieldProblem>(static_cast<gib::VectorFieldProblem*>(p.release()));
}

std::unique_ptr<gib::VectorFieldStepper> stepper(const char* method, const gib::VectorFieldModel& model,
                                                 const Json& params = Json::object()) {
  const gib::MethodInfo& m = gib::find_method(method);
  Json p = *m.default_params;
  p.update(params);
  return m.vector_field(model, p);
}

// One step of the method from x (a fresh stepper each time, so no history leaks between calls).
Eigen::VectorXd step_once(const char* method, const gib::VectorFieldModel& model, const Eigen::VectorXd& x, double h) {
  auto s = stepper(method, model);
  VectorFieldState st{x};
  gib::OpCounters c;
  REQUIRE(s->step(st, h, c) == gib::StepStatus::ok);
  return st.x;
}

// d psi_h / dx by central differences with eps = 1e-6 (spec M8: about 1e-10 accurate).
Eigen::MatrixXd fd_tangent(const char* method, const gib::VectorFieldModel& model, const Eigen::VectorXd& x, double h) {
  const double eps = 1e-6;
  const Eigen::Index n = x.size();
  Eigen::MatrixXd D(n, n);
  for (Eigen::Index j = 0; j < n; ++j) {
    Eigen::VectorXd a = x, b = x;
    a(j) += eps;
    b(j) -= eps;
    D.col(j) = (step_once(method, model, a, h) - step_once(method, model, b, h)) / (2 * eps);
  }
  return D;
}

Eigen::MatrixXd exact_tangent(const char* method, const gib::VectorFieldModel& model, const Eigen::VectorXd& x, double h) {
  auto s = stepper(method, model);
  auto* t = dynamic_cast<gib::TangentMap*>(s.get());
  REQUIRE(t != nullptr);
  VectorFieldState st{x};
  Eigen::MatrixXd D;
  gib::OpCounters c;
  REQUIRE(t->step_with_tangent(st, h, D, c) == gib::StepStatus::ok);
  CHECK((st.x - step_once(method, model, x, h)).norm() == 0.0);  // the same step as step()
  return D;
}

// |x_N - x_ref(T)| after N = T / h steps.
double global_error(const char* method, const gib::VectorFieldProblem& p, double T, int n) {
  auto s = stepper(method, p.model());
  VectorFieldState st = p.initial_state();
  gib::OpCounters c;
  const double h = T / n;
  for (int i = 0; i < n; ++i) REQUIRE(s->step(st, h, c) == gib::StepStatus::ok);
  return (st.x - p.reference()->state(T).x).norm();
}

// Observed orders log2(e(h) / e(h/2)) at h = T/40, T/80, T/160.
std::vector<double> observed_orders(const char* method, const gib::VectorFieldProblem& p, double T) {
  std::vector<double> e, out;
  for (int n : {40, 80, 160, 320}) e.push_back(global_error(method, p, T, n));
  for (std::size_t i = 0; i + 1 < e.size(); ++i) out.push_back(std::log2(e[i] / e[i + 1]));
  return out;
}

}  // namespace

TEST_CASE("volterra: f is the sum of the two source-free pieces of spec 7.2, Jacobians by differences", "[volume]") {
  const auto p = make("volterra");
  const gib::VectorFieldModel& model = p->model();
  const gib::DivergenceFreeSplitting* split = model.divergence_free();
  REQUIRE(split != nullptr);
  REQUIRE(split->pieces() == 2);
  const Eigen::Vector3d x(1.3, 0.7, 2.1);
  Eigen::VectorXd f, g, sum = Eigen::VectorXd::Zero(3);
  model.rhs(x, f);
  CHECK(f(0) == Approx(1.3 * (0.7 - 2.1)));
  CHECK(f(1) == Approx(0.7 * (2.1 - 1.3)));
  CHECK(f(2) == Approx(2.1 * (1.3 - 0.7)));
  const auto fd_jacobian = [&](auto&& fn) {
    Eigen::MatrixXd J(3, 3);
    for (int j = 0; j < 3; ++j) {
      Eigen::VectorXd a = x, b = x, fa, fb;
      a(j) += 1e-6;
      b(j) -= 1e-6;
      fn(a, fa);
      fn(b, fb);
      J.col(j) = (fa - fb) / 2e-6;
    }
    return J;
  };
  Eigen::MatrixXd J;
  model.jacobian(x, J);
  CHECK((J - fd_jacobian([&](const Eigen::VectorXd& y, Eigen::VectorXd& out) { model.rhs(y, out); })).norm() < 1e-8);
  for (int j = 0; j < 2; ++j) {
    CHECK(split->shear_coordinate(j) == -1);
    split->piece_rhs(j, x, g);
    sum += g;
    split->piece_jacobian(j, x, J);
    CHECK(J.trace() == Approx(0.0).margin(1e-15));  // source-free on its own
    CHECK((J - fd_jacobian([&](const Eigen::VectorXd& y, Eigen::VectorXd& out) { split->piece_rhs(j, y, out); })).norm() < 1e-8);
    CHECK(g(1 - j) == 0.0);  // piece j moves x_j and x3 only
  }
  CHECK((sum - f).norm() < 1e-15);
}

TEST_CASE("volterra: the reference keeps x1 + x2 + x3 and x1 x2 x3, and the problem reports both", "[volume]") {
  const auto p = make("volterra");
  const auto inv = p->invariants();
  REQUIRE(inv.size() == 2);  // no energy
  CHECK(inv[0].metric == "linear_integral_err");
  CHECK(inv[1].metric == "cubic_integral_err");
  const VectorFieldState x0 = p->initial_state();
  CHECK(x0.x == Eigen::Vector3d(1, 0.5, 2));
  const VectorFieldState x = p->reference()->state(10.0);
  CHECK(inv[0].value(x)(0) == Approx(3.5).epsilon(1e-11));
  CHECK(inv[1].value(x)(0) == Approx(1.0).epsilon(1e-11));
  CHECK((x.x - x0.x).norm() > 0.1);  // it moved
  CHECK(make("volterra", "mq1998", {{"x3", 3.0}})->initial_state().x(2) == 3.0);
  CHECK_THROWS_AS(make("volterra", "nope"), gib::InputError);
  CHECK_THROWS_AS(make("volterra", "mq1998", {{"x4", 1.0}}), gib::InputError);
  CHECK_THROWS_AS(make("volterra", "mq1998", {{"x1", 1.0}}, "random:1"), gib::InputError);
  const auto r = make("volterra", "mq1998", Json::object(), "random:2")->initial_state().x;
  CHECK(r.minCoeff() >= 0.5);
  CHECK(r.maxCoeff() <= 2.0);
}

TEST_CASE("abc_flow: the standard field, the printed typo, three shears and the z-circuit count", "[volume]") {
  const auto p = make("abc_flow");
  const auto q = make("abc_flow", "mq1998_printed");
  const Eigen::Vector3d x(2, 5, 0);
  CHECK(p->initial_state().x == x);
  Eigen::VectorXd f, g;
  p->model().rhs(x, f);
  CHECK(f(0) == Approx(std::sin(0.0) + 2 * std::cos(5.0)));
  CHECK(f(1) == Approx(std::sin(2.0) + std::cos(0.0)));
  CHECK(f(2) == Approx(2 * std::sin(5.0) + std::cos(2.0)));
  q->model().rhs(x, g);
  CHECK(g(0) == Approx(2 * std::sin(5.0)));
  CHECK((g.tail(2) - f.tail(2)).norm() == 0.0);
  for (const auto* prob : {p.get(), q.get()}) {
    const auto* split = prob->model().divergence_free();
    REQUIRE(split != nullptr);
    REQUIRE(split->pieces() == 3);
    Eigen::MatrixXd J, Jp, sum = Eigen::MatrixXd::Zero(3, 3);
    prob->model().jacobian(x, J);
    CHECK(J.trace() == 0.0);
    for (int j = 0; j < 3; ++j) {
      CHECK(split->shear_coordinate(j) == j);
      split->piece_jacobian(j, x, Jp);
      sum += Jp;
      CHECK(Jp(j, j) == 0.0);  // f_j does not depend on x_j: the exact flow is x_j += t f_j
    }
    CHECK((sum - J).norm() == 0.0);
    // Jacobian against differences.
    for (int j = 0; j < 3; ++j) {
      Eigen::VectorXd a = x, b = x, fa, fb;
      a(j) += 1e-6;
      b(j) -= 1e-6;
      prob->model().rhs(a, fa);
      prob->model().rhs(b, fb);
      CHECK(((fa - fb) / 2e-6 - J.col(j)).norm() < 1e-8);
    }
  }
  const auto& obs = p->observables();
  REQUIRE(obs.size() == 3);
  CHECK(obs[0].name == "z_circuits");
  CHECK(obs[0].value({Eigen::Vector3d(2, 5, -4 * std::numbers::pi)}) == Approx(-2.0));
  CHECK(make("abc_flow", "mq1998", {{"C", 3.0}})->parameters()["C"] == 3.0);
  CHECK_THROWS_AS(make("abc_flow", "mq1998", {{"D", 3.0}}), gib::InputError);
}

TEST_CASE("vp_splitting: Lie order 1, Strang order 2 on Volterra, symmetric Strang (spec 7.2)", "[volume]") {
  const auto p = make("volterra");
  // Spec 7.3 [VERIFIED]: split 1.03 / 1.02, Strang 2.00 / 2.00.
  for (double o : observed_orders("vp_splitting_lie", *p, 2.0)) CHECK(o == Approx(1.0).margin(0.1));
  for (double o : observed_orders("vp_splitting", *p, 2.0)) CHECK(o == Approx(2.0).margin(0.05));
  const Eigen::VectorXd x = p->initial_state().x;
  const Eigen::VectorXd there = step_once("vp_splitting", p->model(), x, 0.1);
  CHECK((step_once("vp_splitting", p->model(), there, -0.1) - x).norm() < 1e-14);
  // The Lie composition is not symmetric: the check can fail.
  const Eigen::VectorXd lie = step_once("vp_splitting_lie", p->model(), x, 0.1);
  CHECK((step_once("vp_splitting_lie", p->model(), lie, -0.1) - x).norm() > 1e-4);
}

TEST_CASE("vp_splitting: the exact tangent has det 1 to round-off and agrees with central differences", "[volume]") {
  const auto v = make("volterra");
  const auto a = make("abc_flow");
  for (const auto* prob : {v.get(), a.get()}) {
    for (const char* method : {"vp_splitting", "vp_splitting_lie"}) {
      for (double h : {0.1, 0.5}) {
        INFO(prob->id() << " " << method << " h = " << h);
        const Eigen::VectorXd x = prob->initial_state().x;
        const Eigen::MatrixXd D = exact_tangent(method, prob->model(), x, h);
        CHECK(std::abs(D.determinant() - 1) < 1e-14);
        CHECK((D - fd_tangent(method, prob->model(), x, h)).cwiseAbs().maxCoeff() < 1e-8);
        CHECK((D - Eigen::MatrixXd::Identity(3, 3)).norm() > 0.05);  // a real map, not the identity
      }
    }
  }
}

TEST_CASE("volume by central differences: VP methods at 1e-9, RK2 at the spec's 0.999144234340", "[volume]") {
  // Spec 7.3 [VERIFIED] det D psi at tau = 0.1 from (1, 0.5, 2) by central differences: split 1.000000000252, Strang
  // 1.000000000007, correction 1.000000000022 (differencing noise), RK2 0.999144234340.
  const auto p = make("volterra");
  const Eigen::VectorXd x = p->initial_state().x;
  for (const char* m : {"vp_splitting", "vp_splitting_lie", "vp_correction"})
    CHECK(std::abs(fd_tangent(m, p->model(), x, 0.1).determinant() - 1) < 1e-9);
  CHECK(fd_tangent("odeint_rk2", p->model(), x, 0.1).determinant() == Approx(0.999144234340).epsilon(1e-9));
}

TEST_CASE("vp_correction: one step is the lectures' closed form for Volterra (Example 25)", "[volume]") {
  const auto p = make("volterra");
  for (const Eigen::Vector3d& x : {Eigen::Vector3d(1, 0.5, 2), Eigen::Vector3d(0.7, 1.9, 0.8)}) {
    for (double tau : {0.1, 0.3}) {
      // x3 = z + tau z (x2 - x1) + tau^2/2 (x2 z^2 + x1 z^2 - 2/3 z^3), solved for z by Newton with its derivative J.
      double z = x(2);
      for (int i = 0; i < 60; ++i) {
        const double G = z + tau * z * (x(1) - x(0)) + tau * tau / 2 * (x(1) * z * z + x(0) * z * z - 2.0 / 3 * z * z * z) - x(2);
        const double J = 1 + tau * (x(1) - x(0)) + tau * tau * (x(1) * z + x(0) * z - z * z);
        z -= G / J;
      }
      const Eigen::Vector3d expected(x(0) + tau * x(0) * (x(1) - z), x(1) + tau * x(1) * (z - x(0)), z);
      const Eigen::VectorXd got = step_once("vp_correction", p->model(), x, tau);
      INFO("tau = " << tau);
      CHECK((got - expected).norm() < 1e-14 * expected.norm());
    }
  }
  // Order 1 (spec 7.3 [VERIFIED] 1.00 / 1.00).
  for (double o : observed_orders("vp_correction", *p, 2.0)) CHECK(o == Approx(1.0).margin(0.1));
}

TEST_CASE("a VP piece whose midpoint equation has no solution fails the step and leaves the state", "[volume]") {
  // Piece 1's x3 equation m3 = x3 + h/2 (-x2 m3 + m3^2 / 2) has no real root when (1 + h x2 / 2)^2 < h x3: the
  // Riccati blow-up of spec 7.2's caution. Newton must report it, not return an iterate.
  const auto p = make("volterra", "mq1998", {{"x3", 3.0}});
  for (const char* method : {"vp_splitting", "vp_splitting_lie"}) {
    auto s = stepper(method, p->model());
    VectorFieldState st = p->initial_state();
    gib::OpCounters c;
    CHECK(s->step(st, 2.0, c) == gib::StepStatus::solver_failed);
    CHECK(st.x == p->initial_state().x);
    CHECK(c.solver_failures == 1);
  }
  // A step that has a solution converges (the check can pass).
  auto s = stepper("vp_splitting", p->model());
  VectorFieldState st = p->initial_state();
  gib::OpCounters c;
  CHECK(s->step(st, 0.1, c) == gib::StepStatus::ok);
}

TEST_CASE("vp methods: bad parameters and models without a splitting are refused", "[volume]") {
  const auto v = make("volterra");
  CHECK_THROWS_AS(stepper("vp_splitting", v->model(), {{"ordering", "yoshida"}}), gib::InputError);
  CHECK_THROWS_AS(stepper("odeint_dopri5_adaptive", v->model(), {{"rtol", -1.0}}), gib::InputError);
  CHECK_THROWS_AS(stepper("odeint_dopri5_adaptive", v->model(), {{"atol", "small"}}), gib::InputError);
  auto pendulum = gib::find_problem("pendulum").make("mq1998", Json::object(), "preset");
  const auto& pm = static_cast<const gib::VectorFieldProblem&>(*pendulum).model();
  CHECK_THROWS_AS(stepper("vp_splitting", pm), gib::InputError);
  CHECK(gib::find_method("vp_splitting").needs_structure == gib::kDivergenceFree);
  CHECK(gib::find_method("vp_correction").needs_structure == gib::kDivergenceFree);
}

TEST_CASE("odeint_dopri5_adaptive: the tolerance sets the error at large h, DOPRI5's order 5 at small h", "[volume]") {
  const auto p = make("volterra");
  const auto err = [&](const Json& params, int n) {
    auto s = stepper("odeint_dopri5_adaptive", p->model(), params);
    VectorFieldState st = p->initial_state();
    gib::OpCounters c;
    const double T = 10.0;
    for (int i = 0; i < n; ++i) REQUIRE(s->step(st, T / n, c) == gib::StepStatus::ok);
    return std::make_pair((st.x - p->reference()->state(T).x).norm(), c.rhs_evals);
  };
  // One outer step of h = 10: the controller sub-steps; a 1000x tighter tolerance gives a much smaller error.
  const auto loose = err(Json::object(), 1), tight = err({{"rtol", 1e-6}, {"atol", 1e-9}}, 1);
  CHECK(loose.first > 1e-5);
  CHECK(tight.first < loose.first / 100);
  CHECK(tight.second > loose.second);
  // Small h: one accepted step per interval, fixed-step DOPRI5 (order 5: a factor 32 per halving; 5.21 from h = 0.1
  // to 0.05, 5.14 from 0.05 to 0.025, the sixth-order term fading).
  const auto a = err(Json::object(), 100), b = err(Json::object(), 200);
  CHECK(std::log2(a.first / b.first) == Approx(5.0).margin(0.3));
}

}  // namespace gibench_test_volume_preserving
