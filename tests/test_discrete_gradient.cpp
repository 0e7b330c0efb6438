// Discrete-gradient methods and the Lecture 6 problems (McLachlan-Quispel spec 8): the problems' gradient forms
// against their fields, the methods' orders, the first integral kept to round-off at large steps, the Lyapunov
// function never increasing, and Newton failures reported rather than accepted.
#include <catch2/catch.hpp>
#include <cmath>
#include <memory>
#include <vector>

#include "core/errors.hpp"
#include "core/method.hpp"
#include "core/problem.hpp"
#include "core/vector_field_problem.hpp"

namespace gibench_test_discrete_gradient {

namespace {

using gib::VectorFieldState;

std::unique_ptr<gib::VectorFieldProblem> make(const char* problem, const char* preset, const gib::Json& o = gib::Json::object(),
                                              const char* ic = "preset") {
  auto p = gib::find_problem(problem).make(preset, o, ic);
  return std::unique_ptr<gib::VectorFieldProblem>(static_cast<gib::VectorFieldProblem*>(p.release()));
}

// |M(x) grad G(x) - f(x)| for the model's form.
double form_defect(const gib::VectorFieldModel& model, const gib::GradientForm& form, const Eigen::VectorXd& x) {
  Eigen::VectorXd f, g;
  Eigen::MatrixXd M;
  model.rhs(x, f);
  form.gradient(x, g);
  form.matrix(x, M);
  return (M * g - f).norm();
}

// Largest |J - central differences of f| over the entries (the analytic Jacobians Newton and tangent maps use).
double jacobian_defect(const gib::VectorFieldModel& model, const Eigen::VectorXd& x) {
  Eigen::MatrixXd J;
  model.jacobian(x, J);
  double worst = 0;
  for (Eigen::Index j = 0; j < x.size(); ++j) {
    Eigen::VectorXd a = x, b = x, fa, fb;
    a(j) += 1e-6;
    b(j) -= 1e-6;
    model.rhs(a, fa);
    model.rhs(b, fb);
    worst = std::max(worst, ((fa - fb) / 2e-6 - J.col(j)).cwiseAbs().maxCoeff());
  }
  return worst;
}

struct Run {
  VectorFieldState x;
  gib::StepStatus status = gib::StepStatus::ok;
  long steps = 0;
  double g_change_max = 0;  // max |G(x_n) - G(x_0)|, G the model's energy
  long increases = 0;       // steps with G(x_n+1) > G(x_n) + 1e-13 (1 + |G(x_n)|)
};

Run run(const char* method, const gib::VectorFieldProblem& p, double h, long n) {
  const gib::MethodInfo& m = gib::find_method(method);
  auto stepper = m.vector_field(p.model(), m.default_params);
  Run r{p.initial_state()};
  gib::OpCounters c;
  const double g0 = p.model().energy(r.x.x);
  double before = g0;
  for (; r.steps < n; ++r.steps) {
    r.status = stepper->step(r.x, h, c);
    if (r.status != gib::StepStatus::ok) break;
    const double g = p.model().energy(r.x.x);
    r.g_change_max = std::max(r.g_change_max, std::abs(g - g0));
    r.increases += g > before + 1e-13 * (1 + std::abs(before));
    before = g;
  }
  return r;
}

// Least-squares slope of log |x(T) - x_ref(T)| against log h over h0, h0/2, ...
double observed_order(const char* method, const gib::VectorFieldProblem& p, double T, double h0, int levels) {
  const Eigen::VectorXd ref = p.reference()->state(T).x;
  std::vector<double> lh, le;
  for (int k = 0; k < levels; ++k) {
    const double h = h0 / std::pow(2.0, k);
    const Run r = run(method, p, h, std::lround(T / h));
    REQUIRE(r.status == gib::StepStatus::ok);
    lh.push_back(std::log(h));
    le.push_back(std::log((r.x.x - ref).norm()));
  }
  const double n = static_cast<double>(lh.size());
  double sx = 0, sy = 0, sxx = 0, sxy = 0;
  for (std::size_t i = 0; i < lh.size(); ++i) {
    sx += lh[i];
    sy += le[i];
    sxx += lh[i] * lh[i];
    sxy += lh[i] * le[i];
  }
  return (n * sxy - sx * sy) / (n * sxx - sx * sx);
}

}  // namespace

TEST_CASE("integral3d: S grad I is the field to round-off, and its Jacobian is f's (spec 8.3)", "[discrete_gradient]") {
  for (const char* ic : {"preset", "random:1", "random:2", "random:3"}) {
    const auto p = make("integral3d", "mq1998", gib::Json::object(), ic);
    // Random states lie on the unit half-sphere y >= 0, where I is at least 0.5 (relative errors mean something).
    if (std::string(ic) != "preset") CHECK(p->model().energy(p->initial_state().x) >= 0.5);
    const auto* form = p->model().skew_gradient();
    REQUIRE(form != nullptr);
    const Eigen::VectorXd& x = p->initial_state().x;
    CHECK(form_defect(p->model(), *form, x) < 1e-15);
    CHECK(jacobian_defect(p->model(), x) < 1e-8);
    Eigen::MatrixXd S;
    form->matrix(x, S);
    CHECK((S + S.transpose()).norm() == 0.0);
  }
  const auto p = make("integral3d", "mq1998");
  CHECK(p->initial_state().x == Eigen::Vector3d(1.0, 0.5, 0.5));
  CHECK(p->model().energy(p->initial_state().x) == 1.140625);
  // The defect measure sees a wrong sign in one entry of S (the check can fail).
  struct Flipped final : gib::GradientForm {
    const gib::GradientForm& f;
    explicit Flipped(const gib::GradientForm& g) : f(g) {}
    double value(const Eigen::VectorXd& x) const override { return f.value(x); }
    void gradient(const Eigen::VectorXd& x, Eigen::VectorXd& g) const override { f.gradient(x, g); }
    void matrix(const Eigen::VectorXd& x, Eigen::MatrixXd& M) const override {
      f.matrix(x, M);
      M(0, 2) = -M(0, 2);
    }
  } flipped(*p->model().skew_gradient());
  CHECK(form_defect(p->model(), flipped, p->initial_state().x) > 0.1);
  CHECK_THROWS_AS(make("integral3d", "nope"), gib::InputError);
  CHECK_THROWS_AS(make("integral3d", "mq1998", {{"x0", {1, 2}}}), gib::InputError);
}

TEST_CASE("kepler: J grad H is the field, the Hessians and the presets' integrals (spec 8.4)", "[discrete_gradient]") {
  for (const char* preset : {"mq1998_halebopp", "e0.5"})
    for (const char* ic : {"preset", "random:1", "random:2"}) {
      const auto p = make("kepler", preset, gib::Json::object(), ic);
      const Eigen::VectorXd& x = p->initial_state().x;
      INFO(preset << " " << ic);
      CHECK(form_defect(p->model(), *p->model().skew_gradient(), x) < 1e-15 * (1 + x.squaredNorm()));
      // Central differences of f have truncation error ~ 1e-12 / |q|^5: 3e-1 at Hale-Bopp's perihelion, so relative.
      Eigen::MatrixXd J;
      p->model().jacobian(x, J);
      CHECK(jacobian_defect(p->model(), x) < 1e-6 * J.norm());
      // a = 1: H = -1/2 on every orbit (at Hale-Bopp's perihelion the difference of 199.5 and 200, so to about
      // 200 eps); |L| = sqrt(1 - e^2).
      CHECK(p->model().energy(x) == Approx(-0.5).epsilon(1e-12));
      const double e = std::string(preset) == "e0.5" ? 0.5 : 0.995;
      const auto invariants = p->invariants();
      REQUIRE(invariants.size() == 2);
      CHECK(invariants[1].metric == "kepler_angular_momentum_err");
      CHECK(invariants[1].value(p->initial_state())(0) == Approx(std::sqrt(1 - e * e)).epsilon(1e-14));
    }
  const auto hb = make("kepler", "mq1998_halebopp");
  CHECK(hb->initial_state().x.isApprox(Eigen::Vector4d(0.005, 0, 0, std::sqrt(1.995 / 0.005)), 1e-14));
  Eigen::MatrixXd H;
  REQUIRE(hb->model().separable_hamiltonian()->potential_hessian(Eigen::Vector2d(0.6, -0.8), H));
  CHECK(H.isApprox((Eigen::Matrix2d() << 1 - 3 * 0.36, 3 * 0.48, 3 * 0.48, 1 - 3 * 0.64).finished(), 1e-14));
  CHECK_THROWS_AS(make("kepler", "e0.5", {{"e", 1.0}}), gib::InputError);
  CHECK_THROWS_AS(make("kepler", "e0.5", {{"e", -0.1}}), gib::InputError);
}

TEST_CASE("damped_pendulum: L grad V is the field, v.Lv <= 0, alpha >= 0 (spec 8.6)", "[discrete_gradient]") {
  for (const char* preset : {"mq1998_alpha0", "mq1998_alpha0.01", "mq1998_alpha0.1"}) {
    const auto p = make("damped_pendulum", preset);
    const auto* form = p->model().lyapunov_gradient();
    REQUIRE(form != nullptr);
    CHECK(p->initial_state().x == Eigen::Vector2d(0.0, 1.9));
    CHECK(p->model().energy(p->initial_state().x) == Approx(0.805).epsilon(1e-15));
    for (const Eigen::Vector2d& x : {Eigen::Vector2d(0.3, -1.2), Eigen::Vector2d(2.5, 0.7)}) {
      CHECK(form_defect(p->model(), *form, x) < 1e-15);
      CHECK(jacobian_defect(p->model(), x) < 1e-8);
      Eigen::MatrixXd L;
      form->matrix(x, L);
      const Eigen::Matrix2d sym = 0.5 * (L + L.transpose());
      CHECK(sym.eigenvalues().real().maxCoeff() <= 0.0);
    }
  }
  CHECK(make("damped_pendulum", "mq1998_alpha0.1", {{"alpha", 0.05}})->parameters()["alpha"] == 0.05);
  CHECK_THROWS_AS(make("damped_pendulum", "mq1998_alpha0", {{"alpha", -0.01}}), gib::InputError);
  CHECK_THROWS_AS(make("damped_pendulum", "mq1998_alpha0.2"), gib::InputError);
}

TEST_CASE("discrete gradients: observed orders (spec 8.2, 8.3)", "[discrete_gradient]") {
  const auto i3 = make("integral3d", "mq1998");
  // I is separable, so Itoh-Abe is AVF there and of order 2 (spec 8.2 [DERIVED]); spec: DG2 1.94/1.99.
  CHECK(observed_order("dg_itoh_abe", *i3, 1.0, 0.1, 4) == Approx(2.0).margin(0.1));
  CHECK(observed_order("dg_avf", *i3, 1.0, 0.1, 4) == Approx(2.0).margin(0.1));
  CHECK(observed_order("dg_gonzalez", *i3, 1.0, 0.1, 4) == Approx(2.0).margin(0.1));
  CHECK(observed_order("dg_avf4", *i3, 1.0, 0.05, 4) == Approx(4.0).margin(0.2));
  // Kepler's 1/|q| is not separable: Itoh-Abe is of order 1.
  const auto k = make("kepler", "e0.5");
  CHECK(observed_order("dg_itoh_abe", *k, 2.0, 0.02, 4) == Approx(1.0).margin(0.1));
  CHECK(observed_order("dg_avf", *k, 2.0, 0.02, 4) == Approx(2.0).margin(0.1));
  CHECK(observed_order("dg_gonzalez", *k, 2.0, 0.02, 4) == Approx(2.0).margin(0.1));
  CHECK(observed_order("dg_avf4", *k, 2.0, 0.02, 4) == Approx(4.0).margin(0.2));
  const auto d = make("damped_pendulum", "mq1998_alpha0.1");
  CHECK(observed_order("ldg_itoh_abe", *d, 2.0, 0.1, 4) == Approx(2.0).margin(0.1));
  CHECK(observed_order("ldg_avf", *d, 2.0, 0.1, 4) == Approx(2.0).margin(0.1));
}

TEST_CASE("discrete gradients keep the first integral to round-off over 10^4 large steps", "[discrete_gradient]") {
  const auto i3 = make("integral3d", "mq1998");
  const auto k = make("kepler", "e0.5");
  for (const char* m : {"dg_itoh_abe", "dg_avf", "dg_gonzalez"}) {
    INFO(m);
    const Run a = run(m, *i3, 0.2, 10000);
    CHECK(a.status == gib::StepStatus::ok);
    CHECK(a.g_change_max < 1e-13);
    const Run b = run(m, *k, 0.2, 10000);
    CHECK(b.status == gib::StepStatus::ok);
    CHECK(b.g_change_max < 1e-13);
  }
  // RK4 at the same steps does not (the measure can fail).
  CHECK(run("odeint_rk4", *i3, 0.2, 10000).g_change_max > 0.1);
  CHECK(run("odeint_rk4", *k, 0.2, 10000).g_change_max > 0.01);
}

TEST_CASE("Lyapunov discrete gradients: V never increases, even at tau = 1 (spec 8.6)", "[discrete_gradient]") {
  for (const char* m : {"ldg_itoh_abe", "ldg_avf"})
    for (const char* preset : {"mq1998_alpha0", "mq1998_alpha0.01", "mq1998_alpha0.1"})
      for (const double h : {0.1, 0.5, 1.0}) {
        const auto p = make("damped_pendulum", preset);
        const Run r = run(m, *p, h, 20000);
        INFO(m << " " << preset << " h = " << h);
        CHECK(r.status == gib::StepStatus::ok);
        CHECK(r.increases == 0);
        const double v = p->model().energy(r.x.x);
        if (std::string(preset) == "mq1998_alpha0")
          CHECK(r.g_change_max < 1e-12);  // V stays 0.805
        else
          CHECK(v == Approx(-1.0).margin(1e-6));
      }
  // Euler increases V (the count can fail).
  const auto p = make("damped_pendulum", "mq1998_alpha0.1");
  CHECK(run("odeint_euler", *p, 0.25, 2000).increases > 0);
}

TEST_CASE("discrete gradients: Newton failures are reported, never accepted (spec 8.3)", "[discrete_gradient]") {
  // DG4 at tau = 0.2 from (1, 0.5, 0.5): the backward substep (1 - 2 gamma) tau = -0.34 (spec: "DG4 blew up").
  const auto i3 = make("integral3d", "mq1998");
  const Run r = run("dg_avf4", *i3, 0.2, 5000);
  CHECK(r.status == gib::StepStatus::solver_failed);
  // The same method at tau = 0.1 runs to T = 1000 with I kept (spec: max |dI| 3.8e-14).
  const Run ok = run("dg_avf4", *i3, 0.1, 10000);
  CHECK(ok.status == gib::StepStatus::ok);
  CHECK(ok.g_change_max < 1e-13);
  // A failed step leaves the state as it was.
  const gib::MethodInfo& m = gib::find_method("dg_avf");
  auto stepper = m.vector_field(i3->model(), m.default_params);
  VectorFieldState s = i3->initial_state();
  gib::OpCounters c;
  CHECK(stepper->step(s, 50.0, c) == gib::StepStatus::solver_failed);
  CHECK(s.x == i3->initial_state().x);
  CHECK(c.solver_failures == 1);
  // An equilibrium is a fixed point: every x'_i - x_i is 0, where Itoh-Abe uses the partial derivatives.
  const auto d = make("damped_pendulum", "mq1998_alpha0.1", {{"q0", 0.0}, {"p0", 0.0}});
  const Run rest = run("ldg_itoh_abe", *d, 1.0, 10);
  CHECK(rest.status == gib::StepStatus::ok);
  CHECK(rest.x.x.norm() == 0.0);
}

TEST_CASE("discrete gradients: claims and structure needs", "[discrete_gradient]") {
  for (const char* id : {"dg_itoh_abe", "dg_avf", "dg_gonzalez", "dg_avf4"}) {
    const gib::MethodInfo& m = gib::find_method(id);
    CHECK(m.needs_structure == gib::kSkewGradient);
    REQUIRE(m.claim_for(gib::Invariant::energy, false) != nullptr);
    CHECK(m.claim_for(gib::Invariant::energy, false)->how == gib::Preservation::exact);
    CHECK(m.claims.implicit);
  }
  CHECK(gib::find_method("dg_avf4").claims.order == 4);
  CHECK(gib::find_method("dg_avf4").claims.symmetric);
  for (const char* id : {"ldg_itoh_abe", "ldg_avf"}) {
    const gib::MethodInfo& m = gib::find_method(id);
    CHECK(m.needs_structure == gib::kLyapunovGradient);
    CHECK(m.claims.lyapunov_monotone);
    CHECK(m.claims.invariants.empty());
  }
  CHECK_FALSE(gib::compatible(gib::find_method("dg_avf"), gib::find_problem("damped_pendulum")));
  CHECK_FALSE(gib::compatible(gib::find_method("ldg_avf"), gib::find_problem("integral3d")));
  CHECK(gib::compatible(gib::find_method("dg_avf"), gib::find_problem("kepler")));
}

}  // namespace gibench_test_discrete_gradient
