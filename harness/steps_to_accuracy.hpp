// Steps to reach eps (GUIDE 3, Buss convention, Buss spec 7.4): the smallest N from which every larger N
// meets eps. Errors are not monotone in N for every method (Buss spec 10: plain bisection gives 13 for
// MR4 + EP where the paper, scanning down, has 18), so "the first N that passes" is not the answer.
//
// A point N "meets eps" when err(N) is finite and err(N) <= eps. NaN / inf (a failed or diverged run,
// or a missing value given as NaN) never meets eps. Buss writes "below eps"; the two readings differ
// only when err == eps exactly.
//
// Three layers:
//   steps_from_scan            the definition applied to a finished scan of (N, err) points;
//   search_steps_to_accuracy   a driver that chooses which N to evaluate (memoised, counted);
//   steps_to_accuracy_cell     err_of(N) built from a Cell template through run_cell, h = T / N.
#pragma once

#include <cstdint>
#include <functional>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "harness/cell.hpp"

namespace gib {

// (N, err) pairs; err is NaN for a failed or missing run.
using StepsScan = std::vector<std::pair<std::int64_t, double>>;

bool meets_eps(double err, double eps);

struct StepsScanResult {
  bool reached = false;
  std::int64_t n = 0;      // smallest scanned N with every scanned N' >= N meeting eps; 0 when not reached
  double err = std::numeric_limits<double>::quiet_NaN();  // error at n
  std::int64_t last_fail = 0;  // largest failing scanned N (below n when reached); 0 when none
  double last_fail_err = std::numeric_limits<double>::quiet_NaN();
  int support = 0;             // scan points >= n, all meeting eps (how many points back the claim)
  std::int64_t best_n = 0;     // the scanned N with the smallest finite error (0 when none is finite)
  double best_err = std::numeric_limits<double>::quiet_NaN();
};

// The definition on a scan in any order. A repeated N meets eps only if every entry for it does (its
// error is then the largest entry, or NaN if any entry is NaN). Throws InputError for eps not finite
// and positive or for N < 1. An empty scan is "not reached".
StepsScanResult steps_from_scan(StepsScan scan, double eps);

struct StepsSearchOptions {
  std::int64_t n_min = 10;       // the search domain is [n_min, n_max]; nothing below n_min is examined
  std::int64_t n_max = 1 << 20;  // the cap: "N > n_max failed" (Buss's caps are 20480, 40960, 163840)
  double ratio = 1.1;            // geometric scan N_{k+1} = max(N_k + 1, ceil(ratio N_k)), capped at n_max
  int confirm = 3;               // passing scan points needed beyond the last failure
  std::int64_t window = 64;      // dense verification: every integer in [n, n + window]
  // A paper's cap is part of its protocol (Buss: "N > 40960 failed" after passing at N <= 40960): a passing
  // run that ends at n_max then counts even when shorter than `confirm`; the dense window still applies.
  bool short_run_at_cap = false;
};

// Throws InputError unless 1 <= n_min <= n_max, ratio is finite and > 1, confirm >= 1, window >= 0.
void validate_steps_options(const StepsSearchOptions& opt);

// What the driver guarantees when reached (every statement is about values err_of returned):
//   * n - 1 was evaluated and fails, unless n == n_min (then nothing below n_min was examined);
//   * every integer in [n, dense_hi] was evaluated and meets eps, and dense_hi >= min(n + window, n_max);
//   * every N evaluated above n meets eps; among them are at least `confirm` geometric scan points, the
//     largest evaluated N being checked_top;
//   * integers in (dense_hi, checked_top] that are not scan points were NOT all evaluated, and nothing
//     above checked_top is claimed: a failure hiding between scan points above the dense window, or
//     beyond checked_top, would not be seen.
// So n is exactly steps_from_scan(evaluated, eps).n. It equals the true answer on [n_min, checked_top]
// when no failure hides between the scan points above dense_hi.
//
// How (each step uses the memo, so no N is evaluated twice):
//   1. walk the geometric scan from n_min, skipping N at or below the largest failure seen so far, until
//      `confirm` consecutive scan points pass (or the scan has evaluated n_max: not reached);
//   2. bisect between the largest failure and the smallest evaluated N above it (all of which pass) for
//      the smallest passing integer; this assumes local monotonicity and ends with n - 1 failing;
//   3. evaluate every integer in [n, n + window]; if any fails, go back to 1 above that failure.
// The window in 3 deliberately reaches past the first passing scan point: high-frequency oscillations
// (e.g. C / N^2 (1 + 0.3 sin N)) put failures between the passing scan points, and at large N the
// window lies inside the scan gap anyway, so this costs extra evaluations only at small N.
//
// When not reached (no run of `confirm` passing scan points up to n_max, like Buss's "N > 20480 failed"):
// n = 0, last_fail is the largest failing N, best_n / best_err the smallest finite error seen; note says
// if the scan ended on a passing run shorter than `confirm` (raise n_max to settle it).
struct StepsSearchResult {
  bool reached = false;
  std::int64_t n = 0;
  double err = std::numeric_limits<double>::quiet_NaN();
  std::int64_t last_fail = 0;  // n - 1 when reached above n_min; 0 when nothing failed
  double last_fail_err = std::numeric_limits<double>::quiet_NaN();
  std::int64_t dense_hi = 0;   // every integer in [n, dense_hi] was evaluated (0 when not reached)
  std::int64_t checked_top = 0;        // the largest N evaluated
  int scan_points_above = 0;           // geometric scan points evaluated in (dense_hi, checked_top]
  std::int64_t best_n = 0;
  double best_err = std::numeric_limits<double>::quiet_NaN();
  int evaluations = 0;                 // distinct calls of err_of
  StepsScan evaluated;                 // every (N, err) evaluated, increasing N
  std::vector<std::int64_t> dense;     // every N evaluated as part of a dense window, increasing
  std::string note;
};

// err_of(N) returns the error after N steps, NaN for a failed or diverged run; exceptions propagate.
using ErrorOfSteps = std::function<double(std::int64_t)>;

StepsSearchResult search_steps_to_accuracy(const ErrorOfSteps& err_of, double eps,
                                           const StepsSearchOptions& opt = {});

// err_of for a cell template (problem, preset, overrides, ic, method, method_params are used): each call
// runs run_cell with h = T / N, steps = N, only the final reference error (observe.ref_samples = 0), no
// series and no timing, and returns row.metrics[metric]; a status other than "ok" gives NaN. Throws
// InputError for T not finite and positive, for an unknown metric, and for a null metric in an "ok"
// row (the problem has no reference solution).
ErrorOfSteps cell_error_of_steps(const Cell& tmpl, double T, const std::string& metric = "rot_geodesic_final");

StepsSearchResult steps_to_accuracy_cell(const Cell& tmpl, double T, double eps, const StepsSearchOptions& opt = {},
                                         const std::string& metric = "rot_geodesic_final");

}  // namespace gib
