#include "harness/rank.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <iomanip>
#include <sstream>

#include "core/errors.hpp"
#include "core/method_tags.hpp"
#include "core/problem.hpp"
#include "core/user_input.hpp"
#include "harness/json_util.hpp"
#include "harness/model_kinds.hpp"
#include "harness/manifest.hpp"
#include "harness/reference_reach.hpp"
#include "harness/runner.hpp"
#include "harness/steps_to_accuracy.hpp"
#include "harness/sweep.hpp"
#include "harness/threads.hpp"
#include "harness/timing.hpp"

namespace gib {
namespace {

constexpr double kEps = 2.220446049250313e-16;

struct ScanPoint {
  std::int64_t n;
  double err;
  std::size_t row;  // index into the document's rows
};

struct MethodScan {
  const MethodInfo* method;
  std::vector<Cell> cells;
  std::vector<Json> rows;
  std::vector<double> errs;
  std::string not_applicable;  // why the method cannot run this preset at all
};

Cell scan_cell(const RankOptions& opt, const std::string& method, double T, std::int64_t n) {
  Cell c;
  c.problem = opt.problem;
  c.preset = opt.preset;
  c.overrides = opt.overrides;
  c.ic = opt.ic;
  c.method = method;
  c.h = T / static_cast<double>(n);
  c.steps = n;
  c.observe.ref_samples = 20;
  c.timing.reps = opt.reps;
  c.timing.min_sample_seconds = opt.min_sample_seconds;
  return c;
}

double metric_of(const Json& row, const std::string& metric) {
  if (row.value("status", "") != "ok") return NAN;
  const Json& v = row.value("metrics", Json::object()).value(metric, Json(nullptr));
  return v.is_number() ? std::abs(v.get<double>()) : NAN;
}

// Step counts grow by sqrt(2) from 4; the scan stops after two points on the round-off floor.
void scan_method(const RankOptions& opt, const MethodCatalog& methods, double T, MethodScan& s) {
  int on_floor = 0;
  std::int64_t last = 0;
  for (int k = 0; on_floor < 2; ++k) {
    const auto n = static_cast<std::int64_t>(std::llround(4 * std::pow(2.0, k / 2.0)));
    if (n > opt.n_max) break;
    if (n == last) continue;
    last = n;
    s.cells.push_back(scan_cell(opt, s.method->id, T, n));
    Json row;
    try {
      Cell accuracy = s.cells.back();
      accuracy.timing.reps = 0;
      row = run_cell(accuracy, methods).row;
    } catch (const InputError& e) {
      // The method cannot be built for this preset (so3_variational_zs on a non-isotropic body, the relaxed
      // rotation on a flat one): no step count will change that, so the scan stops with the reason.
      s.not_applicable = e.what();
      s.cells.pop_back();
      return;
    } catch (const std::exception& e) {
      row = {{"method", s.method->id}, {"h", T / static_cast<double>(n)}, {"steps", n}, {"status", "error"},
             {"status_detail", e.what()}, {"metrics", Json::object()}};
    }
    const double e = metric_of(row, opt.metric);
    s.rows.push_back(row);
    s.errs.push_back(e);
    on_floor += std::isfinite(e) && e <= std::max(1e-13, 10 * kEps * static_cast<double>(n));
  }
}

double log_interp(double a, double b, double f) {
  if (!(a > 0) || !(b > 0)) return b;
  return std::exp(std::log(a) + f * (std::log(b) - std::log(a)));
}

// The entry of one method for one target: the steps-to-accuracy point and costs interpolated on the
// log-log work-precision curve between it and the failing point before it.
Json target_entry(const MethodScan& s, double target, const std::vector<Json>& rows_with_timing) {
  StepsScan scan;
  for (std::size_t i = 0; i < s.rows.size(); ++i) scan.emplace_back(s.cells[i].steps, s.errs[i]);
  const StepsScanResult r = steps_from_scan(scan, target);
  Json e = {{"method", s.method->id}, {"display_name", s.method->display_name}, {"reached", r.reached}};
  if (!s.not_applicable.empty()) e["not_applicable"] = s.not_applicable;
  if (!r.reached) {
    e["best_error"] = json_number(r.best_err);
    e["best_steps"] = r.best_n;
    return e;
  }
  auto index_of = [&](std::int64_t n) {
    for (std::size_t i = 0; i < s.cells.size(); ++i)
      if (s.cells[i].steps == n) return static_cast<long>(i);
    return -1L;
  };
  const long hi = index_of(r.n), lo = r.last_fail > 0 ? index_of(r.last_fail) : -1L;
  const Json& rh = rows_with_timing[static_cast<std::size_t>(hi)];
  const bool bracketed = lo >= 0 && std::isfinite(r.last_fail_err) && r.last_fail_err > r.err;
  const double f = bracketed ? (std::log(r.last_fail_err) - std::log(target)) / (std::log(r.last_fail_err) - std::log(r.err)) : 1.0;
  const Json& rl = bracketed ? rows_with_timing[static_cast<std::size_t>(lo)] : rh;
  auto interp = [&](const Json& a, const Json& b) {
    return a.is_number() && b.is_number() ? json_number(log_interp(a.get<double>(), b.get<double>(), f)) : Json(nullptr);
  };
  auto interp_cost = [&](const char* field) {
    return interp(json_number(cost_value(rl["cost"], field)), json_number(cost_value(rh["cost"], field)));
  };
  const Json& tl = rl.value("timing", Json(nullptr));
  const Json& th = rh.value("timing", Json(nullptr));
  const Json none;
  e["steps"] = interp(Json(static_cast<double>(s.cells[static_cast<std::size_t>(lo >= 0 ? lo : hi)].steps)), Json(static_cast<double>(r.n)));
  for (const char* k : {"function_evals", "work", "rhs_evals", "exp_evals"}) e[k] = interp_cost(k);
  for (const char* k : {"median_s", "min_s", "max_s"})
    e[std::string("time_") + k] = interp(tl.is_object() ? tl.value(k, none) : none, th.is_object() ? th.value(k, none) : none);
  const Json& m = rh["metrics"];
  const std::string energy_max = metrics::key(metrics::energy_rel_err, metrics::kMax);
  e[energy_max] = m.value(energy_max, Json(nullptr));
  e["energy_class"] = m.value(metrics::key(metrics::energy_rel_err, metrics::kClass), Json(nullptr));
  e["energy_drift_slope"] = m.value(metrics::key(metrics::energy_rel_err, metrics::kDriftSlope), Json(nullptr));
  e["bracket"] = {{"n_fail", r.last_fail}, {"err_fail", json_number(r.last_fail_err)}, {"n_pass", r.n}, {"err_pass", json_number(r.err)}};
  e["interpolated"] = bracketed;
  if (!bracketed) e["note"] = lo < 0 ? "met at the first scanned step count: costs are upper bounds" : "no finite error before it";
  return e;
}

Json leaderboard_for(const std::vector<MethodScan>& scans, const std::vector<std::vector<Json>>& timed_rows, double target) {
  std::vector<Json> entries;
  for (std::size_t i = 0; i < scans.size(); ++i) entries.push_back(target_entry(scans[i], target, timed_rows[i]));
  auto key = [](const Json& e) {
    if (!e.value("reached", false)) return static_cast<double>(INFINITY);
    const Json& t = e.value("time_median_s", Json(nullptr));
    return t.is_number() ? t.get<double>() : 1e300 * 1.0;
  };
  std::stable_sort(entries.begin(), entries.end(), [&](const Json& a, const Json& b) { return key(a) < key(b); });
  double best = INFINITY;
  int rank = 0;
  for (auto& e : entries) {
    if (!e.value("reached", false)) {
      e["rank"] = nullptr;
      continue;
    }
    e["rank"] = ++rank;
    if (std::isinf(best)) best = key(e);
    e["time_ratio_to_best"] = json_number(key(e) / best);
  }
  return {{"target", target}, {"entries", entries}};
}

// Non-dominated points (lower error and lower work), sorted by error.
Json pareto(const Json& rows, const std::string& metric, const std::function<double(const Json&)>& work) {
  struct P { double err, work; std::size_t i; };
  std::vector<P> pts;
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const double e = metric_of(rows[i], metric), w = work(rows[i]);
    if (std::isfinite(e) && e > 0 && std::isfinite(w) && w > 0) pts.push_back({e, w, i});
  }
  std::sort(pts.begin(), pts.end(), [](const P& a, const P& b) { return a.err < b.err || (a.err == b.err && a.work < b.work); });
  Json front = Json::array();
  double best_work = INFINITY;
  for (const P& p : pts) {
    if (p.work >= best_work) continue;
    best_work = p.work;
    front.push_back({{"row", p.i}, {"method", rows[p.i].value("method", "")}, {"h", rows[p.i].value("h", 0.0)},
                     {"error", p.err}, {"work", p.work}});
  }
  return front;
}

std::vector<const MethodInfo*> ranked_methods(const RankOptions& opt, const MethodCatalog& methods, const ProblemInfo& problem) {
  std::vector<const MethodInfo*> out;
  // A stochastic method (a thermostat) samples a distribution: its error against the deterministic reference never
  // converges, so a scan for the steps reaching a target would run to n_max for nothing. Tags and the default list
  // leave it out; naming it is bad input.
  const auto add = [&out](const MethodInfo& m) {
    if (!m.claims.stochastic && std::find(out.begin(), out.end(), &m) == out.end()) out.push_back(&m);
  };
  if (!opt.include.empty()) {
    for (const auto& selector : opt.include) {
      if (is_tag_selector(selector)) {
        // A tag picks the methods of the registry that carry it and can run here; an id must be able to.
        for (const MethodInfo* m : tagged_methods(selector, problem)) add(methods.find(m->id));
        continue;
      }
      const MethodInfo& m = methods.find(selector);
      if (!compatible(m, problem)) throw InputError("method " + selector + " cannot run on problem " + problem.id);
      if (m.claims.stochastic)
        throw InputError("method " + selector + " is stochastic: it samples a distribution and has no trajectory error to rank");
      add(m);
    }
  } else {
    for (const auto& m : method_registry())
      if (compatible(m, problem)) add(methods.find(m.id));
  }
  for (const auto& selector : opt.exclude) {
    if (!is_tag_selector(selector)) methods.find(selector);  // unknown ids are errors
    out.erase(std::remove_if(out.begin(), out.end(), [&](const MethodInfo* m) { return selects(selector, *m); }), out.end());
  }
  if (out.empty()) throw InputError("no method left to rank");
  return out;
}

// What a rank can aim at: every error against the reference and every invariant error the problem's rows carry,
// at the end of the run or the largest over it. Any other name is in no row, so no method would reach a target.
std::vector<std::string> rankable_metrics(const Problem& p) {
  std::vector<std::string> out;
  for (const auto& s : metric_stems(p))
    for (const char* suffix : {"_final", "_max"})
      if (std::find(out.begin(), out.end(), s + suffix) == out.end()) out.push_back(s + suffix);
  return out;
}

void validate(const RankOptions& opt) {
  if (opt.targets.empty()) throw InputError("rank needs at least one target error (--targets)");
  for (double t : opt.targets)
    if (!std::isfinite(t) || t <= 0 || t >= 1) throw InputError("target errors must lie in (0, 1)");
  if (!std::isfinite(opt.T) || opt.T < 0) throw InputError("T must be positive (or 0 for ten time scales)");
  if (opt.reps < 1 || opt.reps > 1000) throw InputError("--reps must be in 1..1000");
  if (opt.n_max < 4) throw InputError("--n-max must be at least 4");
  // Tags are checked here, before any work; ids through the catalog, which may hold ids the registry does not.
  for (const auto& [selectors, option] : {std::pair{&opt.include, "--include"}, std::pair{&opt.exclude, "--exclude"}})
    for (const auto& s : *selectors)
      if (is_tag_selector(s)) check_selector(s, option);
}

}  // namespace

Json rank_methods(const RankOptions& opt, const std::vector<std::string>& command_line) {
  validate(opt);
  const MethodCatalog& methods = opt.methods != nullptr ? *opt.methods : registry_catalog();
  Cell probe;
  probe.problem = opt.problem;
  probe.preset = opt.preset;
  probe.overrides = opt.overrides;
  probe.ic = opt.ic;
  const auto problem = make_problem(probe);
  if (const auto metrics = rankable_metrics(*problem); std::find(metrics.begin(), metrics.end(), opt.metric) == metrics.end())
    throw InputError(unknown_id_message("metric", opt.metric, metrics, " for problem " + problem->id()));
  const double T = opt.T > 0 ? opt.T : 10 * problem->time_scale();
  check_reference_reach(*problem, T, "rank --T");
  std::vector<MethodScan> scans;
  for (const MethodInfo* m : ranked_methods(opt, methods, find_problem(opt.problem))) scans.push_back({m, {}, {}, {}, {}});

  const auto nm = static_cast<long>(scans.size());
#pragma omp parallel for schedule(dynamic, 1) num_threads(thread_count(opt.jobs))
  for (long i = 0; i < nm; ++i) scan_method(opt, methods, T, scans[static_cast<std::size_t>(i)]);

  // Time every finished cell, interleaved across all methods.
  std::vector<Cell> to_time;
  std::vector<std::pair<std::size_t, std::size_t>> where;
  for (std::size_t i = 0; i < scans.size(); ++i)
    for (std::size_t k = 0; k < scans[i].rows.size(); ++k)
      if (scans[i].rows[k].value("status", "") == "ok") {
        to_time.push_back(scans[i].cells[k]);
        where.emplace_back(i, k);
      }
  std::fprintf(stderr, "gibench: rank: timing %zu cells x %d repetitions, interleaved\n", to_time.size(), opt.reps);
  const std::vector<Json> timings = time_cells_interleaved(to_time, methods);
  for (std::size_t j = 0; j < where.size(); ++j) scans[where[j].first].rows[where[j].second]["timing"] = timings[j];

  SweepResult all;
  std::vector<std::vector<Json>> timed_rows;
  for (const auto& s : scans) {
    timed_rows.push_back(s.rows);
    for (const auto& r : s.rows) all.rows.push_back(r);
  }
  Json doc = results_document("gibench.rank", all, command_line);
  doc["cpu_model"] = cpu_model();
  doc["problem"] = problem->id();
  doc["preset"] = problem->preset();
  doc["ic"] = opt.ic;
  doc["params"] = problem->parameters();
  doc["T"] = T;
  doc["metric"] = opt.metric;
  doc["targets"] = opt.targets;
  doc["reps"] = opt.reps;
  if (Json ref = reference_summary(*problem, T); !ref.is_null()) doc["reference"] = ref;
  Json boards = Json::array();
  for (double t : opt.targets) boards.push_back(leaderboard_for(scans, timed_rows, t));
  doc["leaderboard"] = boards;
  doc["pareto_time"] = pareto(doc["rows"], opt.metric, [](const Json& r) {
    const Json& t = r.value("timing", Json(nullptr));
    return t.is_object() && t["median_s"].is_number() ? t["median_s"].get<double>() : NAN;
  });
  // Counted work (core/counters.hpp), the one currency across kinds: a splitting's rotations and a Newtonian
  // method's forces and solves count as a Runge-Kutta method's stages do.
  doc["pareto_cost"] = pareto(doc["rows"], opt.metric,
                              [](const Json& r) { return cost_value(r.value("cost", Json(nullptr)), "work"); });
  return doc;
}

namespace {

std::string g(const Json& v, int digits = 3) {
  if (!v.is_number()) return "—";
  std::ostringstream s;
  s << std::setprecision(digits) << v.get<double>();
  return s.str();
}

std::string time_cell(const Json& e) {
  if (!e.value("time_median_s", Json(nullptr)).is_number()) return "—";
  return g(e["time_median_s"]) + " s (" + g(e["time_min_s"]) + "–" + g(e["time_max_s"]) + ")";
}

}  // namespace

std::string rank_markdown(const Json& doc) {
  std::ostringstream md;
  md << "# Ranking on " << doc.value("problem", "") << "/" << doc.value("preset", "") << " (ic " << doc.value("ic", "")
     << "), T = " << g(doc["T"], 6) << "\n\n";
  const Json& ref = doc.value("reference", Json(nullptr));
  const std::string against = !ref.is_object() ? "the problem's reference"
                              : ref.value("kind", "") == "exact"
                                  ? "the exact reference"
                                  : "the numerical reference (estimated error " + g(ref["error_estimate"]) + ")";
  md << "Error metric `" << doc.value("metric", "") << "` at T against " << against << ". For each target, the cost to "
     << "reach it is read off each method's work-precision curve (step counts spaced by sqrt(2); the smallest scanned N "
     << "from which every larger one meets the target, interpolated in log-log with the failing point before it). "
     << "Times are medians of " << doc.value("reps", 0) << " repetitions interleaved across methods, with min–max; "
     << "they were measured on " << doc.value("cpu_model", "") << " (" << doc["manifest"].value("date_utc", "")
     << ") — compare them as ratios. Function evaluations count the right-hand side or the force, whichever the "
     << "method evaluates, each stage once; counted work adds exponentials, logarithms, Cayley maps, linear solves and "
     << "Newton iterations, one each (core/counters.hpp), so it compares methods across kinds. Energy columns describe "
     << "the run that meets the target.\n";
  for (const auto& board : doc["leaderboard"]) {
    md << "\n## Target " << g(board["target"]) << "\n\n"
       << "| rank | method | steps | time (min–max) | time / best | function evals | counted work | energy error max | energy | drift slope | note |\n"
       << "|---|---|---|---|---|---|---|---|---|---|---|\n";
    for (const auto& e : board["entries"]) {
      if (e.contains("not_applicable")) {
        md << "| — | " << e.value("display_name", "") << " | not applicable: " << e.value("not_applicable", "")
           << " | | | | | | | | |\n";
        continue;
      }
      if (!e.value("reached", false)) {
        md << "| — | " << e.value("display_name", "") << " | not reached (best error " << g(e["best_error"]) << " at N = "
           << e.value("best_steps", 0) << ") | | | | | | | | |\n";
        continue;
      }
      md << "| " << e["rank"].get<int>() << " | " << e.value("display_name", "") << " | " << g(e["steps"], 4) << " | "
         << time_cell(e) << " | " << g(e["time_ratio_to_best"]) << " | " << g(e["function_evals"], 4) << " | "
         << g(e["work"], 4) << " | " << g(e["energy_rel_err_max"], 2) << " | " << (e["energy_class"].is_string() ? e["energy_class"].get<std::string>() : std::string("—"))
         << " | " << g(e["energy_drift_slope"], 2) << " | " << e.value("note", std::string()) << " |\n";
    }
  }
  md << "\n## Pareto front (error, time)\n\n| method | h | error | time (s) |\n|---|---|---|---|\n";
  for (const auto& p : doc["pareto_time"])
    md << "| " << p.value("method", "") << " | " << g(p["h"], 4) << " | " << g(p["error"]) << " | " << g(p["work"]) << " |\n";
  return md.str();
}

}  // namespace gib
