// The verdict scale of figure checks (GUIDE 7, results/SCHEMA.md "Verdicts"), defined once here and used by
// every check kind:
//
//   reproduced        the paper's number or claimed magnitude, within the tolerance the spec states
//   direction only    the ordering or sign the paper claims holds, the magnitude does not (the row shows by how much)
//   refuted           our data contradict the statement
//   not reproducible  the source lacks what is needed (the spec says what); ours is shown, not judged
//   inconclusive      the measurement cannot decide (an order fit with too few points or too wide an interval)
//   gibench check     a statement gibench posed itself (a prototype's number, a property of a method), with
//                     "holds": true / false / null (inconclusive); counted apart from the paper's statements
//   measured          a number other rows build on, shown without a verdict
//   no data           the check could not be evaluated (no row matched): a spec or harness error
//
// A check is measured by its kind (the table of harness/check_kinds.hpp) and judged here, by
// one function of its spec and the measured value, so that tests/test_figure_checks_mutation.cpp can feed every
// check of every committed spec a value just inside and just outside each of its bounds and see the verdict flip.
#pragma once

#include <limits>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace gib {

using Json = nlohmann::json;

// Every field of `where` must match the item's; numbers compare to 1e-12 relative, objects match as
// subsets (where {"method_params": {"ordering": "123"}} ignores the other parameters), a list matches any of its
// values (where {"method": ["akw", "swc1"]}). Null matches all.
bool where_matches(const Json& item, const Json& where);

// A closed interval; an infinite end is an open side.
struct Interval {
  double lo = -std::numeric_limits<double>::infinity();
  double hi = std::numeric_limits<double>::infinity();
  bool contains(double x) const { return x >= lo && x <= hi; }
  bool bounded_below() const { return lo > -std::numeric_limits<double>::infinity(); }
  bool bounded_above() const { return hi < std::numeric_limits<double>::infinity(); }
  std::string text() const;  // "[a, b]", "at least a", "at most b"
};

// What a check accepts, read once from its spec. Numeric checks accept an interval (the statement's
// magnitude) and optionally a wider one (its direction); categorical checks accept a set of values.
struct Criterion {
  bool categorical = false;
  Interval magnitude;
  std::optional<Interval> direction;
  std::vector<std::string> accepted;  // categorical: accepted values ("imid", "bounded", "failed", ...)
  std::vector<std::string> values;    // categorical: every value the measurement can take (for the mutation test)
  Interval attainable;                // numeric: the range the measured quantity can take at all
  bool integer = false;               // numeric: the measured quantity is a whole number (steps, counts)
  double reference = std::numeric_limits<double>::quiet_NaN();  // the paper's number (or the yardstick) it is held to
};

enum class Outcome { holds, direction_only, fails, inconclusive };

// The criterion of a check, validated: throws InputError naming the check when its bounds are missing, lie
// outside what the measured quantity can attain (a bound it can never violate, or never meet), are wider than
// +/-25 % of the paper's number (or yardstick) without a "tolerance_reason", or when an "about X times" claim
// gets more than a factor 1.5 without one. `attainable` is the range of the measured quantity (attainable_range).
// How the criterion is read (bounds, an order, a step count, categorical values) is the kind's (check_kinds.hpp); a
// check without a kind, made by hand, is read as bounds.
// Report rows ("report": true) and rows of a kind that only measures (wall_time) have no criterion: is_judged() says so.
bool is_judged(const Json& check);
Criterion check_criterion(const Json& check, const Json& all_checks = Json::array());

// The range a check's measured quantity can take: from its kind, metric, statistic or series (a rotation
// distance |R - R'|_2 lies in [0, 2], a geodesic angle in [0, pi], a share in [0, 1], a ratio of magnitudes in
// [0, inf), a count of particles or pairs in [0, N] or [0, N(N-1)/2] with N from the check's "particles", ...).
// `all_checks` resolves the operands of a "ratio" check. Each kind declares its range in check_kinds.cpp.
Interval attainable_range(const Json& check, const Json& all_checks = Json::array());

Outcome judge(const Criterion& c, double measured);
Outcome judge(const Criterion& c, const std::string& measured);

// "check '<statement>' (id <id>)", the statement cut to 90 bytes: how errors about a check name it.
std::string check_name(const Json& check);

// "paper" (default) or "gibench" (spec field "posed_by"). A statement that starts "(gibench)" must say so.
bool posed_by_gibench(const Json& check);

// The verdict row (results/SCHEMA.md, checks[k]): statement, source, kind, class ("paper" / "gibench"),
// paper_value, ours, ratio (ours / paper where both are numbers), verdict (and holds for gibench checks),
// reason (the spec's reason, then the note on how ours was measured).
Json verdict_row(const Json& check, const Json& ours, Outcome outcome, const std::string& note);
// A row whose check could not be evaluated (verdict "no data"), or a measured number without a verdict.
Json no_data_row(const Json& check, const std::string& why);
Json measured_row(const Json& check, const Json& ours, const std::string& note);

// A numeric measurement judged by the check's criterion (NaN: "no data" with the note); report rows and wall
// times come back "measured". The note gets the bounds the value was held to.
Json judge_row(const Json& check, double ours, const std::string& note, const Json& all_checks = Json::array());

// Counts per verdict class and the one-line summary the markdown and `gibench reproduce` print:
// "9 reproduced, 3 direction only, 1 refuted; 2 gibench checks (2 hold)". Paper statements first.
struct VerdictCounts {
  int reproduced = 0, direction_only = 0, refuted = 0, not_reproducible = 0, inconclusive = 0;
  int gibench = 0, gibench_hold = 0, gibench_fail = 0, gibench_inconclusive = 0;
  int measured = 0, no_data = 0;
  int paper() const { return reproduced + direction_only + refuted + not_reproducible + inconclusive; }
  void add(const Json& verdict_row);
  void add(const VerdictCounts& o);
  std::string summary() const;
};

}  // namespace gib
