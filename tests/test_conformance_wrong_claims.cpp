// The battery must fail when a claim is false. Each case copies a registered method, makes one claim
// wrong, and requires that exactly that claim's check fails (while the true claims still pass).
#include <catch2/catch.hpp>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "core/errors.hpp"
#include "core/method.hpp"
#include "harness/conformance.hpp"
#include "harness/expected_deviations.hpp"

namespace gibench_test_conformance_wrong_claims {

namespace {

const gib::ConformanceTarget kTarget{"free_rigid_body", "kjer2017", "random:1"};

const gib::ClaimCheck* find_check(const gib::ConformanceReport& r, const std::string& claim) {
  for (const auto& c : r.checks)
    if (c.claim == claim) return &c;
  return nullptr;
}

}  // namespace

TEST_CASE("battery: the registered claims of rkmk4 and odeint_rk4_quat pass", "[conformance][wrong_claims]") {
  for (const char* id : {"rkmk4", "odeint_rk4_quat"}) {
    const auto r = gib::run_conformance(gib::find_method(id), kTarget);
    for (const auto& c : r.checks) {
      INFO(id << ": " << c.claim << ": " << c.detail);
      CHECK(c.passed);
    }
  }
}

// Runs the battery on a method with one false claim and requires that claim's check to fail.
static gib::ClaimCheck expect_claim_fails(const gib::MethodInfo& m, const std::string& claim,
                                          const gib::ConformanceTarget& target = kTarget) {
  const auto r = gib::run_conformance(m, target);
  const auto* c = find_check(r, claim);
  REQUIRE(c != nullptr);
  INFO(m.id << ": " << c->claim << ": " << c->detail);
  CHECK_FALSE(c->passed);
  return *c;
}

static gib::MethodInfo registered(const char* id) { return gib::find_method(id); }

TEST_CASE("battery: a wrong order claim fails", "[conformance][wrong_claims]") {
  gib::MethodInfo m = registered("rkmk4");
  m.claims.order = 3;
  expect_claim_fails(m, "order");
}

TEST_CASE("battery: RKMK4 claiming the dexp^-1-flipped variant keeps order 4 fails", "[conformance][wrong_claims]") {
  gib::MethodInfo m = registered("rkmk4");
  (*m.default_params)["dexpinv_sign"] = "flipped";  // the thesis's printed sign: really order 2
  CHECK(expect_claim_fails(m, "order").measured == Approx(2.0).margin(0.3));
}

TEST_CASE("battery: a classical method claiming to stay on SO(3) fails", "[conformance][wrong_claims]") {
  gib::MethodInfo m = registered("odeint_rk4_matrix");
  m.claims.stays_on_group = true;
  expect_claim_fails(m, "stays_on_group");
}

TEST_CASE("battery: a classical method claiming an exact Casimir fails", "[conformance][wrong_claims]") {
  gib::MethodInfo m = registered("odeint_rk4_quat");
  m.claims.invariants.push_back({gib::Invariant::casimir, gib::Preservation::exact, gib::Applies::always});
  expect_claim_fails(m, "exact casimir");
}

TEST_CASE("battery: RKMK4 claiming exact energy fails", "[conformance][wrong_claims]") {
  gib::MethodInfo m = registered("rkmk4");
  m.claims.invariants.push_back({gib::Invariant::energy, gib::Preservation::exact, gib::Applies::always});
  expect_claim_fails(m, "exact energy");
}

TEST_CASE("battery: explicit Euler claiming symplecticity fails (energy drifts)", "[conformance][wrong_claims]") {
  gib::MethodInfo m = registered("odeint_euler_quat");
  m.claims.symplectic = true;
  expect_claim_fails(m, "bounded energy");
}

TEST_CASE("battery: RKMK4 claiming symmetry fails", "[conformance][wrong_claims]") {
  gib::MethodInfo m = registered("rkmk4");
  m.claims.symmetric = true;
  expect_claim_fails(m, "symmetric");
}

// The general-vector-field kind goes through the same checks: on the pendulum, each property a lectures method
// claims can fail.
const gib::ConformanceTarget kPendulum{"pendulum", "mq1998", "random:1"};

TEST_CASE("battery, vector field: the registered claims of leapfrog_kdk pass", "[conformance][wrong_claims]") {
  const auto r = gib::run_conformance(gib::find_method("leapfrog_kdk"), kPendulum);
  REQUIRE(r.checks.size() >= 4);
  for (const auto& c : r.checks) {
    INFO(c.claim << ": " << c.detail);
    CHECK(c.passed);
  }
}

TEST_CASE("battery, vector field: symplectic Euler claiming order 2 or symmetry fails", "[conformance][wrong_claims]") {
  gib::MethodInfo m = registered("symplectic_euler");
  m.claims.order = 2;
  expect_claim_fails(m, "order", kPendulum);
  m = registered("symplectic_euler");
  m.claims.symmetric = true;
  expect_claim_fails(m, "symmetric", kPendulum);
}

TEST_CASE("battery, vector field: RK2 claiming symplecticity or exact energy fails", "[conformance][wrong_claims]") {
  gib::MethodInfo m = registered("odeint_rk2");
  m.claims.symplectic = true;
  expect_claim_fails(m, "bounded energy", kPendulum);
  m = registered("leapfrog_dkd");
  m.claims.invariants = {{gib::Invariant::energy, gib::Preservation::exact, gib::Applies::always}};
  expect_claim_fails(m, "exact energy", kPendulum);
}

// The lectures' composition machinery (spec 2.3, 2.7, 10): each new method's registered claims pass, and a false
// one fails.
TEST_CASE("battery, vector field: implicit Euler, the projections and processed symplectic Euler", "[conformance][wrong_claims]") {
  for (const char* id : {"implicit_euler", "projection_adjoint", "reversible_projection", "symplectic_euler_processed"}) {
    const auto r = gib::run_conformance(gib::find_method(id), kPendulum);
    for (const auto& c : r.checks) {
      INFO(id << ": " << c.claim << ": " << c.detail);
      CHECK(c.passed);
    }
  }
  gib::MethodInfo m = registered("implicit_euler");
  m.claims.symmetric = true;  // its adjoint is explicit Euler, not itself
  expect_claim_fails(m, "symmetric", kPendulum);
  m = registered("reversible_projection");
  m.claims.order = 4;
  expect_claim_fails(m, "order", kPendulum);
  m = registered("projection_adjoint");
  m.claims.invariants = {{gib::Invariant::energy, gib::Preservation::exact, gib::Applies::always}};  // the midpoint rule
  expect_claim_fails(m, "exact energy", kPendulum);
  m = registered("symplectic_euler_processed");
  m.claims.order = 3;
  expect_claim_fails(m, "order", kPendulum);
}

TEST_CASE("battery, vector field: Thue-Morse words on the Toda flow", "[conformance][wrong_claims]") {
  const gib::ConformanceTarget toda{"toda", "mq1998", "random:1"};
  const auto r = gib::run_conformance(gib::find_method("thue_morse"), toda);
  for (const auto& c : r.checks) {
    INFO(c.claim << ": " << c.detail);
    CHECK(c.passed);
  }
  gib::MethodInfo m = registered("thue_morse");
  m.claims.symmetric = true;  // a word of Euler steps is not self-adjoint
  expect_claim_fails(m, "symmetric", toda);
  m = registered("thue_morse");
  m.claims.order = 2;
  expect_claim_fails(m, "order", toda);
}

// Lecture 6 (spec 8): a first integral kept exactly, and a Lyapunov function that never increases, are claims the
// battery must be able to refute.
TEST_CASE("battery, vector field: RK4 claiming the exact first integral of a skew-gradient field fails", "[conformance][wrong_claims]") {
  gib::MethodInfo m = registered("odeint_rk4");
  m.claims.invariants = {{gib::Invariant::energy, gib::Preservation::exact, gib::Applies::always}};
  expect_claim_fails(m, "exact energy", {"integral3d", "mq1998", "random:1"});
  m = registered("dg_itoh_abe");  // Itoh-Abe is not symmetric where G is not separable (Kepler's 1/|q|)
  m.claims.symmetric = true;
  expect_claim_fails(m, "symmetric", {"kepler", "e0.5", "random:1"});
}

TEST_CASE("battery, vector field: Euler claiming a monotone Lyapunov function fails", "[conformance][wrong_claims]") {
  gib::MethodInfo m = registered("odeint_euler");
  m.claims.lyapunov_monotone = true;  // Euler raises V = p^2/2 - cos q near p = 0 at every step size (spec 8.6)
  expect_claim_fails(m, "lyapunov_monotone", {"damped_pendulum", "mq1998_alpha0.1", "random:1"});
}

TEST_CASE("expected deviations: an explained failure is acceptable, a stale entry fails", "[conformance][wrong_claims]") {
  gib::MethodInfo m = registered("rkmk4");
  m.claims.symmetric = true;  // false claim
  const std::vector<gib::ExpectedDeviation> explained = {
      {"rkmk4", "free_rigid_body", "*", "*", "symmetric", "test: a known, explained failure", "defect 1e-3", "test"}};
  gib::ConformanceOptions opt;
  opt.deviations = &explained;
  auto r = gib::run_conformance(m, kTarget, opt);
  const auto* sym = find_check(r, "symmetric");
  REQUIRE(sym != nullptr);
  CHECK_FALSE(sym->passed);
  CHECK(sym->acceptable());
  CHECK(std::string(sym->verdict()) == "xfail");
  CHECK(r.all_acceptable());
  CHECK_FALSE(r.all_passed());
  // An entry for a claim that now passes has expired: STALE, and not acceptable (GUIDE 7: deviations expire), so
  // that an entry never covers more cells than fail.
  const std::vector<gib::ExpectedDeviation> stale = {
      explained[0], {"rkmk4", "free_rigid_body", "kjer2017", "*", "exact casimir", "test: no longer applies", "1e-16", "test"}};
  opt.deviations = &stale;
  r = gib::run_conformance(m, kTarget, opt);
  const auto* cas = find_check(r, "exact casimir");
  REQUIRE(cas != nullptr);
  CHECK(cas->passed);
  CHECK(cas->stale_deviation());
  CHECK_FALSE(cas->acceptable());
  CHECK(std::string(cas->verdict()) == "STALE");
  CHECK_FALSE(r.all_acceptable());
  // The entry is scoped: on another problem preset it does not apply.
  const std::vector<gib::ExpectedDeviation> other = {
      {"rkmk4", "free_rigid_body", "buss2001", "*", "symmetric", "test", "1e-3", "test"}};
  opt.deviations = &other;
  CHECK_FALSE(gib::run_conformance(m, kTarget, opt).all_acceptable());
}

TEST_CASE("expected deviations: battery claims and baseline_order only, each with its measured numbers",
          "[conformance][wrong_claims]") {
  const auto dir = std::filesystem::temp_directory_path() / ("gibench-deviations-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const auto write = [&](const std::string& entry) {
    const auto path = dir / "deviations.json";
    std::ofstream(path) << "{\"deviations\": [" << entry << "]}";
    return path;
  };
  const std::string base = R"("method": "zs", "problem": "free_rigid_body", "reason": "why")";
  CHECK(gib::load_expected_deviations(write("{" + base + R"(, "check": "order", "measured": "fitted 1.1 [0.7, 1.5]"})")).size() == 1);
  // A figure's deviation belongs in its spec, next to the check.
  CHECK_THROWS_AS(gib::load_expected_deviations(write("{" + base + R"(, "check": "taoowhadi2014-fig1#speed", "measured": "0.12"})")),
                  gib::InputError);
  // Without the numbers an entry explains nothing.
  CHECK_THROWS_AS(gib::load_expected_deviations(write("{" + base + R"(, "check": "order"})")), gib::InputError);
  CHECK_THROWS_AS(gib::load_expected_deviations(write("{" + base + R"(, "check": "order", "measured": "does not converge"})")),
                  gib::InputError);
  std::filesystem::remove_all(dir);
}

// Volume preservation (spec 7.1, 11 M8): on Volterra, RK2's det D psi is 0.99914 at tau = 0.1 (spec 7.3), so the
// claim must fail; the registered VP splitting's claims (volume included) pass on the same target.
const gib::ConformanceTarget kVolterra{"volterra", "mq1998", "random:1"};

TEST_CASE("battery, vector field: RK2 claiming volume preservation fails, and vp_splitting's claims pass",
          "[conformance][wrong_claims]") {
  gib::MethodInfo m = registered("odeint_rk2");
  m.claims.volume_preserving = true;
  expect_claim_fails(m, "volume_preserving", kVolterra);
  const auto r = gib::run_conformance(gib::find_method("vp_splitting"), kVolterra);
  for (const auto& c : r.checks) {
    INFO(c.claim << ": " << c.detail);
    CHECK(c.passed);
  }
}

// Stochastic methods (MethodClaims::stochastic) and methods enforcing constraints: each property of theirs has a
// wrong claim that fails. The water cluster's battery preset (3 molecules) is where the paper runs GLA.
TEST_CASE("battery, stochastic: gla_rattle's claims pass, and a deterministic method or a wrong temperature fails",
          "[conformance][wrong_claims][stochastic]") {
  const gib::ConformanceTarget water{"water_cluster", "n3", "preset"};
  SECTION("gla_rattle passes its own battery, with no order check") {
    const auto r = gib::run_conformance(registered("gla_rattle"), water);
    for (const auto& c : r.checks) {
      INFO(c.claim << ": " << c.detail);
      CHECK(c.passed);
    }
    for (const char* claim : {"kinetic_temperature", "seed_dependent", "bitwise_repeatable", "on_constraints"})
      CHECK(find_check(r, claim) != nullptr);
    CHECK(find_check(r, "order") == nullptr);
  }
  SECTION("the other seed differs whatever the default seed (1: the check once compared seed 1 with seed 1)") {
    gib::MethodInfo m = registered("gla_rattle");
    (*m.default_params)[gib::kSeedParam] = 1;
    const auto r = gib::run_conformance(m, water);
    const auto* c = find_check(r, "seed_dependent");
    REQUIRE(c != nullptr);
    INFO(c->detail);
    CHECK(c->passed);
  }
  SECTION("RATTLE claiming to be stochastic: the seed changes nothing, and NVE does not hold the bath's temperature") {
    gib::MethodInfo m = registered("rattle");
    m.claims.stochastic = true;
    (*m.default_params)[gib::kInverseTemperatureParam] = 50.0;
    (*m.default_params)[gib::kFrictionParam] = 0.01;
    (*m.default_params)[gib::kSeedParam] = 0;
    const auto inner = m.newtonian;
    // RATTLE refuses parameters it does not know; the claim is what is wrong here, not the parameters.
    m.newtonian = [inner](const gib::NewtonianModel& model, const gib::Json&) { return inner(model, gib::Json::object()); };
    expect_claim_fails(m, "seed_dependent", water);
    expect_claim_fails(m, "kinetic_temperature", water);
  }
  SECTION("GLA whose bath runs at twice the temperature it claims") {
    gib::MethodInfo m = registered("gla_rattle");
    const auto inner = m.newtonian;
    m.newtonian = [inner](const gib::NewtonianModel& model, const gib::Json& params) {
      gib::Json p = params;
      p[gib::kInverseTemperatureParam] = 0.5 * params[gib::kInverseTemperatureParam].get<double>();
      return inner(model, p);
    };
    CHECK(expect_claim_fails(m, "kinetic_temperature", water).measured > 0.5);
  }
  SECTION("GLA counting the constrained degrees of freedom as free (Integrator 5's bath around RATTLE's claim)") {
    gib::MethodInfo m = registered("gla_zs_stiff");
    m.enforces_constraints = true;  // claims RATTLE's d = n - m while its penalised bonds carry kT/2 each
    expect_claim_fails(m, "on_constraints", water);
    expect_claim_fails(m, "kinetic_temperature", water);
  }
}

}  // namespace gibench_test_conformance_wrong_claims
