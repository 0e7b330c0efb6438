// Paper reproductions declared as data. Each figure is a JSON spec under harness/figures/ naming the
// sweeps that produce its cells, the plots (drawn by plots/plot_results.py from the same spec) and the
// checks: the paper's statements and printed values, each compared with ours and given a verdict.
//
// Check kinds (fields besides statement, source, paper_value, reason):
//   order  {where, metric, expected, tolerance}: fitted order(s) of the matching fits
//   max    {where, metric, at_most}: max |metric| over matching ok rows must not exceed at_most
//   min    {where, metric, at_least}: min |metric| over matching rows must reach at_least
//   value  {where, metric, rel_tol}: the single matching row's metric against the numeric paper_value
//   status {where, status}: every matching row has this status ("not ok": any status but ok); the note lists
//     where runs stopped
//   value with sig_digits: ours must round to the paper's printed digits
//   steps  {problem, preset, method, params, T, eps, cap, metric}: steps-to-accuracy search (Buss Figs 6, 7);
//          paper_value N or "failed" (N > cap); tolerance: abs_steps / rel (default exact)
//   ratio  {numerator, denominator, paper_value | at_least, rel_tol}: ours of two earlier checks (by id)
//   time_ratio {where, reference, paper_value, rel_tol}: measured ns/step of one row over another's
//   wall_time {where, paper_seconds}: the row's median wall time of a whole run (report only, verdict "measured")
//   spikes, series_stat, best, metric_ratio: harness/comparison_checks.hpp
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "harness/sweep.hpp"

namespace gib {

struct FigureSpec {
  std::string id;
  Json spec;  // the whole JSON, carried into the output file
  bool in_default_set = false;
};

// All specs under <root>/harness/figures, sorted by id. Throws InputError on a malformed spec.
std::vector<FigureSpec> load_figure_specs();
const FigureSpec& find_figure(const std::vector<FigureSpec>& all, const std::string& id);

// Evaluate the spec's checks against rows/fits/series: one verdict row per check. Computational checks
// ("steps") run their own searches, in parallel with opt.jobs threads.
Json evaluate_checks(const Json& checks, const Json& rows, const Json& fits, const SweepOptions& opt = {},
                     const Json& series = Json::array());

struct ExpectedDeviation;

// Marks verdicts explained by results/expected_deviations.json entries whose check is the figure id:
// "differs" becomes "expected_deviation" (with the reason); a reproduced one is flagged stale.
void apply_expected_deviations(const std::string& figure, Json& verdicts, const Json& checks, const Json& rows,
                               const std::vector<ExpectedDeviation>& deviations);

struct ReproduceOptions {
  std::filesystem::path out_dir;  // default <root>/results/paper
  bool plots = true;
  SweepOptions sweep;
};

struct ReproduceOutcome {
  int reproduced = 0, total = 0;
  bool plots_ok = true;
  std::filesystem::path json, markdown;
};

ReproduceOutcome reproduce_figure(const FigureSpec& fig, const ReproduceOptions& opt,
                                  const std::vector<std::string>& command_line);

// Markdown summary: paper value, ours, ratio and verdict per statement, plus the order fits.
std::string figure_markdown(const Json& doc);

}  // namespace gib
