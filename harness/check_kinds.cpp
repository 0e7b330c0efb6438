// The table of figure check kinds (check_kinds.hpp), and the kinds measured directly on a figure's rows and fits.
#include "harness/check_kinds.hpp"

#include <algorithm>
#include <cmath>
#include <iomanip>
#include <limits>
#include <numbers>
#include <sstream>

#include "core/errors.hpp"
#include "core/metrics.hpp"
#include "core/user_input.hpp"
#include "harness/comparison_checks.hpp"
#include "harness/distribution_checks.hpp"
#include "harness/json_util.hpp"
#include "harness/order_fit.hpp"
#include "harness/particle_checks.hpp"
#include "harness/steps_check.hpp"

namespace gib {

namespace {

std::string fmt(double x) {
  std::ostringstream s;
  s << std::setprecision(4) << x;
  return s.str();
}

std::string stop_text(const Json& r) {
  std::string s = "'" + r.value("status", std::string()) + "'";
  const Json& step = r.value("status_step", Json(nullptr));
  if (step.is_number() && r.value("h", Json(nullptr)).is_number())
    s += " at t = " + fmt(step.get<double>() * r["h"].get<double>());
  return s;
}

}  // namespace

Json failed_run_row(const Json& check, const Json& row, const std::string& what) {
  return verdict_row(check, nullptr, Outcome::fails,
                     "The " + what + " run (" + row.value("method", std::string()) + ", h = " + fmt(row.value("h", 0.0)) +
                         ") ended " + stop_text(row) + ": the statement cannot hold on it.");
}

namespace {

// |metric| of every matching row; a matching row that did not end ok is reported in *failed.
std::vector<double> metric_values(const Json& rows, const Json& check, const Json** failed) {
  std::vector<double> vals;
  const std::string metric = check.value("metric", "");
  *failed = nullptr;
  for (const auto& r : rows) {
    if (!where_matches(r, check.value("where", Json()))) continue;
    if (r.value("status", "") != "ok") {
      if (*failed == nullptr) *failed = &r;
      continue;
    }
    const Json& m = r.value("metrics", Json::object());
    if (m.contains(metric) && m[metric].is_number()) vals.push_back(std::abs(m[metric].get<double>()));
  }
  return vals;
}

}  // namespace

// Every matching fit must be conclusive (GUIDE 7: at least 5 points, a 95 % half-width of at most 0.15) and lie
// within the tolerance; a fit that fails the tolerance refutes the statement, an undecided one leaves it
// inconclusive.
Json check_order(const Json& c, const Json& fits) {
  const Criterion crit = check_criterion(c);
  std::vector<double> orders;
  std::string undecided;
  bool fails = false;
  for (const auto& f : fits) {
    if (!where_matches(f, c.value("where", Json())) || f.value("metric", "") != c.value("metric", "")) continue;
    std::string why;
    const bool conclusive = fit_json_conclusive(f, &why);
    if (f.value("ok", false)) orders.push_back(f["order_hat"].get<double>());
    if (!conclusive) {
      undecided += (undecided.empty() ? "" : "; ") + f.value("method", std::string()) + " " + f.value("preset", std::string()) + ": " + why;
      // A fit that misses the tolerance by more than its own interval refutes even when undecided.
      if (f.value("ok", false) && f["ci95"].is_array() &&
          (f["ci95"][1].get<double>() < crit.magnitude.lo || f["ci95"][0].get<double>() > crit.magnitude.hi))
        fails = true;
      continue;
    }
    fails = fails || judge(crit, f["order_hat"].get<double>()) != Outcome::holds;
  }
  if (orders.empty() && undecided.empty()) return no_data_row(c, "no order fit matches");
  const auto [lo, hi] = std::minmax_element(orders.begin(), orders.end());
  const Json ours = orders.empty() ? Json(nullptr) : orders.size() == 1 ? json_number(orders[0]) : Json(fmt(*lo) + " .. " + fmt(*hi));
  std::string note = "Fitted slope" + std::string(orders.size() > 1 ? "s" : "") + " must lie within " + crit.magnitude.text() +
                     ", each from a conclusive fit (at least " + std::to_string(kConclusiveFitPoints) +
                     " points, 95 % half-width at most " + fmt(kConclusiveHalfWidth) + ").";
  if (!undecided.empty()) note += " Undecided: " + undecided + ".";
  const Outcome o = fails ? Outcome::fails : !undecided.empty() ? Outcome::inconclusive : Outcome::holds;
  return verdict_row(c, ours, o, note);
}

namespace {

Json check_extreme(const Json& c, const Json& rows, bool is_max) {
  const Json* failed = nullptr;
  const auto vals = metric_values(rows, c, &failed);
  if (failed != nullptr) return failed_run_row(c, *failed, "matching");
  if (vals.empty()) return no_data_row(c, "no row with a number for " + c.value("metric", "") + " matches");
  const double v = is_max ? *std::max_element(vals.begin(), vals.end()) : *std::min_element(vals.begin(), vals.end());
  return judge_row(c, v, std::string(is_max ? "Max" : "Min") + " of |" + c.value("metric", "") + "| over " +
                             std::to_string(vals.size()) + " run(s).");
}

Json check_value(const Json& c, const Json& rows) {
  const Json* failed = nullptr;
  const auto vals = metric_values(rows, c, &failed);
  if (failed != nullptr) return failed_run_row(c, *failed, "matching");
  if (vals.size() != 1) return no_data_row(c, std::to_string(vals.size()) + " rows match; a value check needs one");
  Json v = judge_row(c, vals[0], c.contains("sig_digits") ? "Matches when it rounds to the printed digits." : "");
  if (c.contains("sig_digits")) v["sig_digits"] = c["sig_digits"];  // the table prints ours with two more digits
  return v;
}

// A status claim about every matching row ("all ten runs complete"); stability claims use energy_behaviour.
Json check_status(const Json& c, const Json& rows) {
  const Criterion crit = check_criterion(c);
  int n = 0, bad = 0;
  std::string stops;
  for (const auto& r : rows) {
    if (!where_matches(r, c.value("where", Json()))) continue;
    ++n;
    bad += judge(crit, r.value("status", std::string())) != Outcome::holds;
    if (r.value("status", "") != "ok") stops += (stops.empty() ? "" : ", ") + r.value("ic", std::string("?")) + " " + stop_text(r);
  }
  if (n == 0) return no_data_row(c, "no row matches");
  return verdict_row(c, std::to_string(n - bad) + "/" + std::to_string(n) + " as expected", bad == 0 ? Outcome::holds : Outcome::fails,
                     stops.empty() ? "" : "Runs that stopped: " + stops + ".");
}

}  // namespace

std::string energy_behaviour(const Json& row, const Json& c, std::string* detail) {
  const std::string metric = c.value("metric", std::string(metrics::energy_rel_err.name));
  const double blowup = c.value("blowup_above", 1.0);
  const std::string status = row.value("status", std::string());
  const Json& m = row.value("metrics", Json::object());
  const Json& mx = m.value(metric + "_max", Json(nullptr));
  const Json& cls_json = m.value(metric + "_class", Json(nullptr));  // null for a run that did not finish
  const std::string cls = cls_json.is_string() ? cls_json.get<std::string>() : "";
  const Json& slope = m.value(metric + "_drift_slope", Json(nullptr));
  std::ostringstream d;
  d << row.value("ic", std::string("preset")) << ": ";
  std::string out;
  const bool big = mx.is_number() && std::abs(mx.get<double>()) > blowup;
  if (status == "diverged" || status == "nonfinite") {
    out = "blow-up";
    d << "blow-up (status " << stop_text(row) << ")";
  } else if (big) {  // whatever the status: an implicit solve that fails after the energy exploded is a blow-up too
    out = "blow-up";
    d << "blow-up (max |" << metric << "| " << fmt(mx.get<double>()) << " > " << fmt(blowup) << ", status " << stop_text(row) << ")";
  } else if (status == "solver_failed") {
    out = "solver failure";
    d << "solver failure " << stop_text(row) << " (max |" << metric << "| before it " << (mx.is_number() ? fmt(mx.get<double>()) : "n/a") << ")";
  } else if (status != "ok") {
    out = "no data";
    d << "status " << stop_text(row);
  } else if (!mx.is_number()) {
    out = "no data";
    d << "no " << metric << "_max";
  } else {
    out = cls == "drift" ? "drift" : "bounded";
    d << out << " (max |" << metric << "| " << fmt(mx.get<double>());
    if (slope.is_number()) d << ", drift slope " << fmt(slope.get<double>());
    d << ")";
  }
  *detail = d.str();
  return out;
}

namespace {

// Stability and boundedness claims (GUIDE 7): every matching run's energy behaviour over the whole run,
// blow-up (diverged, non-finite, or |error| above blowup_above), drift (the runner's drift class), bounded, or
// solver failure, must be one of `expect`.
Json check_energy_behaviour(const Json& c, const Json& rows) {
  const Criterion crit = check_criterion(c);
  int n = 0, bad = 0;
  std::string details, first_class;
  bool mixed = false;
  for (const auto& r : rows) {
    if (!where_matches(r, c.value("where", Json()))) continue;
    std::string d;
    const std::string cls = energy_behaviour(r, c, &d);
    if (cls == "no data") return no_data_row(c, "run " + d);
    ++n;
    bad += judge(crit, cls) != Outcome::holds;
    if (first_class.empty()) first_class = cls;
    mixed = mixed || cls != first_class;
    details += (details.empty() ? "" : "; ") + d;
  }
  if (n == 0) return no_data_row(c, "no row matches");
  const Json ours = mixed ? Json(std::to_string(n - bad) + "/" + std::to_string(n) + " as expected") : Json(first_class);
  return verdict_row(c, ours, bad == 0 ? Outcome::holds : Outcome::fails, "Energy behaviour over the whole run: " + details + ".");
}

// ratio: ours = ours(numerator) / ours(denominator) of two earlier checks (by "id"), against a paper claim
// such as "almost nine-fold".
Json check_ratio(const Json& c, const std::map<std::string, Json>& by_id, const Json& all) {
  const auto num = by_id.find(c.value("numerator", "")), den = by_id.find(c.value("denominator", ""));
  if (num == by_id.end() || den == by_id.end()) throw InputError("ratio check needs earlier checks 'numerator' and 'denominator' by id");
  for (const auto* side : {&num->second, &den->second}) {
    if (side->value("verdict", "") == "no data") return no_data_row(c, "an operand has no data");
    if (!(*side)["ours"].is_number())
      return verdict_row(c, nullptr, Outcome::fails, "An operand is " + (*side)["ours"].dump() + ", not a number.");
  }
  const double a = num->second["ours"].get<double>(), b = den->second["ours"].get<double>();
  if (b == 0) return no_data_row(c, "the denominator is 0");
  return judge_row(c, a / b, "Ratio " + fmt(a) + " / " + fmt(b) + ".", all);
}

// time_ratio: median time per step of the row matching `where` over that of `reference` (Buss's
// Figure 3 normalises by 3rd order + EP); needs timing in the sweep.
Json check_time_ratio(const Json& c, const Json& rows) {
  auto ns_of = [&](const Json& where) -> double {
    for (const auto& r : rows)
      if (where_matches(r, where) && r.value("timing", Json(nullptr)).is_object()) return r["timing"].value("ns_per_step", NAN);
    return NAN;
  };
  const double a = ns_of(c.value("where", Json())), b = ns_of(c.value("reference", Json()));
  if (!std::isfinite(a) || !std::isfinite(b) || b <= 0) return no_data_row(c, "no timed row matches where/reference");
  return judge_row(c, a / b, "Measured ns/step ratio on this machine (" + fmt(a) + " / " + fmt(b) + " ns).");
}

// wall_time: median seconds of one whole run of the row matching `where` (timing pass), against a
// printed duration in seconds (paper_seconds, e.g. "more than a week" = 604800): a measurement other rows
// build on (a speed-up on other hardware and code is not a reproduction).
Json check_wall_time(const Json& c, const Json& rows) {
  for (const auto& r : rows) {
    if (!where_matches(r, c.value("where", Json())) || !r.value("timing", Json(nullptr)).is_object()) continue;
    const double s = r["timing"].value("median_s", NAN);
    const double paper = c.value("paper_seconds", NAN);
    std::string note = "Median wall time of the whole run on this machine: " + fmt(s) + " s";
    if (std::isfinite(paper) && s > 0) note += ", " + fmt(paper / s) + "x less than the source's " + fmt(paper) + " s";
    return measured_row(c, json_number(s), note + ".");
  }
  return no_data_row(c, "no timed row matches where (the sweep needs timing)");
}

// model_share: the share of a Newtonian run's time spent inside the model (V, grad V, Hessians: the row's
// timing.model_fraction, from the clocked repetitions of the timing pass), or with `of: "rest"` the share outside it
// (the solves and the method's own work): the paper's "of which X s are solves" (Tao-Owhadi 4.3) as a fraction.
Json check_model_share(const Json& c, const Json& rows) {
  for (const auto& r : rows) {
    if (!where_matches(r, c.value("where", Json())) || !r.value("timing", Json(nullptr)).is_object()) continue;
    const double model = r["timing"].value("model_fraction", NAN);
    const bool rest = c.value("of", "model") == "rest";
    const double share = rest ? 1 - model : model;
    return judge_row(c, share,
                     std::string("Share of the run's median time ") + (rest ? "outside" : "inside") + " the model (V, grad V, "
                     "Hessians) on this machine: " + fmt(share) + " of " + fmt(r["timing"].value("median_s", NAN)) + " s.");
  }
  return no_data_row(c, "no timed Newtonian row matches where (the sweep needs timing)");
}

// The range of a metric from its name: a rotation distance |R - R'|_2 lies in [0, 2], a geodesic angle in [0, pi],
// a share in [0, 1], an error, residual, norm or distance is never negative.
// The values a row key can take, from its declaration (core/metrics.hpp); drift slopes are signed. A key no
// declaration covers is a problem's or a method's observable, whose range nobody declares.
Interval metric_range(const std::string& key) {
  const metrics::KeyOf k = metrics::resolve(key);
  if (k.metric == nullptr || k.suffix == metrics::kDriftSlope || k.suffix == metrics::kDriftSlopeCi95) return {};
  return {k.metric->lo, k.metric->hi};
}

// |metric| of the matching rows.
Interval metric_magnitude(const Json& c, const Json&) {
  const Interval m = metric_range(c.value("metric", ""));
  return {std::max(0.0, m.lo), m.hi};
}

Interval non_negative(const Json&, const Json&) { return {0, std::numeric_limits<double>::infinity()}; }
Interval at_least_one(const Json&, const Json&) { return {1, std::numeric_limits<double>::infinity()}; }
Interval share(const Json&, const Json&) { return {0, 1}; }
bool always(const Json&) { return true; }

// A number combined from earlier checks' numbers: of magnitudes when every operand is non-negative. An operand of
// the same kind is not followed, so that the ranges of a chain of combinations are never chased.
Interval combined_range(const Json& c, const Json& all) {
  bool nonneg = all.is_array();
  for (const char* side : check_kind(c).operands) {
    bool found = false;
    if (all.is_array())
      for (const auto& o : all)
        if (o.value("id", std::string()) == c.value(side, std::string()) && o.value("kind", "") != c.value("kind", "")) {
          found = true;
          nonneg = nonneg && attainable_range(o, all).lo >= 0;
        }
    nonneg = nonneg && found;
  }
  return nonneg ? non_negative(c, all) : Interval{};
}

Interval series_stat_range(const Json& c, const Json& all) {
  const std::string stat = c.value("stat", "");
  if (stat == "low_freq_share" || stat == "block_width_variation") return share(c, all);
  if (stat == "max_abs" || stat == "spread" || stat == "std" || stat == "block_mean_span" || stat == "crossings")
    return non_negative(c, all);
  return metric_range(c.value("series", std::string(metrics::energy_rel_err.name)));
}

bool spike_count(const Json& c) { return c.value("stat", std::string("count")) == "count"; }

// Counts of particles or pairs: bounded by N, which the check states so that a bound at or beyond it is caught
// when the spec loads.
Interval particle_count_range(const Json& c, const Json&) {
  const Json& n = c.value("particles", Json(nullptr));
  if (!n.is_number_integer() || n.get<long long>() < 2)
    throw InputError(check_name(c) + ": a particle_fates check needs \"particles\": N (an integer >= 2, the run's particle count)");
  const double N = n.get<double>();
  return c.value("stat", std::string()) == "bonded_throughout" ? Interval{0, N * (N - 1) / 2} : Interval{0, N};
}

}  // namespace

// One entry per kind; the comment of each names the fields its checks take besides statement, source, paper_value
// and reason (how each is judged, the verdict scale and the fields every kind shares: figure_verdict.hpp and
// results/SCHEMA.md).
const std::vector<CheckKind>& check_kinds() {
  static const std::vector<CheckKind> kinds = {
      // {where, metric, expected, tolerance}: the fitted order(s) of the matching fits, each conclusive
      {.name = "order",
       .evaluate = [](const Json& c, const CheckInputs& in) { return check_order(c, in.fits); },
       .criterion = CriterionForm::order},
      // {where, metric, at_most}: max |metric| over the matching rows (a row that did not end ok refutes)
      {.name = "max",
       .evaluate = [](const Json& c, const CheckInputs& in) { return check_extreme(c, in.rows, true); },
       .attainable = metric_magnitude},
      // {where, metric, at_least}: min |metric| over the matching rows
      {.name = "min",
       .evaluate = [](const Json& c, const CheckInputs& in) { return check_extreme(c, in.rows, false); },
       .attainable = metric_magnitude},
      // {where, metric, paper_value, sig_digits | abs_tol | rel_tol | factor}: the single matching row's metric
      {.name = "value",
       .evaluate = [](const Json& c, const CheckInputs& in) { return check_value(c, in.rows); },
       .attainable = metric_magnitude,
       .printed_digits = true},
      // {where, status}: every matching row has this status ("not ok": any failure) -- completion claims only
      {.name = "status",
       .evaluate = [](const Json& c, const CheckInputs& in) { return check_status(c, in.rows); },
       .criterion = CriterionForm::categorical,
       .values = {"ok", "diverged", "nonfinite", "solver_failed", "time_budget", "error"},
       .value_noun = "status",
       .any_failure = "not ok"},
      // {where, expect, metric, blowup_above}: every matching run's energy behaviour over the whole run (bounded,
      // drift, blow-up, solver failure) -- what stability and boundedness claims rest on
      {.name = "energy_behaviour",
       .evaluate = [](const Json& c, const CheckInputs& in) { return check_energy_behaviour(c, in.rows); },
       .criterion = CriterionForm::categorical,
       .values = {"bounded", "drift", "blow-up", "solver failure"},
       .value_noun = "behaviour"},
      // {problem, preset, method, params, T, eps, cap, metric}: steps-to-accuracy search (Buss Figs 6, 7), steps_check.hpp;
      // paper_value N or "failed" (N > cap); tolerance abs_steps / rel (default exact)
      {.name = "steps",
       .evaluate = [](const Json& c, const CheckInputs& in) { return check_steps(c, in.sweep); },
       .criterion = CriterionForm::steps,
       .attainable = at_least_one,
       .integer = always,
       .own_search = true},
      // {numerator, denominator}: ours of two earlier checks (by id)
      {.name = "ratio",
       .evaluate = [](const Json& c, const CheckInputs& in) { return check_ratio(c, in.by_id, in.checks); },
       .attainable = combined_range,
       .operands = {"numerator", "denominator"}},
      // {where, reference}: measured ns/step of one row over another's
      {.name = "time_ratio",
       .evaluate = [](const Json& c, const CheckInputs& in) { return check_time_ratio(c, in.rows); },
       .attainable = non_negative,
       .timing = true},
      // {where, paper_seconds}: the row's median wall time of a whole run (verdict "measured")
      {.name = "wall_time",
       .evaluate = [](const Json& c, const CheckInputs& in) { return check_wall_time(c, in.rows); },
       .judged = false,
       .timing = true},
      // {where, of: "model" | "rest"}: the share of a Newtonian run's time inside (outside) the model
      {.name = "model_share",
       .evaluate = [](const Json& c, const CheckInputs& in) { return check_model_share(c, in.rows); },
       .attainable = share,
       .timing = true},
      // comparison_checks.hpp
      {.name = "metric_ratio",
       .evaluate = [](const Json& c, const CheckInputs& in) { return check_metric_ratio(c, in.rows); },
       .attainable = non_negative},
      {.name = "best",
       .evaluate = [](const Json& c, const CheckInputs& in) { return check_best(c, in.rows); },
       .criterion = CriterionForm::best,
       .attainable = at_least_one},
      {.name = "series_stat",
       .evaluate = [](const Json& c, const CheckInputs& in) { return check_series_stat(c, in.rows, in.series); },
       .attainable = series_stat_range,
       .integer = [](const Json& c) { return c.value("stat", "") == "crossings"; }},
      {.name = "spikes",
       .evaluate = [](const Json& c, const CheckInputs& in) { return check_spikes(c, in.rows, in.series); },
       .attainable = [](const Json& c, const Json& all) { return spike_count(c) ? non_negative(c, all) : share(c, all); },
       .integer = spike_count},
      {.name = "series_compare",
       .evaluate = [](const Json& c, const CheckInputs& in) { return check_series_compare(c, in.rows, in.series); },
       .attainable = non_negative},
      {.name = "rate_ratio",
       .evaluate = [](const Json& c, const CheckInputs& in) { return check_rate_ratio(c, in.rows, in.series); },
       .attainable = non_negative},
      // distribution_checks.hpp: {distribution, where, reference, at_least: alpha}; ours = the permutation p-value
      {.name = "distribution_agreement",
       .evaluate = [](const Json& c, const CheckInputs& in) { return check_distribution_agreement(c, in.rows); },
       .attainable = share},
      // particle_checks.hpp
      {.name = "orientation_rule",  // shares of orientation differences or configurations
       .evaluate = [](const Json& c, const CheckInputs& in) { return check_orientation_rule(c, in.rows); },
       .attainable = share},
      {.name = "particle_fates",
       .evaluate = [](const Json& c, const CheckInputs& in) { return check_particle_fates(c, in.rows, in.series); },
       .attainable = particle_count_range,
       .integer = always},
  };
  return kinds;
}

const CheckKind* find_check_kind(const std::string& name) {
  for (const auto& k : check_kinds())
    if (name == k.name) return &k;
  return nullptr;
}

const CheckKind& check_kind(const Json& c) {
  const auto it = c.find("kind");
  const std::string name = it != c.end() && it->is_string() ? it->get<std::string>() : "";
  if (const CheckKind* k = find_check_kind(name)) return *k;
  std::vector<std::string> valid;
  for (const auto& k : check_kinds()) valid.push_back(k.name);
  const std::string given = it == c.end() ? "" : it->is_string() ? name : it->dump();
  throw InputError(check_name(c) + ": " + unknown_id_message("kind", given, valid));
}

}  // namespace gib
