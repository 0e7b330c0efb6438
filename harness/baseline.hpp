// Accuracy baselines for CI (`gibench check`). A baseline definition (harness/baselines/<name>.json)
// names sweeps, the metrics to track and their tolerance bands; `gibench check --update` records the
// current values in results/baselines/<name>.json; `gibench check` reruns the sweeps and compares:
//   * every tracked metric in log space: |log(now/base)| within log(factor), where values at or
//     below the metric's floor (round-off) count as equal to the floor;
//   * every cell's status;
//   * every order fit against the recorded one (within order_tolerance) and against the method's
//     declared order (within declared_order_tolerance, unless results/expected_deviations.json
//     explains the difference with check "baseline_order"; the battery's own order check is "order").
// Worse beyond the band is a regression (non-zero exit); better beyond the band is reported as an
// improvement to be recorded deliberately with --update.
#pragma once

#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "core/method.hpp"
#include "harness/expected_deviations.hpp"
#include "harness/sweep.hpp"

namespace gib {

struct ToleranceBand {
  double factor = 1.5;  // allowed ratio now/base (and base/now)
  double floor = 1e-12; // values at or below are round-off and compare equal
};

struct BaselineDefinition {
  std::string name, description;
  std::string protects;  // what the bands protect, and why they are as wide as they are (README, Accuracy baselines)
  std::filesystem::path path;
  Json sweeps;  // array of sweep configs
  std::vector<std::string> metrics;
  ToleranceBand default_band;
  std::map<std::string, ToleranceBand> bands;  // per metric
  double order_tolerance = 0.05;
  double declared_order_tolerance = 0.3;
  const ToleranceBand& band(const std::string& metric) const;
};

// All definitions under <root>/harness/baselines, sorted by name; InputError on a malformed one.
std::vector<BaselineDefinition> load_baseline_definitions();
const BaselineDefinition& find_baseline(const std::vector<BaselineDefinition>& all, const std::string& name);

// Run the definition's sweeps (no timing) and return the baseline document (what --update writes).
Json record_baseline(const BaselineDefinition& def, const SweepOptions& opt, const std::vector<std::string>& command_line);

// <root>/results/baselines/<name>.json
std::filesystem::path baseline_file(const BaselineDefinition& def);

struct CheckFinding {
  // "regression", "improvement", "mismatch" (cell missing/added), "expected_deviation", "stale" (an expected
  // deviation whose fit now agrees: fails), "inconclusive" (a declared-order fit too short or too wide to decide)
  std::string kind;
  std::string cell;  // human-readable cell key
  std::string metric;
  Json base, now;
  double ratio = 0;  // now/base for metrics; 0 otherwise
  std::string note;
};

struct CheckReport {
  std::string name;
  int cells = 0, values = 0, fits = 0;
  std::vector<CheckFinding> findings;
  bool failed() const;  // any regression, mismatch or expired expected deviation
};

// Throws InputError naming the file (where) and the field unless doc is a recorded baseline compare_baseline can
// read: the types of every field it reads, each cell and fit key once, every tracked error finite (and >= 0 where
// the metric is a size).
void check_recorded_baseline(const Json& doc, const BaselineDefinition& def, const std::string& where);
// baseline_file(def), read and checked; InputError when it is missing.
Json load_recorded_baseline(const BaselineDefinition& def);

// Compare a freshly recorded document with the committed one (checked first, as above).
CheckReport compare_baseline(const BaselineDefinition& def, const Json& recorded, const Json& now,
                             const MethodCatalog& methods, const std::vector<ExpectedDeviation>& deviations);

// Comparison of one metric value pair under a band: +1 worse beyond the band, -1 better, 0 within.
int compare_in_band(double base, double now, const ToleranceBand& band, double* ratio);

std::string check_report_text(const CheckReport& r);
Json check_report_json(const CheckReport& r);

}  // namespace gib
