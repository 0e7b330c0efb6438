// The conformance battery: every claim a method makes (order, exact and bounded invariants,
// symplecticity, symmetry, staying on the group) checked on every compatible problem preset and two
// seeded random initial conditions, plus bitwise-identical repeated runs. Generated from metadata: a
// new method gets the whole battery from its registry line alone. A false claim fails (the tests
// register deliberately wrong claims to prove it).
#pragma once

#include <string>
#include <vector>

#include "core/method.hpp"
#include "harness/cell.hpp"

namespace gib {

struct ConformanceTarget {
  std::string problem, preset, ic;
};

// Every (problem, preset, ic) the method can run on: each compatible problem's presets, each with the
// preset initial condition and random:1, random:2.
std::vector<ConformanceTarget> conformance_targets(const MethodInfo& m);

struct ClaimCheck {
  ClaimCheck() = default;
  ClaimCheck(std::string claim_, bool passed_, double measured_, double threshold_, std::string detail_)
      : claim(std::move(claim_)), passed(passed_), measured(measured_), threshold(threshold_), detail(std::move(detail_)) {}

  std::string claim;     // "order", "exact casimir", "bounded energy", "symmetric", "stays_on_group", "bitwise_repeatable"
  bool passed = false;
  bool inconclusive = false;  // the measurement cannot decide (an order fit that stays undecided): never a pass
  double measured = 0;   // the number the verdict rests on (order_hat, max error, ...)
  double threshold = 0;  // the bound it was held to (for order: the tolerance around the declared order)
  std::string detail;    // one line a reader can act on
  std::string expected_deviation;  // reason from results/expected_deviations.json, if an entry matches

  // A failure explained by an expected-deviation entry is acceptable; a pass with an entry means the entry has
  // expired (STALE), which fails like a claim does (GUIDE 7: deviations expire).
  bool acceptable() const { return passed ? expected_deviation.empty() : !expected_deviation.empty(); }
  bool stale_deviation() const { return passed && !expected_deviation.empty(); }
  // "ok", "FAIL", "INCONCLUSIVE", "xfail" (expected deviation), "STALE" (entry no longer needed)
  const char* verdict() const;
};

struct ConformanceReport {
  std::string method;
  ConformanceTarget target;
  std::vector<ClaimCheck> checks;
  bool all_passed() const;      // every check passed outright
  bool all_acceptable() const;  // every check passed or is an expected deviation
};

struct ExpectedDeviation;

struct ConformanceOptions {
  double order_tolerance = 0.3;
  int invariant_steps = 2000;     // steps of the exact-invariant / on-group run
  int bounded_steps = 20000;      // steps of the long run for bounded (symplectic) claims
  double coarse_rotation = 0.2;   // coarse step: h = coarse_rotation * time_scale (radians per step)
  const std::vector<ExpectedDeviation>* deviations = nullptr;  // null: results/expected_deviations.json
};

// Run the battery for one method on one target. The method is given by value so tests can alter claims.
ConformanceReport run_conformance(const MethodInfo& m, const ConformanceTarget& t, const ConformanceOptions& opt = {});

Json conformance_json(const ConformanceReport& r);

}  // namespace gib
