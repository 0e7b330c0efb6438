// The kinds of figure check, declared once each in the table of harness/check_kinds.cpp: the name a spec's "kind"
// gives, how a check of that kind is measured, and what the spec loader needs to validate it before any work
// runs (how its criterion is read, the range and granularity of what it measures, the earlier checks it combines).
// The spec loader, evaluation (reproduce.cpp) and judging (figure_verdict.cpp) read these entries rather than
// compare kind names, so a new kind is one entry; a spec naming a kind that has none is refused when it loads.
//
// The kinds measured directly on a figure's rows and fits live in check_kinds.cpp beside the table; the others in
// comparison_checks.hpp, particle_checks.hpp and steps_check.hpp.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "harness/figure_verdict.hpp"

namespace gib {

struct SweepOptions;

// What a check is measured on: the figure's rows, order fits and recorded series, the spec's checks, the verdict
// rows of the checks before it that have an id, and the sweep options of a kind that runs its own integrations.
struct CheckInputs {
  const Json& rows;
  const Json& fits;
  const Json& series;
  const Json& checks;
  const std::map<std::string, Json>& by_id;
  const SweepOptions& sweep;
};

// How a check's criterion is read from its spec (check_criterion, figure_verdict.cpp).
enum class CriterionForm {
  bounds,       // at_most / at_least / range, or a numeric paper_value with a tolerance; optionally a direction
  best,         // "within" (default 1): the factor between the best expected method and the best of all
  steps,        // a step count within abs_steps / rel (default exact), or "failed": the paper's cap was reached
  order,        // "expected" (or paper_value) +/- "tolerance" (default 0.3)
  categorical,  // "expect" (or "status"): one or more of `values`
};

struct CheckKind {
  const char* name = "";
  Json (*evaluate)(const Json& check, const CheckInputs& in) = nullptr;
  CriterionForm criterion = CriterionForm::bounds;
  // The range the measured quantity can take, so that a bound it can never violate (or never meet) is refused;
  // null: any real number.
  Interval (*attainable)(const Json& check, const Json& all_checks) = nullptr;
  // Whether the measured quantity is a whole number (a step count, a count of particles); null: never.
  bool (*integer)(const Json& check) = nullptr;
  std::vector<std::string> values = {};    // categorical: every value the measurement can take
  const char* value_noun = "value";        // categorical: what a value is, in an error ("status", "behaviour")
  const char* any_failure = nullptr;       // categorical: an accepted word for every value but "ok" ("not ok")
  std::vector<const char*> operands = {};  // fields naming earlier checks (by id) whose numbers this one combines
  bool judged = true;                      // false: a measured number other rows build on, shown without a verdict
  bool timing = false;                     // depends on the machine: reproduce --check asks only that it has data
  bool own_search = false;                 // runs its own integrations, not the figure's rows: evaluated first, in parallel
  bool printed_digits = false;             // ours against one printed number, shown with its printed digits (6 by default)
};

// Every kind, in the order the table declares them.
const std::vector<CheckKind>& check_kinds();
// The kind named by a check's "kind"; throws InputError naming the check and listing the valid kinds.
const CheckKind& check_kind(const Json& check);
// By name; null when no kind has it.
const CheckKind* find_check_kind(const std::string& name);

// The order check on hand-made fits (the mutation test feeds it fits just inside and outside its bounds).
Json check_order(const Json& check, const Json& fits);
// The energy behaviour of one row for an energy_behaviour check: "bounded", "drift", "blow-up", "solver failure"
// or "no data", with the numbers in *detail.
std::string energy_behaviour(const Json& row, const Json& check, std::string* detail);
// A refuting row for a check whose matching run did not end ok.
Json failed_run_row(const Json& check, const Json& row, const std::string& what);

}  // namespace gib
