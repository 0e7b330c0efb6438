// gibench rank: for one problem (preset, initial condition, T) and a set of target errors, the cost each
// method needs to reach each target, read off its work-precision curve.
//
//   1. Every compatible method (or the --include list) is scanned over step counts N growing by sqrt(2)
//      from 4 until its error is on the round-off floor twice or N exceeds n_max (accuracy passes, one
//      method per thread).
//   2. For each target, the steps-to-accuracy rule (GUIDE 3) picks the smallest scanned N from which
//      every larger scanned N meets the target; the cost is interpolated on the log-log curve between
//      that point and the failing one before it.
//   3. The cells that bracket a target are timed: repetitions interleaved across all methods (A B A B),
//      median with min and max; the time to reach the target is interpolated like the counted costs.
//   4. Leaderboard per target, ranked by measured time; counted costs (steps, function evaluations,
//      counted work: core/counters.hpp) and energy behaviour (max error, bounded/drift, drift slope) are
//      columns, not the rank key. Methods that never reach a target are listed with the best error they reached.
//   5. Pareto fronts of (error, time) over the timed cells and of (error, counted work) over all.
#pragma once

#include <string>
#include <vector>

#include "core/method.hpp"
#include "harness/cell.hpp"

namespace gib {

struct RankOptions {
  std::string problem, preset, ic = "preset";
  Json overrides = Json::object();
  double T = 0;  // 0: ten time scales of the problem (1/|omega0|)
  std::vector<double> targets = {1e-3, 1e-6, 1e-9};
  std::string metric = "state_err_final";
  std::vector<std::string> include, exclude;
  int reps = 5;
  double min_sample_seconds = 2e-3;
  std::int64_t n_max = std::int64_t{1} << 18;
  int jobs = 0;
  const MethodCatalog* methods = nullptr;
};

// Throws InputError on bad options (unknown problem or method, targets not in (0, 1), ...).
Json rank_methods(const RankOptions& opt, const std::vector<std::string>& command_line);

std::string rank_markdown(const Json& doc);

}  // namespace gib
