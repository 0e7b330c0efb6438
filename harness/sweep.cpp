#include "harness/sweep.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <map>
#include <set>
#include <unistd.h>


#include "core/errors.hpp"
#include "core/method.hpp"
#include "core/problem.hpp"
#include "harness/json_util.hpp"
#include "harness/model_kinds.hpp"
#include "harness/manifest.hpp"
#include "harness/runner.hpp"
#include "harness/threads.hpp"
#include "harness/timing.hpp"

namespace gib {
namespace {

void require_keys(const Json& j, const std::set<std::string>& allowed, const std::string& where) {
  if (!j.is_object()) throw InputError(where + ": expected a JSON object, got " + j.dump().substr(0, 40));
  for (auto it = j.begin(); it != j.end(); ++it)
    if (!allowed.count(it.key())) throw InputError(where + ": unknown key '" + it.key() + "'");
}

template <class T> std::vector<T> list_of(const Json& j, const std::string& where) {
  std::vector<T> out;
  try {
    if (j.is_array()) {
      for (const auto& e : j) out.push_back(e.get<T>());
    } else {
      out.push_back(j.get<T>());
    }
  } catch (const Json::exception&) {
    throw InputError(where + ": wrong type " + j.dump().substr(0, 40));
  }
  if (out.empty()) throw InputError(where + ": empty list");
  return out;
}

std::vector<double> parse_h(const Json& j, const std::string& where) {
  std::vector<double> hs;
  if (j.is_object()) {
    require_keys(j, {"start", "factor", "count"}, where);
    const double start = j.value("start", 0.0), factor = j.value("factor", 0.5);
    const int count = j.value("count", 0);
    if (!(start > 0) || !(factor > 0) || count < 1 || count > 64)
      throw InputError(where + ": needs start > 0, factor > 0 and 1 <= count <= 64");
    for (int i = 0; i < count; ++i) hs.push_back(start * std::pow(factor, i));
  } else {
    hs = list_of<double>(j, where);
  }
  for (double h : hs)
    if (!std::isfinite(h) || h <= 0) throw InputError(where + ": step sizes must be positive and finite");
  return hs;
}

ObserveOptions parse_observe(const Json& j, const std::string& where) {
  ObserveOptions o;
  if (j.is_null()) return o;
  require_keys(j, {"reference", "ref_samples", "series_points", "series_pi", "series_state_err", "series_particles",
                   "series_orthogonality", "drift_blocks", "divergence_factor", "block_stats"},
               where);
  try {
    o.reference = j.value("reference", o.reference);
    o.ref_samples = j.value("ref_samples", o.ref_samples);
    o.series_points = j.value("series_points", o.series_points);
    o.series_pi = j.value("series_pi", o.series_pi);
    o.series_state_err = j.value("series_state_err", o.series_state_err);
    o.series_particles = j.value("series_particles", o.series_particles);
    o.series_orthogonality = j.value("series_orthogonality", o.series_orthogonality);
    o.drift_blocks = j.value("drift_blocks", o.drift_blocks);
    o.block_stats = j.value("block_stats", o.block_stats);
    o.divergence_factor = j.value("divergence_factor", o.divergence_factor);
  } catch (const Json::exception&) {
    throw InputError(where + ": wrong value type");
  }
  if (o.ref_samples < 0 || o.series_points < 0 || o.drift_blocks < 1 || !(o.divergence_factor > 1))
    throw InputError(where + ": ref_samples, series_points >= 0, drift_blocks >= 1, divergence_factor > 1");
  return o;
}

TimingOptions parse_timing(const Json& j, const std::string& where) {
  TimingOptions t;
  if (j.is_null()) return t;
  require_keys(j, {"reps", "min_sample_seconds"}, where);
  try {
    t.reps = j.value("reps", t.reps);
    t.min_sample_seconds = j.value("min_sample_seconds", t.min_sample_seconds);
  } catch (const Json::exception&) {
    throw InputError(where + ": wrong value type");
  }
  if (t.reps < 0 || t.reps > 1000 || !(t.min_sample_seconds >= 0)) throw InputError(where + ": reps in 0..1000");
  return t;
}

struct MethodEntry {
  std::string id;
  Json params = Json::object();
};

std::vector<MethodEntry> parse_methods(const Json& j, const std::string& where) {
  std::vector<MethodEntry> out;
  if (!j.is_array() || j.empty()) throw InputError(where + ": must be a non-empty list");
  for (const auto& e : j) {
    if (e.is_string()) {
      out.push_back({e.get<std::string>()});
    } else {
      require_keys(e, {"id", "params"}, where);
      if (!e.contains("id") || !e["id"].is_string()) throw InputError(where + ": entry without a string id");
      out.push_back({e["id"].get<std::string>(), e.value("params", Json::object())});
    }
  }
  return out;
}

// "N": step counts, a list or {"start", "factor", "count"} (rounded), each with h = T / N.
std::vector<std::pair<double, std::int64_t>> steps_grid(const Json& config, const std::string& where) {
  if (!config.contains("T") || config.contains("steps") || config.contains("h"))
    throw InputError(where + ": \"N\" goes with \"T\" and without \"h\" or \"steps\"");
  std::vector<std::int64_t> ns;
  for (double n : parse_h(config["N"], where + ".N")) {
    const auto k = static_cast<std::int64_t>(std::llround(n));
    if (k < 1 || n > 1e12) throw InputError(where + ".N: step counts must be between 1 and 1e12");
    if (ns.empty() || ns.back() != k) ns.push_back(k);
  }
  std::vector<std::pair<double, std::int64_t>> out;
  for (double T : list_of<double>(config["T"], where + ".T")) {
    if (!std::isfinite(T) || T <= 0) throw InputError(where + ".T: must be positive and finite");
    for (auto n : ns) out.emplace_back(T / static_cast<double>(n), n);
  }
  return out;
}

// Step counts for each h: from "T" (must be a multiple of h) or "steps".
std::vector<std::pair<double, std::int64_t>> h_and_steps(const Json& config, const std::vector<double>& hs,
                                                         const std::string& where) {
  std::vector<std::pair<double, std::int64_t>> out;
  if (config.contains("T") == config.contains("steps"))
    throw InputError(where + ": give exactly one of \"T\" and \"steps\"");
  if (config.contains("steps")) {
    for (auto n : list_of<std::int64_t>(config["steps"], where + ".steps")) {
      if (n < 1) throw InputError(where + ".steps: must be >= 1");
      for (double h : hs) out.emplace_back(h, n);
    }
    return out;
  }
  for (double T : list_of<double>(config["T"], where + ".T"))
    for (double h : hs) out.emplace_back(h, steps_for(T, h));
  return out;
}

}  // namespace

SweepSpec parse_sweep(const Json& config, const std::string& where) {
  require_keys(config, {"name", "problems", "methods", "h", "N", "T", "steps", "observe", "timing", "fit"}, where);
  if (!config.contains("problems") || !config.contains("methods") || (!config.contains("h") && !config.contains("N")))
    throw InputError(where + ": needs \"problems\", \"methods\" and \"h\" (or \"N\" with \"T\")");
  SweepSpec spec;
  spec.name = config.value("name", std::string("sweep"));
  const auto steps =
      config.contains("N") ? steps_grid(config, where) : h_and_steps(config, parse_h(config["h"], where + ".h"), where);
  const auto methods = parse_methods(config["methods"], where + ".methods");
  const ObserveOptions obs = parse_observe(config.value("observe", Json()), where + ".observe");
  const TimingOptions timing = parse_timing(config.value("timing", Json()), where + ".timing");
  if (config.contains("fit")) {
    const Json& f = config["fit"];
    require_keys(f, {"metrics", "floor", "ceiling", "min_local_order", "max_points"}, where + ".fit");
    spec.fit_metrics = list_of<std::string>(f.value("metrics", Json::array({"state_err_final"})), where + ".fit.metrics");
    spec.fit.floor = f.value("floor", spec.fit.floor);
    spec.fit.ceiling = f.value("ceiling", spec.fit.ceiling);
    spec.fit.min_local_order = f.value("min_local_order", spec.fit.min_local_order);
    spec.fit.max_points = f.value("max_points", spec.fit.max_points);
  }
  const Json& problems = config["problems"];
  if (!problems.is_array() || problems.empty()) throw InputError(where + ".problems: must be a non-empty list");
  for (const auto& p : problems) {
    require_keys(p, {"problem", "presets", "overrides", "ics"}, where + ".problems");
    if (!p.contains("problem") || !p["problem"].is_string()) throw InputError(where + ".problems: entry without a problem id");
    const ProblemInfo& info = find_problem(p["problem"].get<std::string>());
    std::vector<std::string> presets;
    if (p.contains("presets")) presets = list_of<std::string>(p["presets"], where + ".presets");
    else presets.push_back(info.presets.front().name);
    const Json overrides = p.value("overrides", Json::array({Json::object()}));
    if (!overrides.is_array() || overrides.empty()) throw InputError(where + ".overrides: must be a non-empty list of objects");
    std::vector<std::string> ics = {"preset"};
    if (p.contains("ics")) ics = list_of<std::string>(p["ics"], where + ".ics");
    for (const auto& preset : presets)
      for (const auto& ov : overrides)
        for (const auto& ic : ics)
          for (const auto& m : methods)
            for (const auto& [h, n] : steps) {
              Cell c;
              c.problem = info.id;
              c.preset = preset;
              c.overrides = ov;
              c.ic = ic;
              c.method = m.id;
              c.method_params = m.params;
              c.h = h;
              c.steps = n;
              c.observe = obs;
              c.timing = timing;
              spec.cells.push_back(std::move(c));
            }
  }
  return spec;
}

namespace {

// Build every distinct problem and stepper once, so that bad input fails before any cell runs.
void precheck(const SweepSpec& spec, const MethodCatalog& methods) {
  std::set<std::string> seen;
  for (const Cell& c : spec.cells) {
    const std::string key = c.problem + "|" + c.preset + "|" + c.overrides.dump() + "|" + c.ic + "|" + c.method + "|" +
                            c.method_params.dump();
    if (!seen.insert(key).second) continue;
    validate_cell(c, methods);
    const MethodInfo& m = methods.find(c.method);
    const Json params = merge_method_params(m, c.method_params);
    const auto problem = make_problem(c);
    if (!compatible(m, find_problem(c.problem)))
      throw InputError("method " + m.id + " cannot run on problem " + problem->id() +
                       (m.torque_free_only ? " (it is for torque-free bodies only)" : ""));
    probe_stepper(m, *problem, params);
  }
}

class Progress {
 public:
  Progress(std::string name, std::size_t total, bool enabled)
      : name_(std::move(name)), total_(total), enabled_(enabled), tty_(::isatty(2) != 0), t0_(clock::now()) {}
  void update(std::size_t done, const char* phase) {
    if (!enabled_) return;
    const double el = std::chrono::duration<double>(clock::now() - t0_).count();
    if (el < 3.0 || (el - last_ < (tty_ ? 0.5 : 10.0) && done != total_)) return;
    last_ = el;
    const double eta = done > 0 ? el * static_cast<double>(total_ - done) / static_cast<double>(done) : 0;
    std::fprintf(stderr, "%sgibench: %s: %s %zu/%zu cells, %.1f s elapsed, ~%.0f s left%s", tty_ ? "\r" : "",
                 name_.c_str(), phase, done, total_, el, eta, tty_ ? "   " : "\n");
    printed_ = true;
  }
  ~Progress() {
    if (printed_ && tty_) std::fprintf(stderr, "\n");
  }

 private:
  using clock = std::chrono::steady_clock;
  std::string name_;
  std::size_t total_;
  bool enabled_, tty_;
  clock::time_point t0_;
  double last_ = 0;
  bool printed_ = false;
};

CellOutcome run_guarded(const Cell& c, const MethodCatalog& methods) {
  try {
    Cell accuracy = c;
    accuracy.timing.reps = 0;
    return run_cell(accuracy, methods);
  } catch (const std::exception& e) {
    Json row;
    row["problem"] = c.problem;
    row["preset"] = c.preset;
    row["ic"] = c.ic;
    row["method"] = c.method;
    row["h"] = c.h;
    row["steps"] = c.steps;
    row["T"] = c.h * static_cast<double>(c.steps);
    row["rep"] = c.rep;
    row["status"] = "error";
    row["status_step"] = nullptr;
    row["status_detail"] = e.what();
    row["metrics"] = Json::object();
    row["timing"] = nullptr;
    return {row, Json()};
  }
}

}  // namespace

SweepResult run_sweep(const SweepSpec& spec, const SweepOptions& opt) {
  const MethodCatalog& methods = opt.methods != nullptr ? *opt.methods : registry_catalog();
  precheck(spec, methods);
  const auto n = static_cast<long>(spec.cells.size());
  std::vector<CellOutcome> out(spec.cells.size());
  Progress progress(spec.name, spec.cells.size(), opt.progress);
  std::size_t done = 0;
  const int jobs = thread_count(opt.jobs);
#pragma omp parallel for schedule(dynamic, 1) num_threads(jobs)
  for (long i = 0; i < n; ++i) {
    out[static_cast<std::size_t>(i)] = run_guarded(spec.cells[static_cast<std::size_t>(i)], methods);
#pragma omp critical(gibench_progress)
    progress.update(++done, "accuracy");
  }
  // Timing passes after all accuracy passes, one cell at a time, interleaved across cells.
  std::vector<Cell> to_time;
  std::vector<std::size_t> where;
  for (std::size_t i = 0; i < spec.cells.size(); ++i) {
    out[i].row["timing"] = nullptr;
    if (spec.cells[i].timing.reps == 0 || out[i].row["status"] != "ok") continue;
    to_time.push_back(spec.cells[i]);
    where.push_back(i);
  }
  if (!to_time.empty() && opt.progress)
    std::fprintf(stderr, "gibench: %s: timing %zu cells x %d repetitions, interleaved\n", spec.name.c_str(),
                 to_time.size(), to_time.front().timing.reps);
  const std::vector<Json> timings = time_cells_interleaved(to_time, methods);
  for (std::size_t k = 0; k < where.size(); ++k) out[where[k]].row["timing"] = timings[k];
  SweepResult r;
  for (std::size_t i = 0; i < out.size(); ++i) {
    r.rows.push_back(out[i].row);
    if (!out[i].series.is_null()) {
      Json s = out[i].series;
      s["row"] = i;
      r.series.push_back(s);
    }
  }
  if (!spec.fit_metrics.empty()) r.fits = fit_rows(r.rows, spec.fit_metrics, spec.fit);
  for (auto& f : r.fits) f["sweep"] = spec.name;  // lets a figure check pick a fit from one of its sweeps
  return r;
}

Json fit_rows(const Json& rows, const std::vector<std::string>& metrics, const OrderFitOptions& opt) {
  std::map<std::string, std::vector<std::size_t>> groups;
  std::vector<std::string> order;
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const Json& r = rows[i];
    const std::string key = r.value("problem", "") + "|" + r.value("preset", "") + "|" + r.value("param_hash", "") +
                            "|" + r.value("ic", "") + "|" + r.value("method", "") + "|" +
                            r.value("method_params", Json::object()).dump() + "|" + Json(r.value("T", 0.0)).dump();
    if (!groups.count(key)) order.push_back(key);
    groups[key].push_back(i);
  }
  Json fits = Json::array();
  for (const auto& key : order) {
    const auto& idx = groups[key];
    const Json& first = rows[idx.front()];
    for (const auto& metric : metrics) {
      std::vector<std::pair<double, double>> pts;
      for (auto i : idx) {
        const Json& r = rows[i];
        const Json& m = r.value("metrics", Json::object());
        const bool ok = r.value("status", "") == "ok" && m.contains(metric) && m[metric].is_number();
        pts.emplace_back(r.value("h", 0.0), ok ? m[metric].get<double>() : NAN);
      }
      const OrderFit f = fit_order(pts, opt, first.value("T", 0.0));
      Json points = Json::array();
      for (const auto& [h, e] : f.points) points.push_back({h, json_number(e)});
      fits.push_back({{"problem", first.value("problem", "")},
                      {"preset", first.value("preset", "")},
                      {"param_hash", first.value("param_hash", "")},
                      {"ic", first.value("ic", "")},
                      {"method", first.value("method", "")},
                      {"method_params", first.value("method_params", Json::object())},
                      {"T", first.value("T", 0.0)},
                      {"metric", metric},
                      {"ok", f.ok},
                      {"order_hat", f.ok ? json_number(f.order_hat) : Json(nullptr)},
                      {"ci95", f.ok ? Json::array({json_number(f.ci_lo), json_number(f.ci_hi)}) : Json(nullptr)},
                      {"r2", f.ok ? json_number(f.r2) : Json(nullptr)},
                      {"window", {{"h_max", f.h_max}, {"h_min", f.h_min}, {"n", f.n}}},
                      {"note", f.note},
                      {"points", points}});
    }
  }
  return fits;
}

Json methods_table(const Json& rows) {
  Json t = Json::object();
  for (const auto& r : rows) {
    const std::string id = r.value("method", "");
    if (id.empty() || t.contains(id)) continue;
    for (const auto& m : method_registry())
      if (m.id == id)
        t[id] = {{"display_name", m.display_name},
                 {"order", m.claims.order},
                 {"finite_time_order", m.claims.max_observable_order()},
                 {"family", m.family},
                 {"default_params", m.default_params}};
  }
  return t;
}

Json results_document(const std::string& kind, const SweepResult& r, const std::vector<std::string>& command_line,
                      const Json& seeds) {
  Json doc;
  doc["schema_version"] = 1;
  doc["kind"] = kind;
  doc["manifest"] = build_manifest(command_line, seeds);
  doc["methods"] = methods_table(r.rows);
  doc["rows"] = r.rows;
  doc["series"] = r.series;
  doc["fits"] = r.fits;
  return doc;
}

}  // namespace gib
