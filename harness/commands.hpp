// The gibench subcommands, independent of the argument parser (harness/cli/main.cpp wires CLI11 to
// these). Each returns the process exit code; bad input throws InputError.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "harness/cell.hpp"

namespace gib {

// "key=value" items of --set / --param into one JSON object. The value is parsed as JSON when it can
// be (numbers, arrays, true/false), otherwise kept as a string. Duplicate keys are errors.
Json parse_assignments(const std::vector<std::string>& items, const std::string& flag);

// The markdown path beside a JSON output (<stem>.md), both checked as outputs before any work (core/safe_file.hpp):
// for commands that write a results document and its markdown.
std::filesystem::path checked_json_and_markdown(const std::filesystem::path& out);

// json: the same facts as data (harness/catalog.hpp), and `what` may also be "all".
int cmd_list(const std::string& what, bool json);

struct RunArgs {
  std::string config;  // optional JSON file with the same fields as the flags
  std::string problem, preset, ic, method;
  std::vector<std::string> sets, params;
  double h = 0, T = 0;
  long long steps = 0;
  std::string out = "gibench_run.json";
  bool json_stdout = false;
  long long series_points = 0;
  bool no_reference = false;
  int timing_reps = 0;
  std::vector<std::string> command_line;
};
int cmd_run(const RunArgs& a);

struct SweepArgs {
  std::string config, out, shard;
  int jobs = 0;
  bool resume = false, restart = false, reproducible = false;
  double cell_time_budget = 0;  // seconds, when given (else the config's)
  bool cell_time_budget_given = false;
  std::vector<std::string> command_line;
};
int cmd_sweep(const SweepArgs& a);

struct MergeArgs {
  std::vector<std::string> shards;
  std::string out;
  bool reproducible = false;
  std::vector<std::string> command_line;
};
int cmd_merge(const MergeArgs& a);

struct ReportArgs {
  std::string out;                  // the site's directory (default <project>/report)
  std::vector<std::string> inputs;  // results files or directories (default <project>/results)
  std::vector<std::string> command_line;
};
// The static site of verdicts, leaderboards and method and problem pages (harness/report.cpp, plots/report.py).
int cmd_report(const ReportArgs& a);

// Brings figure and rank results files written before the storage rules (harness/results_storage.hpp) to the bytes
// a rerun writes; a file already compact is left untouched.
struct CompactArgs {
  std::vector<std::string> files;
};
int cmd_compact(const CompactArgs& a);

struct ReproduceArgs {
  std::vector<std::string> ids;  // figure ids, "default" or "all"
  std::string out_dir;
  bool plots = true;
  bool check = false;  // compare every verdict with the committed results/paper/<id>.json (CI)
  int jobs = 0;
  std::vector<std::string> command_line;
};
int cmd_reproduce(const ReproduceArgs& a);

struct ReferenceArgs {
  std::string problem, preset, ic = "preset", out;
  std::vector<std::string> sets;
  std::vector<double> times;
  std::vector<std::string> command_line;
};
int cmd_reference(const ReferenceArgs& a);

// Reads, checks and registers each method file (--method-file FILE, methods/from_file/), before any work; returns the
// ids it registered. Throws InputError (a failed order condition names itself) for the first bad file.
std::vector<std::string> load_method_files(const std::vector<std::string>& paths);

struct ConformanceArgs {
  std::string method;  // empty: every method, or the --method-file methods when there are some
  std::vector<std::string> file_methods;  // the ids --method-file registered
  std::string out;
  std::vector<std::string> command_line;
};
int cmd_conformance(const ConformanceArgs& a);

struct CheckArgs {
  std::vector<std::string> names;  // baseline names; empty: all
  bool update = false;
  std::string out;  // JSON report
  int jobs = 0;
  std::vector<std::string> command_line;
};
int cmd_check(const CheckArgs& a);

struct RankArgs {
  std::string problem, preset, ic = "preset", metric = "state_err_final", out;
  std::vector<std::string> sets, include, exclude;
  std::vector<double> targets = {1e-3, 1e-6, 1e-9};
  double T = 0;
  int reps = 5, jobs = 0;
  long long n_max = 1 << 18;
  bool plots = true;
  std::vector<std::string> command_line;
};
int cmd_rank(const RankArgs& a);

}  // namespace gib
