// RKMK parameter variants run the full battery too: the right-trivialised (spatial momentum) form and
// the minimal dexp^-1 truncation K = p - 2 keep every claim of the default form (Kjer spec 3.3, 3.6).
#include <catch2/catch.hpp>

#include "core/method.hpp"
#include "harness/conformance.hpp"

namespace gibench_test_rkmk_variants {

namespace {

void battery_passes(const std::string& id, const gib::Json& params) {
  gib::MethodInfo m = gib::find_method(id);
  for (auto it = params.begin(); it != params.end(); ++it) (*m.default_params)[it.key()] = it.value();
  for (const char* ic : {"preset", "random:1"}) {
    const auto r = gib::run_conformance(m, {"free_rigid_body", "krysl2006", ic});
    for (const auto& c : r.checks) {
      INFO(id << " " << params.dump() << " ic=" << ic << ": " << c.claim << ": " << c.detail);
      CHECK(c.passed);
    }
  }
}

}  // namespace

TEST_CASE("right-trivialised RKMK keeps its order and invariants", "[rkmk]") {
  for (const char* id : {"rkmk1", "rkmk2", "rkmk3", "rkmk4"}) battery_passes(id, {{"trivialisation", "right"}});
}

TEST_CASE("minimal dexp^-1 truncation K = p - 2 keeps the order", "[rkmk]") {
  for (const char* id : {"rkmk3", "rkmk4"}) battery_passes(id, {{"truncation", "minimal"}});
}

TEST_CASE("RKMK4 with the thesis's printed dexp^-1 sign is only second order", "[rkmk]") {
  gib::MethodInfo m = gib::find_method("rkmk4");
  (*m.default_params)["dexpinv_sign"] = "flipped";
  m.claims.order = 2;  // the true order of this ablation: the battery must confirm it
  const auto r = gib::run_conformance(m, {"free_rigid_body", "kjer2017", "random:2"});
  for (const auto& c : r.checks) {
    INFO(c.claim << ": " << c.detail);
    CHECK(c.passed);
  }
}

}  // namespace gibench_test_rkmk_variants
