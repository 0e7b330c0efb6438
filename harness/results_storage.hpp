// What a committed results file keeps of a run (issue 21 item 5: results/ stays under the README's size budget).
//
// Verdicts, fits and rank scans are computed from the full-precision in-memory rows and series before anything is
// stored, so storage only has to serve plots, the report and a reader checking numbers by eye:
//   * series: at most kSeriesMaxPoints points, chosen per bucket as the first point and the minimum and maximum of
//     every scalar column (a spike, a divergence or a band edge survives; a smooth stretch loses points); a state
//     series (phase portraits) at most kStateSeriesMaxPoints, every k-th; the decimation recorded in the series;
//     plotted values rounded to kSeriesDigits significant digits, sample times to kTimeDigits;
//   * rows: a final state of more than kStateMaxNumbers numbers (N particles, a 100-bead chain) is replaced by its
//     size and the FNV-1a hash of its full-precision dump, which still tells two runs apart;
//   * rows: problem parameters (the same for hundreds of rows, and 15 kB for an initial configuration drawn per
//     preset) are stored once in the document's `params_table`, keyed by the rows' `param_hash`, and the row's
//     `params` says {"$table": hash} (plots/gibench_plot.py load() resolves it);
//   * rank rows (`gibench.rank`): the errors at T a work-precision plot can select (every `*_final`) and the
//     timings, to kSeriesDigits (the leaderboard was ranked at full precision), the final state as its hash, and
//     the cost without what cost_value derives (zero counters, function_evals, work, per-step values: stored_cost);
//     the drift fits and classes behind the battery's and the figures' verdicts are not what a leaderboard ranks by;
//   * battery files (`gibench.conformance`): measured values and thresholds to kSeriesDigits, no field a verdict
//     already says (harness/results_storage.cpp compact_conformance).
// Everything else (figure rows' metrics, cost, timing, checks, fits, the leaderboard) keeps every digit. The rules are
// idempotent: compacting a compacted document returns it unchanged, so `gibench compact` can bring files written
// before them to the same bytes a rerun writes.
#pragma once

#include <cstddef>

#include "harness/json_util.hpp"

namespace gib {

constexpr std::size_t kSeriesMaxPoints = 1000;       // a line plot is at most about 1000 pixels wide
constexpr std::size_t kStateSeriesMaxPoints = 2000;  // a phase portrait's density is its picture
constexpr int kSeriesDigits = 7;
constexpr int kTimeDigits = 10;  // sample times: 0.30000000000000004 is 0.3
constexpr std::size_t kStateMaxNumbers = 64;

// Applies the rules above to a results document's `rows` and `series` (any kind; other keys untouched).
Json compact_for_storage(Json doc);

// x rounded to `digits` significant decimal digits (round half to even on the decimal string, as printf does).
double round_significant(double x, int digits);

}  // namespace gib
