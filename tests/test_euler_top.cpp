// Euler's equations as a Lie-Poisson vector field (problems/euler_top, spec 4.2, 5.1, 5.6): the field against its
// Lie-Poisson form and its Jacobian, the text's sign convention, the invariants the problem reports, and the spec's
// reduction of the AVF discrete gradient to the implicit midpoint rule on this quadratic H.
#include <catch2/catch.hpp>
#include <cmath>
#include <memory>

#include "core/errors.hpp"
#include "core/method.hpp"
#include "core/problem.hpp"
#include "core/vector_field_problem.hpp"

namespace gibench_test_euler_top {

namespace {

std::unique_ptr<gib::VectorFieldProblem> top(const gib::Json& overrides = gib::Json::object(), const std::string& ic = "preset") {
  auto p = gib::find_problem("euler_top").make("mq1998", overrides, ic);
  return std::unique_ptr<gib::VectorFieldProblem>(static_cast<gib::VectorFieldProblem*>(p.release()));
}

// Points of every sign pattern, away from the axes.
const Eigen::Vector3d kPoints[] = {{0.3, -0.7, 0.9}, {-1.2, 0.4, 0.25}, {0.8, 1.1, -0.6}, {-0.05, -0.9, -1.3}};

}  // namespace

TEST_CASE("euler_top: f = J(pi) grad H to round-off, and J(pi) v = v x pi (the text's convention)", "[vector_field][euler_top]") {
  const auto p = top();
  const gib::VectorFieldModel& model = p->model();
  REQUIRE(model.structure() == (gib::kSkewGradient | gib::kPoissonTensor));
  const gib::GradientForm& form = *model.skew_gradient();
  const Eigen::Vector3d inertia(2.0, 1.0, 2.0 / 3.0);
  for (const Eigen::Vector3d& x : kPoints) {
    Eigen::VectorXd f, g;
    Eigen::MatrixXd J;
    model.rhs(x, f);
    form.gradient(x, g);
    form.matrix(x, J);
    CHECK((J * g - f).norm() <= 1e-15 * f.norm());
    CHECK((J + J.transpose()).norm() == 0.0);
    // Lecture 6's printed equations are Omega x pi (spec 4.2, 5.1); the physical pi x Omega has the other sign.
    const Eigen::Vector3d omega = x.cwiseQuotient(inertia);
    CHECK((f - Eigen::VectorXd(omega.cross(x))).norm() <= 1e-15 * f.norm());
    CHECK(form.value(x) == Approx(0.5 * x.dot(omega)).epsilon(1e-14));
  }
}

TEST_CASE("euler_top: the analytic Jacobian matches central differences", "[vector_field][euler_top]") {
  const auto p = top();
  const gib::VectorFieldModel& model = p->model();
  for (const Eigen::Vector3d& x : kPoints) {
    Eigen::MatrixXd J;
    model.jacobian(x, J);
    Eigen::MatrixXd fd(3, 3);
    const double e = 1e-6;
    for (int j = 0; j < 3; ++j) {
      Eigen::VectorXd plus = x, minus = x, fp, fm;
      plus(j) += e;
      minus(j) -= e;
      model.rhs(plus, fp);
      model.rhs(minus, fm);
      fd.col(j) = (fp - fm) / (2 * e);
    }
    // f is quadratic: central differences are exact up to round-off, ~1e-16 / 1e-6.
    CHECK((J - fd).norm() <= 1e-9);
  }
}

TEST_CASE("euler_top: invariants are the energy and the Casimir |pi|^2 / 2, and inputs are checked", "[vector_field][euler_top]") {
  const auto p = top();
  const auto inv = p->invariants();
  REQUIRE(inv.size() == 2);
  CHECK(inv[0].id == gib::Invariant::energy);
  CHECK(inv[1].id == gib::Invariant::casimir);
  CHECK(inv[1].metric == "casimir_err");
  const gib::VectorFieldState x0 = p->initial_state();
  CHECK(inv[1].value(x0)(0) == Approx(0.5 * (0.09 + 0.49 + 0.81)));
  CHECK(p->model().energy(x0.x) == Approx(0.5 * (0.09 / 2 + 0.49 + 0.81 * 1.5)));
  // random:K keeps |pi0| and draws the direction.
  const auto r = top(gib::Json::object(), "random:3");
  CHECK(r->initial_state().x.norm() == Approx(x0.x.norm()).epsilon(1e-15));
  CHECK((r->initial_state().x - x0.x).norm() > 1e-3);
  CHECK_THROWS_AS(top({{"inertia", gib::Json::array({1.0, 0.0, 2.0})}}), gib::InputError);
  CHECK_THROWS_AS(top({{"Pi0", gib::Json::array({1.0, 2.0})}}), gib::InputError);
  CHECK_THROWS_AS(top({{"Pi0", gib::Json::array({1.0, 2.0, 3.0})}}, "random:1"), gib::InputError);
  CHECK_THROWS_AS(top({{"x0", gib::Json::array({1.0, 2.0, 3.0})}}), gib::InputError);
  CHECK_THROWS_AS(gib::find_problem("euler_top").make("hlw", gib::Json::object(), "preset"), gib::InputError);
}

TEST_CASE("euler_top: the AVF discrete gradient is the implicit midpoint rule here (spec 5.6), keeping H and C",
          "[vector_field][euler_top]") {
  const auto p = top();
  const gib::MethodInfo& avf = gib::find_method("dg_avf");
  const gib::MethodInfo& imr = gib::find_method("implicit_midpoint");
  auto a = avf.vector_field(p->model(), avf.default_params);
  auto b = imr.vector_field(p->model(), imr.default_params);
  gib::VectorFieldState xa = p->initial_state(), xb = p->initial_state();
  gib::OpCounters c;
  const auto inv = p->invariants();
  double worst_h = 0, worst_c = 0, apart = 0;
  for (int n = 0; n < 200; ++n) {
    REQUIRE(a->step(xa, 0.3, c) == gib::StepStatus::ok);
    REQUIRE(b->step(xb, 0.3, c) == gib::StepStatus::ok);
    apart = std::max(apart, (xa.x - xb.x).norm());
    for (const auto* x : {&xa, &xb}) {
      worst_h = std::max(worst_h, std::abs(inv[0].value(*x)(0) - inv[0].value(p->initial_state())(0)));
      worst_c = std::max(worst_c, std::abs(inv[1].value(*x)(0) - inv[1].value(p->initial_state())(0)));
    }
  }
  // Both solve the same equation x' = x + h J(m) grad H(m), m the midpoint, to their Newton tolerances (~1e-14);
  // over 200 steps of a periodic orbit the two solutions drift apart by round-off only.
  CHECK(apart < 1e-12);
  CHECK(worst_h < 1e-14);
  CHECK(worst_c < 1e-14);
  // Against a method that keeps neither: RK4's H error at tau = 0.3 is far above round-off.
  const gib::MethodInfo& rk4 = gib::find_method("odeint_rk4");
  auto r = rk4.vector_field(p->model(), rk4.default_params);
  gib::VectorFieldState xr = p->initial_state();
  for (int n = 0; n < 200; ++n) REQUIRE(r->step(xr, 0.3, c) == gib::StepStatus::ok);
  CHECK(std::abs(inv[0].value(xr)(0) - inv[0].value(p->initial_state())(0)) > 1e-8);
}

}  // namespace gibench_test_euler_top
