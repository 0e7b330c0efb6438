// Paper reproductions declared as data. Each figure is a JSON spec under harness/figures/ naming the
// sweeps that produce its cells, the plots (drawn by plots/plot_results.py from the same spec) and the
// checks: the paper's statements and printed values, each compared with ours and given a verdict.
//
// Check kinds: one entry each in the table of harness/check_kinds.cpp, with the fields its checks take; how each is
// judged, the verdict scale and the spec fields shared by all kinds are in harness/figure_verdict.hpp and
// results/SCHEMA.md.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "harness/check_kinds.hpp"
#include "harness/figure_verdict.hpp"
#include "harness/sweep.hpp"

namespace gib {

struct FigureSpec {
  std::string id;
  Json spec;  // the whole JSON, carried into the output file
  bool in_default_set = false;
  std::filesystem::path file;  // harness/figures/<...>.json, an input no output may replace
};

// All specs under <root>/harness/figures, sorted by id. Throws InputError on a malformed spec.
std::vector<FigureSpec> load_figure_specs();
const FigureSpec& find_figure(const std::vector<FigureSpec>& all, const std::string& id);

// Every check's kind (one the table of harness/check_kinds.hpp declares), criterion, ids, operands and deviation
// fields, validated when the specs load (before any work): throws InputError naming the check.
void validate_figure_checks(const Json& checks);

// Evaluate the spec's checks against rows/fits/series: one verdict row per check. Kinds that run their own
// integrations (CheckKind::own_search: "steps") run first, in parallel with opt.jobs threads.
Json evaluate_checks(const Json& checks, const Json& rows, const Json& fits, const SweepOptions& opt = {},
                     const Json& series = Json::array());

// Known deviations live in the figure spec, next to the check they explain: "deviation" (why ours differs, with
// the numbers) and "expected_verdict" (the verdict it explains: "direction only", "refuted", "inconclusive", or
// "fails" / "inconclusive" for a gibench check). A row that deviates without one is marked "unexplained"; a row
// whose verdict is no longer its expected_verdict is marked "stale" (the deviation expired).
void apply_deviations(const Json& checks, Json& verdicts);
// True for a row that makes `gibench reproduce` fail (exit 5): no data, stale or unexplained (timing rows, whose
// verdict depends on the machine, only report).
bool verdict_row_failed(const Json& verdict);

struct ReproduceOptions {
  std::filesystem::path out_dir;  // default <root>/results/paper
  bool plots = true;
  SweepOptions sweep;
};

struct ReproduceOutcome {
  VerdictCounts counts;
  Json problems = Json::array();  // rows for which verdict_row_failed()
  bool plots_ok = true;
  std::filesystem::path json, markdown;
};

ReproduceOutcome reproduce_figure(const FigureSpec& fig, const ReproduceOptions& opt,
                                  const std::vector<std::string>& command_line);

// `gibench reproduce --check`: every row of a fresh figure result against the committed one, as one line per
// change ("#k 'statement': committed refuted, ours 1.07; now reproduced, ours 2.3"). Rows that depend on the machine
// (timing) are compared only for having data; a committed file made from another spec is one line saying so.
std::vector<std::string> compare_with_committed(const Json& now, const std::filesystem::path& committed_file);
// A new directory only this process uses (mkdtemp), under the system's temporary directory.
std::filesystem::path make_private_temp_dir(const std::string& stem);

// Markdown summary: paper value, ours, ratio and verdict per statement, plus the order fits.
std::string figure_markdown(const Json& doc);

}  // namespace gib
