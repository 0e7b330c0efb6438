// Buss (2001) methods (methods/buss/): what the generic battery does not check.
// The battery checks every registered claim (order, exact Casimir / spatial momentum / energy, on SO(3),
// repeatable) from the registry. Here: calibration against numbers that do not come from this code (the
// paper's Figures 4 and 5, the spec prototype's Figure 6 error pairs and T = 4 slopes, spec 7 and 8), the
// derivatives of eqs. (5), (8), (9) against the exact solution, the printed (order-losing) forms of eq. (9)
// and of the fourth-order average, the energy correction step by step and its failure reporting, the
// history handling of the multistep methods, and the counted costs.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "core/errors.hpp"
#include "core/method.hpp"
#include "core/problem.hpp"
#include "harness/conformance.hpp"
#include "harness/runner.hpp"
#include "methods/buss/buss.hpp"

namespace gibench_test_buss_methods {

namespace {

using gib::Mat3;
using gib::RigidBodyState;
using gib::Vec3;

std::unique_ptr<gib::Problem> problem(const std::string& preset, const std::string& ic = "preset",
                                      const gib::Json& overrides = gib::Json::object()) {
  gib::Cell c;
  c.problem = "free_rigid_body";
  c.preset = preset;
  c.ic = ic;
  c.overrides = overrides;
  return gib::make_problem(c);
}

const gib::RigidBodyProblem& rigid(const std::unique_ptr<gib::Problem>& p) {
  return dynamic_cast<const gib::RigidBodyProblem&>(*p);
}

// The Buss test body of spec 3.3 (preset buss2001), built once.
const gib::RigidBodyProblem& buss2001() {
  static const auto p = problem("buss2001");
  return rigid(p);
}

RigidBodyState integrate(const gib::MethodInfo& m, double h, std::int64_t steps, const gib::Json& params = {}) {
  const auto& p = buss2001();
  return gib::integrate_rigid_body(m, p.model(), gib::merge_method_params(m, params), p.initial_state(), h, steps);
}

// The energy as the paper prints it (%g, 6 significant digits).
std::string printed_energy(const gib::MethodInfo& m, double h, std::int64_t steps, const gib::Json& params = {}) {
  const double e = buss2001().model().kinetic_energy(integrate(m, h, steps, params).Pi);
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.6g", e);
  return buf;
}

// Geodesic orientation error at T = N h against the exact reference (spec 4.3), N steps.
double orientation_error(const gib::MethodInfo& m, double T, std::int64_t N) {
  gib::Cell c;
  c.problem = "free_rigid_body";
  c.preset = "buss2001";
  c.method = m.id;
  c.h = T / static_cast<double>(N);
  c.steps = N;
  c.observe.ref_samples = 0;  // the final state only
  const gib::CellOutcome o = gib::run_problem(c, buss2001(), m, gib::merge_method_params(m, {}));
  REQUIRE(o.row["status"] == "ok");
  return o.row["metrics"]["rot_geodesic_final"].get<double>();
}

// A printed number with `digits` significant digits matches x when x rounds to it (0.6 of the last unit),
// give or take `reference_slack`: the spec prototype's reference is "good to ~1e-10" (spec 8.1), which
// shows in its errors near 1e-9 at T = 4 (against gibench's exact solution, good to 1e-15).
bool matches_printed(double x, double printed, int digits, double reference_slack = 0) {
  const double unit = std::pow(10.0, std::floor(std::log10(std::abs(printed))) - digits + 1);
  return std::abs(x - printed) <= 0.6 * unit + reference_slack;
}
constexpr double kPrototypeReferenceT4 = 1e-10;

const gib::MethodInfo& method(const char* id) { return gib::find_method(id); }

struct EnergyCell {
  const char* method;
  double h;
  std::int64_t steps;  // N - 1 (spec 3.4)
  const char* printed;
  const char* source;
};

void check_energies(const std::vector<EnergyCell>& cells, const gib::Json& params = {}) {
  for (const auto& c : cells) {
    INFO(c.method << " h = " << c.h << " after " << c.steps << " steps (" << c.source << ")");
    CHECK(printed_energy(method(c.method), c.h, c.steps, params) == c.printed);
  }
}

}  // namespace

TEST_CASE("Buss Figure 5 energies after N - 1 steps, T = 4", "[buss]") {
  check_energies({
      {"buss2aug", 0.004, 999, "81.9528", "paper"},   {"buss2aug", 0.008, 499, "81.0002", "paper"},
      {"buss2aug", 0.016, 249, "76.3078", "paper"},   {"buss2aug", 0.020, 199, "74.5092", "paper"},
      {"buss3", 0.004, 999, "82.1603", "paper"},      {"buss3", 0.008, 499, "82.6283", "paper"},
      {"buss3", 0.016, 249, "89.2196", "paper"},      {"buss3", 0.020, 199, "101.39", "paper"},
      {"buss4", 0.004, 999, "82.1092", "paper"},      {"buss4", 0.008, 499, "82.2288", "paper"},
      {"buss4", 0.016, 249, "86.061", "paper"},       {"buss4", 0.020, 199, "94.9191", "paper"},
      {"buss_rk_rotvec", 0.004, 999, "83.4575", "paper"}, {"buss_rk_rotvec", 0.008, 499, "91.8125", "paper"},
      {"buss_rk_rotvec", 0.016, 249, "132.808", "paper"}, {"buss_rk_rotvec", 0.020, 199, "149.855", "paper"},
      {"buss2", 0.004, 999, "84.4696", "spec 8.2"},   {"buss2", 0.008, 499, "102.332", "spec 8.2"},
      {"buss2", 0.016, 249, "149.827", "spec 8.2"},   {"buss3false", 0.004, 999, "84.9069", "spec 8.2"},
      {"buss3false", 0.008, 499, "106.325", "spec 8.2"}, {"buss3false", 0.016, 249, "149.96", "spec 8.2"},
  });
  // The quaternion mean differs from the paper at large steps (spec 5.10: 132.584, paper 132.808).
  check_energies({{"buss_rk_rotvec", 0.016, 249, "132.584", "spec 5.10, quaternion mean"}}, {{"average", "quaternion"}});
}

TEST_CASE("Buss Figure 4 energies after N - 1 steps (a cheap selection)", "[buss]") {
  check_energies({
      {"buss1", 1e-4, 99999, "109.663", "paper"},
      {"simo_wong", 1e-4, 99999, "109.661", "paper (SW as run)"},
      {"simo_wong_printed", 1e-4, 99999, "82.1062", "spec 8.2 (SW as printed)"},
      {"buss2", 1e-4, 99999, "82.1054", "paper"},
      {"buss3false", 1e-4, 99999, "82.1054", "paper"},
      {"buss2aug", 1e-4, 99999, "82.1053", "paper"},
      {"buss_rk_rotvec", 1e-4, 99999, "82.1053", "paper"},
      {"buss2", 0.002, 199999, "115.058", "paper"},
      {"buss3false", 0.002, 199999, "121.164", "paper"},
      {"buss2aug", 0.002, 199999, "80.2222", "paper"},
      {"buss3", 0.002, 199999, "82.7686", "paper"},
      {"buss4", 0.002, 199999, "82.1175", "spec 8.1 prototype (paper 82.1177)"},
      {"buss_rk_rotvec", 0.002, 199999, "101.328", "paper"},
      {"buss2aug", 0.004, 99999, "69.6595", "paper"},
      {"buss3", 0.004, 99999, "88.0158", "paper"},
      {"buss4", 0.004, 99999, "82.4979", "paper"},
      {"buss_rk_rotvec", 0.004, 99999, "149.811", "paper"},
      // AB-AM: the spec's natural reading (5.11); the paper's 82.5159 / 111.305 / 149.999 are not reproducible.
      {"buss_abm", 0.001, 399999, "82.1052", "spec 5.11 natural variant"},
      {"buss_abm", 0.002, 199999, "82.1016", "spec 5.11 natural variant"},
      {"buss_abm", 0.004, 99999, "81.9835", "spec 5.11 natural variant"},
  });
}

TEST_CASE("Buss Figure 6 column 1: orientation error pairs at T = 0.4 (spec 8.2)", "[buss]") {
  struct Pair {
    const char* method;
    double T;
    std::int64_t N;
    double err_n, err_n_minus_1;
  };
  const std::vector<Pair> pairs = {
      {"buss2", 0.4, 387, 9.9751e-4, 1.0032e-3},       {"buss2aug", 0.4, 195, 9.9445e-4, 1.0041e-3},
      {"buss3", 0.4, 82, 9.6585e-4, 1.0042e-3},        {"buss3_ec", 0.4, 37, 9.1337e-4, 1.0148e-3},
      {"buss4", 0.4, 53, 9.6518e-4, 1.0577e-3},        {"buss_rk_rotvec", 0.4, 405, 9.9593e-4, 1.0009e-3},
      {"simo_wong_ec", 0.4, 513, 9.9890e-4, 1.0028e-3},
      {"buss2aug", 0.4, 6513, 9.9981e-7, 1.0001e-6},   {"buss3_ec", 4.0, 3700, 9.9952e-7, 1.0006e-6},
  };
  for (const auto& p : pairs) {
    const double a = orientation_error(method(p.method), p.T, p.N);
    const double b = orientation_error(method(p.method), p.T, p.N - 1);
    INFO(p.method << " T = " << p.T << ": err(" << p.N << ") = " << a << ", err(" << p.N - 1 << ") = " << b);
    const double slack = p.T > 1 ? kPrototypeReferenceT4 : 0.0;
    CHECK(matches_printed(a, p.err_n, 5, slack));
    CHECK(matches_printed(b, p.err_n_minus_1, 5, slack));
  }
}

TEST_CASE("Buss long-time slopes at T = 4 (spec 8.2) and the asymptotic orders of the EC variants", "[buss]") {
  struct Row {
    const char* method;
    double err[4];  // N = 2000, 4000, 8000, 16000
  };
  const std::vector<Row> rows = {
      {"buss1_ec", {6.61e-2, 1.65e-2, 4.12e-3, 1.03e-3}}, {"buss2", {2.81e-1, 3.63e-2, 4.97e-3, 7.85e-4}},
      {"buss3", {6.20e-3, 7.66e-4, 9.54e-5, 1.19e-5}},    {"buss3_ec", {1.16e-5, 7.33e-7, 4.69e-8, 3.08e-9}},
      {"buss4", {1.20e-4, 3.92e-6, 1.37e-7, 5.54e-9}},    {"buss4_ec", {1.42e-5, 8.92e-7, 5.58e-8, 3.50e-9}},
      {"simo_wong_ec", {6.57e-2, 1.65e-2, 4.12e-3, 1.03e-3}},
      {"buss_rk_rotvec_ec", {4.07e-2, 1.02e-2, 2.55e-3, 6.37e-4}},
  };
  for (const auto& r : rows) {
    for (int k = 0; k < 4; ++k) {
      const std::int64_t N = 2000 << k;
      const double e = orientation_error(method(r.method), 4.0, N);
      INFO(r.method << " N = " << N << ": " << e);
      CHECK(matches_printed(e, r.err[k], 3, kPrototypeReferenceT4));
    }
  }
  // At fixed T and h -> 0 the bounded O(h) (1st + EC) and O(h^3) (3rd + EC) terms take over: the orders the
  // registry declares. On buss2001 the O(h) term shows at h ~ 1e-6 (T = 0.4, halving h):
  const double r1 = orientation_error(method("buss1_ec"), 0.4, 400000) / orientation_error(method("buss1_ec"), 0.4, 800000);
  CHECK(std::log2(r1) == Approx(1.0).margin(0.1));
  // and the battery's fits (smallest steps above round-off) on targets where the asymptotic regime is reached:
  struct Fit {
    const char* method;
    const char* preset;
    const char* ic;
    double order;
  };
  for (const Fit& f : {Fit{"buss1_ec", "buss2001", "preset", 1}, Fit{"buss1_ec", "kjer2017", "random:1", 1},
                       Fit{"buss3_ec", "krysl2006", "preset", 3}, Fit{"buss3_ec", "kjer2017", "random:1", 3}}) {
    const gib::ConformanceReport r = gib::run_conformance(method(f.method), {"free_rigid_body", f.preset, f.ic});
    INFO(f.method << " on " << f.preset << "/" << f.ic << ": " << r.checks.front().detail);
    REQUIRE(r.checks.front().claim == "order");
    CHECK(r.checks.front().measured == Approx(f.order).margin(0.1));
  }
}

namespace {

using gib::buss::BodyDerivatives;

// The Magnus-form fourth-order average (spec 5.6), written out here independently of taylor.cpp.
Vec3 fourth_average(const BodyDerivatives& d, double h) {
  return d.nu + (h / 2) * d.w1 + (h * h / 6) * d.w2 + (h * h / 12) * d.w1.cross(d.nu) + (h * h * h / 24) * d.w3 +
         (h * h * h / 24) * d.w2.cross(d.nu);
}

// Eq. (9) as transcribed (spec 9 A1): "2 omega x omega_dot" where 2 omega x omega_ddot belongs.
Vec3 fourth_with_printed_eq9(const Vec3& inv_inertia, const Vec3& Pi, double h) {
  BodyDerivatives d = gib::buss::body_derivatives(inv_inertia, Pi, 3);
  d.w3 += 2.0 * d.nu.cross(d.w1) - 2.0 * d.nu.cross(d.w2);
  return fourth_average(d, h);
}

// The fourth-order average as transcribed (spec 9 A2): "h^3/24 omega_ddot + h^3/24 omega_dot x omega".
Vec3 fourth_with_printed_average(const Vec3& inv_inertia, const Vec3& Pi, double h) {
  const BodyDerivatives d = gib::buss::body_derivatives(inv_inertia, Pi, 2);
  const double h2 = h * h, h3 = h2 * h;
  return d.nu + (h / 2) * d.w1 + (h2 / 6) * d.w2 + (h2 / 12) * d.w1.cross(d.nu) + (h3 / 24) * d.w2 +
         (h3 / 24) * d.w1.cross(d.nu);
}

double fitted_order(const gib::MethodInfo& m, const gib::ConformanceTarget& t) {
  const gib::ConformanceReport r = gib::run_conformance(m, t);
  INFO(m.id << " on " << t.preset << "/" << t.ic << ": " << r.checks.front().detail);
  REQUIRE(r.checks.front().claim == "order");
  return r.checks.front().measured;
}

}  // namespace

TEST_CASE("Buss 4th order: the corrected forms keep order 4, the printed ones measure order 3", "[buss]") {
  const gib::MethodInfo eq9 = gib::buss::body_increment_method("buss4_printed_eq9", "eq. (9) as printed", 3,
                                                                fourth_with_printed_eq9);
  const gib::MethodInfo avg = gib::buss::body_increment_method("buss4_printed_average", "average as printed", 3,
                                                                fourth_with_printed_average);
  // The test's own Magnus form with the library's corrected derivatives is the registered method, bit for bit.
  const gib::MethodInfo own = gib::buss::body_increment_method(
      "buss4_test", "test", 4, [](const Vec3& inv_inertia, const Vec3& Pi, double h) {
        return fourth_average(gib::buss::body_derivatives(inv_inertia, Pi, 3), h);
      });
  const RigidBodyState a = integrate(own, 0.004, 100), b = integrate(method("buss4"), 0.004, 100);
  CHECK(a.R == b.R);
  CHECK(a.Pi == b.Pi);
  for (const gib::ConformanceTarget& t : {gib::ConformanceTarget{"free_rigid_body", "buss2001", "preset"},
                                          gib::ConformanceTarget{"free_rigid_body", "kjer2017", "random:1"}}) {
    CHECK(fitted_order(method("buss4"), t) == Approx(4.0).margin(0.1));
    CHECK(fitted_order(eq9, t) == Approx(3.0).margin(0.1));
    CHECK(fitted_order(avg, t) == Approx(3.0).margin(0.1));
  }
  // Steps to reach 1e-3 at T = 0.4 (spec 8.3 and 9 A2): 183 and 136 instead of buss4's 53.
  CHECK(orientation_error(eq9, 0.4, 183) < 1e-3);
  CHECK(orientation_error(eq9, 0.4, 182) >= 1e-3);
  CHECK(orientation_error(avg, 0.4, 136) < 1e-3);
  CHECK(orientation_error(avg, 0.4, 135) >= 1e-3);
}

TEST_CASE("Buss derivatives w1, w2, w3 are the world derivatives of omega in body coordinates (spec 4.2)", "[buss]") {
  const auto p = problem("kjer2017", "random:1");
  const auto& rb = rigid(p);
  const Vec3 inv_inertia = rb.model().inverse_inertia();
  const double t0 = 0.7, d = 1e-3;
  auto omega = [&](double t) {  // world angular velocity of the exact solution
    const RigidBodyState x = rb.reference()->state(t0 + t * d);
    return Vec3(x.R * inv_inertia.cwiseProduct(x.Pi));
  };
  auto nu = [&](double t) { return Vec3(inv_inertia.cwiseProduct(rb.reference()->state(t0 + t * d).Pi)); };
  const Vec3 fm2 = omega(-2), fm1 = omega(-1), f0 = omega(0), f1 = omega(1), f2 = omega(2);
  const Vec3 d1 = (fm2 - 8 * fm1 + 8 * f1 - f2) / (12 * d);
  const Vec3 d2 = (-fm2 + 16 * fm1 - 30 * f0 + 16 * f1 - f2) / (12 * d * d);
  const Vec3 d3 = (-fm2 + 2 * fm1 - 2 * f1 + f2) / (2 * d * d * d);
  const RigidBodyState x0 = rb.reference()->state(t0);
  const BodyDerivatives w = gib::buss::body_derivatives(inv_inertia, x0.Pi, 3);
  CHECK((x0.R * w.w1 - d1).norm() <= 1e-9 * w.w1.norm());
  CHECK((x0.R * w.w2 - d2).norm() <= 1e-6 * w.w2.norm());
  CHECK((x0.R * w.w3 - d3).norm() <= 1e-5 * w.w3.norm());
  // The pitfall: w2 is not the body-frame second derivative of nu; that one is w2 - nu x w1.
  const Vec3 nu_dd = (-nu(-2) + 16 * nu(-1) - 30 * nu(0) + 16 * nu(1) - nu(2)) / (12 * d * d);
  CHECK((nu_dd - (w.w2 - w.nu.cross(w.w1))).norm() <= 1e-6 * w.w2.norm());
  CHECK((nu_dd - w.w2).norm() >= 0.1 * w.w2.norm());
}

TEST_CASE("Buss energy correction: exact energy, R Pi unchanged, every step", "[buss]") {
  const auto& model = buss2001().model();
  // Directly: a state off the initial energy is rotated onto it, with the world momentum kept.
  RigidBodyState x;
  x.R = gib::so3::exp(Vec3(0.3, -1.1, 0.4));
  x.Pi = Vec3(1.2, 2.4, 1.1);  // E = 100.2
  const double E0 = 99.0;
  const Vec3 L = x.R * x.Pi;
  REQUIRE(gib::buss::correct_energy(x, model.inertia(), E0) == gib::buss::CorrectionOutcome::applied);
  CHECK(std::abs(model.kinetic_energy(x.Pi) - E0) <= 1e-14 * E0);
  CHECK((x.R * x.Pi - L).norm() <= 1e-15 * L.norm());
  CHECK(gib::so3::orthogonality_defect(x.R) <= 1e-15);
  // Along runs: energy exact after each step, R Pi unchanged, no failure at table step sizes; also with a
  // base that does not stay on SO(3) (the correction takes |L| from the current Pi).
  for (const char* id : {"buss1", "buss2", "buss3", "buss_abm", "simo_wong_printed", "odeint_rk4_quat"}) {
    const gib::MethodInfo m = gib::buss::energy_corrected(method(id), 1, "test");
    auto s = m.rigid_body(model, gib::merge_method_params(m, {}));
    s->reset();
    RigidBodyState y = buss2001().initial_state();
    const double e0 = model.kinetic_energy(y.Pi);
    gib::OpCounters c;
    double energy_err = 0, momentum_err = 0;
    for (int n = 0; n < 2000; ++n) {
      const Vec3 before = y.R * y.Pi;
      s->step(y, 0.004, c);
      energy_err = std::max(energy_err, std::abs(model.kinetic_energy(y.Pi) - e0) / e0);
      if (m.claims.stays_on_group) momentum_err = std::max(momentum_err, (y.R * y.Pi - before).norm() / before.norm());
    }
    INFO(id << " + EC: max energy error " << energy_err << ", max change of R Pi per step " << momentum_err);
    CHECK(energy_err <= 1e-14);
    CHECK(momentum_err <= 1e-15);
    CHECK(c.solver_failures == 0);
  }
}

TEST_CASE("Buss energy correction: unsolvable steps are skipped and counted, never a crash", "[buss]") {
  const auto& model = buss2001().model();
  // Rotation about a principal axis: no wobble, all alpha = 0, the system is singular.
  RigidBodyState x;
  x.Pi = Vec3(0, 3, 0);
  const RigidBodyState before = x;
  CHECK(gib::buss::correct_energy(x, model.inertia(), 100.0) == gib::buss::CorrectionOutcome::singular);
  CHECK(x.R == before.R);
  CHECK(x.Pi == before.Pi);
  CHECK(gib::buss::correct_energy(x, model.inertia(), 0.0) == gib::buss::CorrectionOutcome::invalid);
  // Through the harness, which reports the counters: every step of buss2 + EC fails and is counted.
  gib::Cell c;
  c.problem = "free_rigid_body";
  c.preset = "buss2001";
  c.overrides = {{"Pi0", {0.0, 3.0, 0.0}}};
  c.method = "buss2_ec";
  c.h = 0.004;
  c.steps = 50;
  const gib::CellOutcome o = gib::run_cell(c);
  CHECK(o.row["status"] == "ok");
  CHECK(o.row["cost"]["solver_failures"] == 50);
  // Absurd steps (T = 4 in 20 steps: 814 degrees per step) give negative squares on some steps (spec 5.12);
  // table step sizes never fail.
  c.overrides = gib::Json::object();
  c.method = "buss3_ec";
  c.h = 0.2;
  c.steps = 20;
  const gib::CellOutcome absurd = gib::run_cell(c);
  CHECK(absurd.row["status"] == "ok");
  CHECK(absurd.row["cost"]["solver_failures"].get<int>() > 0);
  c.h = 4.0 / 652;
  c.steps = 652;
  CHECK(gib::run_cell(c).row["cost"]["solver_failures"] == 0);
}

namespace {

RigidBodyState step_once(gib::RigidBodyStepper& s, RigidBodyState x, double h) {
  gib::OpCounters c;
  s.step(x, h, c);
  return x;
}

bool same(const RigidBodyState& a, const RigidBodyState& b) { return a.R == b.R && a.Pi == b.Pi; }

}  // namespace

TEST_CASE("Buss multistep methods: reset() drops history, a foreign state or a new h restarts", "[buss]") {
  const auto& p = buss2001();
  const double h = 0.004;
  for (const char* id : {"simo_wong_printed", "simo_wong", "buss_abm"}) {
    INFO(id);
    const gib::MethodInfo& m = method(id);
    const gib::Json params = gib::merge_method_params(m, {});
    auto s = m.rigid_body(p.model(), params);
    auto fresh = [&] {
      auto f = m.rigid_body(p.model(), params);
      f->reset();
      return f;
    };
    s->reset();
    RigidBodyState x = p.initial_state();
    std::vector<RigidBodyState> xs = {x};
    for (int n = 0; n < 6; ++n) xs.push_back(x = step_once(*s, x, h));  // ABM: RK x3, then PECE
    // The history is used: continuing differs from a fresh start at the same state.
    CHECK_FALSE(same(step_once(*fresh(), xs[5], h), xs[6]));
    // A state the stepper did not write last restarts it, as does a new step size.
    CHECK(same(step_once(*s, xs[2], h), step_once(*fresh(), xs[2], h)));
    RigidBodyState y = xs[6];
    auto t = m.rigid_body(p.model(), params);
    t->reset();
    for (int n = 0; n < 6; ++n) y = step_once(*t, y, h);
    CHECK(same(step_once(*t, y, 2 * h), step_once(*fresh(), y, 2 * h)));
    // reset() drops the history.
    s->reset();
    CHECK(same(step_once(*s, xs[0], h), xs[1]));
  }
  // Under the energy correction the corrected state continues the history (Buss corrects every step): a
  // restart every step would make SW + EC the first-order method + EC and AB-AM + EC pure RK + EC.
  const RigidBodyState sw = integrate(method("simo_wong_printed_ec"), h, 20);
  const RigidBodyState first = integrate(method("buss1_ec"), h, 20);
  CHECK_FALSE(same(sw, first));
  const gib::MethodInfo& abm_ec = method("buss_abm_ec");
  auto s = abm_ec.rigid_body(p.model(), gib::merge_method_params(abm_ec, {}));
  s->reset();
  gib::OpCounters c;
  RigidBodyState x = p.initial_state();
  for (int n = 0; n < 100; ++n) s->step(x, h, c);
  CHECK(c.rhs_evals == 3 * 5 + 97 * 3);  // RK start 4 + EC 1; then PECE 2 + EC 1
}

TEST_CASE("Buss methods: counted cost per step", "[buss]") {
  struct Cost {
    const char* method;
    gib::Json params;
    std::int64_t rhs, exp, solves;  // over 100 steps
  };
  const std::vector<Cost> costs = {
      {"buss1", {}, 100, 100, 0},
      {"buss2", {}, 100, 100, 0},
      {"buss3false", {}, 100, 100, 0},
      {"buss2aug", {}, 100, 100, 0},
      {"buss3", {}, 100, 100, 0},
      {"buss4", {}, 100, 100, 0},
      {"simo_wong", {}, 100, 100, 0},
      {"simo_wong_printed", {}, 100, 100, 0},
      {"buss_rk_rotvec", {}, 400, 400, 0},
      {"buss_rk_rotvec", {{"average", "quaternion"}}, 400, 700, 0},  // 3 stage rotations, 4 quaternions
      {"buss_abm", {}, 3 * 4 + 97 * 2, 3 * 4 + 97 * 2, 0},            // RK start for 3 steps, then PECE
      {"buss4_ec", {}, 200, 200, 100},
      {"buss_rk_rotvec_ec", {}, 500, 500, 100},
  };
  const auto& p = buss2001();
  for (const auto& k : costs) {
    INFO(k.method << " " << k.params.dump());
    const gib::MethodInfo& m = method(k.method);
    auto s = m.rigid_body(p.model(), gib::merge_method_params(m, k.params));
    s->reset();
    gib::OpCounters c;
    RigidBodyState x = p.initial_state();
    for (int n = 0; n < 100; ++n) s->step(x, 0.004, c);
    CHECK(c.rhs_evals == k.rhs);
    CHECK(c.exp_evals == k.exp);
    CHECK(c.linear_solves == k.solves);
    CHECK(c.force_evals == 0);
  }
}

TEST_CASE("Buss methods: metadata, and the claims of the energy-correction wrapper", "[buss]") {
  int count = 0;
  for (const auto& m : gib::method_registry()) {
    if (m.family != "buss") continue;
    ++count;
    INFO(m.id);
    CHECK(m.torque_free_only);
    CHECK(m.claims.stays_on_group);
    CHECK(m.claim_for(gib::Invariant::casimir, true) != nullptr);
    CHECK(m.claim_for(gib::Invariant::spatial_momentum, true) != nullptr);
  }
  CHECK(count == 20);
  // Wrapping a symmetric, symplectic base with bounded energy: exact energy instead, neither property kept.
  gib::MethodInfo base = method("buss2");
  base.claims.symmetric = true;
  base.claims.symplectic = true;
  base.claims.invariants.push_back({gib::Invariant::energy, gib::Preservation::bounded, gib::Applies::always});
  const gib::MethodInfo ec = gib::buss::energy_corrected(base, 2, "because");
  CHECK(ec.id == "buss2_ec");
  CHECK(ec.display_name == "Buss 2nd order + EC");
  CHECK(ec.claims.order == 2);
  CHECK_FALSE(ec.claims.symmetric);
  CHECK_FALSE(ec.claims.symplectic);
  CHECK(ec.torque_free_only);
  REQUIRE(ec.claim_for(gib::Invariant::energy, true) != nullptr);
  CHECK(ec.claim_for(gib::Invariant::energy, true)->how == gib::Preservation::exact);
  CHECK(ec.claim_for(gib::Invariant::energy, false) == nullptr);
  CHECK(ec.citation.find("because") != std::string::npos);
  // A base off SO(3) gets exact energy only.
  const gib::MethodInfo off = gib::buss::energy_corrected(method("odeint_rk4_quat"), 4, "test");
  CHECK(off.claim_for(gib::Invariant::energy, true) != nullptr);
  CHECK(off.claim_for(gib::Invariant::casimir, true) == nullptr);
  CHECK(off.claim_for(gib::Invariant::spatial_momentum, true) == nullptr);
  gib::MethodInfo none;
  none.id = "none";
  CHECK_THROWS_AS(gib::buss::energy_corrected(none, 1, ""), gib::InputError);
  // Unknown parameter values are bad input.
  const gib::MethodInfo& rk = method("buss_rk_rotvec");
  CHECK_THROWS_AS(rk.rigid_body(buss2001().model(), {{"average", "geodesic"}}), gib::InputError);
}

}  // namespace gibench_test_buss_methods
