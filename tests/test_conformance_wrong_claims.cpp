// The battery must fail when a claim is false. Each case copies a registered method, makes one claim
// wrong, and requires that exactly that claim's check fails (while the true claims still pass).
#include <catch2/catch.hpp>

#include "core/method.hpp"
#include "harness/conformance.hpp"

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

TEST_CASE("battery: a wrong order claim fails", "[conformance][wrong_claims]") {
  gib::MethodInfo m = gib::find_method("rkmk4");
  m.claims.order = 3;
  const auto r = gib::run_conformance(m, kTarget);
  const auto* c = find_check(r, "order");
  REQUIRE(c != nullptr);
  INFO(c->detail);
  CHECK_FALSE(c->passed);
}

TEST_CASE("battery: RKMK4 claiming the dexp^-1-flipped variant keeps order 4 fails", "[conformance][wrong_claims]") {
  gib::MethodInfo m = gib::find_method("rkmk4");
  m.default_params["dexpinv_sign"] = "flipped";  // the thesis's printed sign: really order 2
  const auto r = gib::run_conformance(m, kTarget);
  const auto* c = find_check(r, "order");
  REQUIRE(c != nullptr);
  INFO(c->detail);
  CHECK_FALSE(c->passed);
  CHECK(c->measured == Approx(2.0).margin(0.3));
}

TEST_CASE("battery: a classical method claiming to stay on SO(3) fails", "[conformance][wrong_claims]") {
  gib::MethodInfo m = gib::find_method("odeint_rk4_matrix");
  m.claims.stays_on_group = true;
  const auto r = gib::run_conformance(m, kTarget);
  const auto* c = find_check(r, "stays_on_group");
  REQUIRE(c != nullptr);
  INFO(c->detail);
  CHECK_FALSE(c->passed);
}

TEST_CASE("battery: a classical method claiming an exact Casimir fails", "[conformance][wrong_claims]") {
  gib::MethodInfo m = gib::find_method("odeint_rk4_quat");
  m.claims.invariants.push_back({gib::Invariant::casimir, gib::Preservation::exact, gib::Applies::always});
  const auto r = gib::run_conformance(m, kTarget);
  const auto* c = find_check(r, "exact casimir");
  REQUIRE(c != nullptr);
  INFO(c->detail);
  CHECK_FALSE(c->passed);
}

TEST_CASE("battery: RKMK4 claiming exact energy fails", "[conformance][wrong_claims]") {
  gib::MethodInfo m = gib::find_method("rkmk4");
  m.claims.invariants.push_back({gib::Invariant::energy, gib::Preservation::exact, gib::Applies::always});
  const auto r = gib::run_conformance(m, kTarget);
  const auto* c = find_check(r, "exact energy");
  REQUIRE(c != nullptr);
  INFO(c->detail);
  CHECK_FALSE(c->passed);
}

TEST_CASE("battery: explicit Euler claiming symplecticity fails (energy drifts)", "[conformance][wrong_claims]") {
  gib::MethodInfo m = gib::find_method("odeint_euler_quat");
  m.claims.symplectic = true;
  const auto r = gib::run_conformance(m, kTarget);
  const auto* c = find_check(r, "bounded energy");
  REQUIRE(c != nullptr);
  INFO(c->detail);
  CHECK_FALSE(c->passed);
}

TEST_CASE("battery: RKMK4 claiming symmetry fails", "[conformance][wrong_claims]") {
  gib::MethodInfo m = gib::find_method("rkmk4");
  m.claims.symmetric = true;
  const auto r = gib::run_conformance(m, kTarget);
  const auto* c = find_check(r, "symmetric");
  REQUIRE(c != nullptr);
  INFO(c->detail);
  CHECK_FALSE(c->passed);
}
