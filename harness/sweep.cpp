#include "harness/sweep.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <map>
#include <limits>
#include <set>
#include <type_traits>
#include <unistd.h>


#include "core/errors.hpp"
#include "core/hash.hpp"
#include "core/method.hpp"
#include "core/method_tags.hpp"
#include "core/problem.hpp"
#include "core/safe_file.hpp"
#include "core/user_input.hpp"
#include "harness/json_util.hpp"
#include "harness/model_kinds.hpp"
#include "harness/manifest.hpp"
#include "harness/reference_reach.hpp"
#include "harness/runner.hpp"
#include "harness/sweep_exec.hpp"
#include "harness/threads.hpp"
#include "harness/timing.hpp"

namespace gib {
namespace {

void require_keys(const Json& j, const std::set<std::string>& allowed, const std::string& where) {
  if (!j.is_object()) throw InputError(where + ": expected a JSON object, got " + quote_excerpt(j.dump(), 40));
  for (auto it = j.begin(); it != j.end(); ++it)
    if (!allowed.count(it.key())) throw InputError(where + ": unknown key " + quote_excerpt(it.key()));
}

// A sweep too large to hold in memory is a typo (a list where a range was meant), not a study.
constexpr std::size_t kMaxCells = 1'000'000;

std::size_t list_size(const Json& p, const char* key) {
  if (!p.is_object() || !p.contains(key)) return 1;
  return p[key].is_array() ? p[key].size() : 1;
}

void check_product(std::size_t a, std::size_t b, const std::string& where) {
  if (a != 0 && b > kMaxCells / a) throw InputError(where + ": more than " + std::to_string(kMaxCells) + " cells");
}

// One JSON value as T, strictly: no string for a number, no 2.5 for a count (nlohmann would truncate it).
template <class T> T strict(const Json& e, const std::string& where) {
  const auto wrong = [&] { return InputError(where + ": wrong type " + quote_excerpt(e.dump(), 40)); };
  if constexpr (std::is_same_v<T, std::string>) {
    if (!e.is_string()) throw wrong();
    return e.get<std::string>();
  } else if constexpr (std::is_same_v<T, bool>) {
    if (!e.is_boolean()) throw wrong();
    return e.get<bool>();
  } else if constexpr (std::is_floating_point_v<T>) {
    if (!e.is_number()) throw wrong();
    return e.get<T>();
  } else {
    if (e.is_number_integer()) {
      if (e.is_number_unsigned() && e.get<std::uint64_t>() > static_cast<std::uint64_t>(std::numeric_limits<T>::max()))
        throw InputError(where + ": " + e.dump() + " is too large");
      const auto v = e.get<std::int64_t>();
      if (v < std::numeric_limits<T>::min() || v > std::numeric_limits<T>::max())
        throw InputError(where + ": " + e.dump() + " is out of range");
      return static_cast<T>(v);
    }
    if (!e.is_number_float() || e.get<double>() != std::floor(e.get<double>()) || std::fabs(e.get<double>()) > 9e15)
      throw InputError(where + ": expected a whole number, got " + quote_excerpt(e.dump(), 40));
    return strict<T>(Json(static_cast<std::int64_t>(e.get<double>())), where);
  }
}

// obj[key] as T, or fallback when the key is absent.
template <class T> T field(const Json& obj, const char* key, T fallback, const std::string& where) {
  return obj.contains(key) ? strict<T>(obj[key], where + "." + key) : fallback;
}

template <class T> std::vector<T> list_of(const Json& j, const std::string& where) {
  std::vector<T> out;
  if (j.is_array()) {
    for (const auto& e : j) out.push_back(strict<T>(e, where));
  } else {
    out.push_back(strict<T>(j, where));
  }
  if (out.empty()) throw InputError(where + ": empty list");
  return out;
}

std::vector<double> parse_h(const Json& j, const std::string& where) {
  std::vector<double> hs;
  if (j.is_object()) {
    require_keys(j, {"start", "factor", "count"}, where);
    const double start = field(j, "start", 0.0, where), factor = field(j, "factor", 0.5, where);
    const int count = field(j, "count", 0, where);
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
  // Schema 3 named these flags after model kinds; say what replaced each instead of only "unknown key".
  for (const auto& [old_key, name] : {std::pair{"series_pi", "Pi"}, std::pair{"series_particles", "configuration"},
                                      std::pair{"series_orthogonality", "orthogonality"}})
    if (j.is_object() && j.contains(old_key))
      throw InputError(where + "." + old_key + " was replaced by " + where + ".series_extra: [\"" + name + "\"]");
  require_keys(j, {"reference", "ref_samples", "series_points", "series_state_err", "series_extra", "drift_blocks",
                   "divergence_factor", "divergence_energy", "block_stats", "probes", "quantities_after", "distributions"},
               where);
  o.reference = field(j, "reference", o.reference, where);
  o.ref_samples = field(j, "ref_samples", o.ref_samples, where);
  o.series_points = field(j, "series_points", o.series_points, where);
  o.series_state_err = field(j, "series_state_err", o.series_state_err, where);
  if (j.contains("series_extra")) o.series_extra = list_of<std::string>(j["series_extra"], where + ".series_extra");
  o.drift_blocks = field(j, "drift_blocks", o.drift_blocks, where);
  o.block_stats = field(j, "block_stats", o.block_stats, where);
  o.divergence_factor = field(j, "divergence_factor", o.divergence_factor, where);
  o.divergence_energy = field(j, "divergence_energy", o.divergence_energy, where);
  if (j.contains("probes")) o.probes = list_of<std::string>(j["probes"], where + ".probes");
  if (j.contains("distributions")) o.distributions = list_of<std::string>(j["distributions"], where + ".distributions");
  o.quantities_after = field(j, "quantities_after", o.quantities_after, where);
  if (!(o.quantities_after >= 0) || !std::isfinite(o.quantities_after))
    throw InputError(where + ".quantities_after: a time >= 0, finite");
  if (o.ref_samples < 0 || o.series_points < 0 || o.drift_blocks < 1 || !(o.divergence_factor > 1) ||
      !(o.divergence_energy > 0) || !std::isfinite(o.divergence_factor) || !std::isfinite(o.divergence_energy))
    throw InputError(where + ": ref_samples, series_points >= 0, drift_blocks >= 1, divergence_factor > 1 and "
                             "divergence_energy > 0, both finite");
  return o;
}

TimingOptions parse_timing(const Json& j, const std::string& where) {
  TimingOptions t;
  if (j.is_null()) return t;
  require_keys(j, {"reps", "min_sample_seconds"}, where);
  t.reps = field(j, "reps", t.reps, where);
  t.min_sample_seconds = field(j, "min_sample_seconds", t.min_sample_seconds, where);
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
      if (is_tag_selector(out.back().id)) check_selector(out.back().id, where);
    } else {
      require_keys(e, {"id", "params"}, where);
      if (!e.contains("id") || !e["id"].is_string()) throw InputError(where + ": entry without a string id");
      out.push_back({e["id"].get<std::string>(), e.value("params", Json::object())});
    }
  }
  return out;
}

// "exclude_methods": ids or tags to leave out of every problem's methods; an unknown one is bad input.
std::vector<std::string> parse_excluded_methods(const Json& config, const std::string& where) {
  if (!config.contains("exclude_methods")) return {};
  const auto out = list_of<std::string>(config["exclude_methods"], where);
  for (const auto& s : out) check_selector(s, where);
  return out;
}

// Does a registered method with this id carry the selector's tag? (An id the registry lacks has no tags.)
bool tagged(const std::string& selector, const std::string& id) {
  const auto& reg = method_registry();
  return std::any_of(reg.begin(), reg.end(), [&](const MethodInfo& m) { return m.id == id && selects(selector, m); });
}

// A problem's methods: the entries as given, each "tag:<tag>" replaced by the registry's methods with the tag that
// can run on the problem (a tag asks for what applies; an id that cannot run stays an error), then the exclusions.
std::vector<MethodEntry> methods_for(const std::vector<MethodEntry>& entries, const std::vector<std::string>& excluded,
                                     const ProblemInfo& problem) {
  std::vector<MethodEntry> out;
  const auto listed = [&out](const std::string& id) {
    return std::any_of(out.begin(), out.end(), [&](const MethodEntry& e) { return e.id == id && e.params.empty(); });
  };
  for (const auto& e : entries) {
    if (!is_tag_selector(e.id)) {
      out.push_back(e);
      continue;
    }
    for (const MethodInfo* m : tagged_methods(e.id, problem))
      if (!listed(m->id)) out.push_back({m->id});
  }
  for (const auto& x : excluded)
    out.erase(std::remove_if(out.begin(), out.end(),
                             [&](const MethodEntry& e) { return x == e.id || (is_tag_selector(x) && tagged(x, e.id)); }),
              out.end());
  return out;
}

// The most methods an entry list can give a problem, for the cell-count guards before tags are expanded.
std::size_t method_bound(const std::vector<MethodEntry>& entries) {
  std::size_t n = 0;
  for (const auto& e : entries) n += is_tag_selector(e.id) ? method_registry().size() : 1;
  return n;
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
  const auto Ts = list_of<double>(config["T"], where + ".T");
  check_product(Ts.size(), ns.size(), where);
  for (double T : Ts) {
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
    const auto ns = list_of<std::int64_t>(config["steps"], where + ".steps");
    check_product(ns.size(), hs.size(), where);
    for (auto n : ns) {
      if (n < 1 || n > 1'000'000'000'000) throw InputError(where + ".steps: must be between 1 and 1e12");
      for (double h : hs) out.emplace_back(h, n);
    }
    return out;
  }
  const auto Ts = list_of<double>(config["T"], where + ".T");
  check_product(Ts.size(), hs.size(), where);
  for (double T : Ts)
    for (double h : hs) out.emplace_back(h, steps_for(T, h));
  return out;
}

void check_cell_count(const Json& problems, std::size_t per_problem_entry, const std::string& where) {
  std::size_t total = 0;
  for (const auto& p : problems) {
    std::size_t n = per_problem_entry;
    for (const char* key : {"presets", "overrides", "ics"}) {
      const std::size_t k = list_size(p, key);
      if (k != 0 && n > kMaxCells / k) throw InputError(where + ": more than " + std::to_string(kMaxCells) + " cells");
      n *= k;
    }
    total += n;
    if (total > kMaxCells) throw InputError(where + ": more than " + std::to_string(kMaxCells) + " cells");
  }
}

double parse_time_budget(const Json& config, const std::string& where) {
  if (!config.contains("cell_time_budget_s")) return 0;
  const Json& b = config["cell_time_budget_s"];
  if (!b.is_number() || !std::isfinite(b.get<double>()) || b.get<double>() < 0)
    throw InputError(where + ".cell_time_budget_s: must be a number of seconds >= 0");
  return b.get<double>();
}

}  // namespace

SweepSpec parse_sweep(const Json& config, const std::string& where) {
  require_keys(config,
               {"name", "problems", "methods", "exclude_methods", "h", "N", "T", "steps", "observe", "timing", "fit",
                "cell_time_budget_s"},
               where);
  if (!config.contains("problems") || !config.contains("methods") || (!config.contains("h") && !config.contains("N")))
    throw InputError(where + ": needs \"problems\", \"methods\" and \"h\" (or \"N\" with \"T\")");
  SweepSpec spec;
  spec.config = config;
  spec.name = field(config, "name", std::string("sweep"), where);
  check_file_name_word(spec.name, where + ".name");  // the default results file is <name>.json
  const double budget = parse_time_budget(config, where);
  const auto steps =
      config.contains("N") ? steps_grid(config, where) : h_and_steps(config, parse_h(config["h"], where + ".h"), where);
  const auto methods = parse_methods(config["methods"], where + ".methods");
  const auto excluded = parse_excluded_methods(config, where + ".exclude_methods");
  const ObserveOptions obs = parse_observe(config.value("observe", Json()), where + ".observe");
  const TimingOptions timing = parse_timing(config.value("timing", Json()), where + ".timing");
  if (config.contains("fit")) {
    const Json& f = config["fit"];
    require_keys(f, {"metrics", "floor", "ceiling", "min_local_order", "max_points"}, where + ".fit");
    spec.fit_metrics = list_of<std::string>(f.value("metrics", Json::array({metrics::key(metrics::state_err, metrics::kFinal)})), where + ".fit.metrics");
    spec.fit.floor = field(f, "floor", spec.fit.floor, where + ".fit");
    spec.fit.ceiling = field(f, "ceiling", spec.fit.ceiling, where + ".fit");
    spec.fit.min_local_order = field(f, "min_local_order", spec.fit.min_local_order, where + ".fit");
    spec.fit.max_points = field(f, "max_points", spec.fit.max_points, where + ".fit");
    if (!(spec.fit.floor >= 0) || !(spec.fit.ceiling > spec.fit.floor) || spec.fit.max_points < 0)
      throw InputError(where + ".fit: needs 0 <= floor < ceiling and max_points >= 0");
  }
  const Json& problems = config["problems"];
  if (!problems.is_array() || problems.empty()) throw InputError(where + ".problems: must be a non-empty list");
  check_product(method_bound(methods), steps.size(), where);
  check_cell_count(problems, method_bound(methods) * steps.size(), where);
  for (const auto& p : problems) {
    require_keys(p, {"problem", "presets", "overrides", "ics"}, where + ".problems");
    if (!p.contains("problem") || !p["problem"].is_string()) throw InputError(where + ".problems: entry without a problem id");
    const ProblemInfo& info = find_problem(p["problem"].get<std::string>());
    const auto problem_methods = methods_for(methods, excluded, info);
    if (problem_methods.empty())
      throw InputError(where + ".methods: no method selected (after exclude_methods) runs on problem " + info.id);
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
          for (const auto& m : problem_methods)
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
              c.time_budget_s = budget;
              spec.cells.push_back(std::move(c));
            }
  }
  return spec;
}

void check_sweep_cells(const SweepSpec& spec, const MethodCatalog& methods) {
  const auto setup_of = [](const Cell& c) { return c.problem + "|" + c.preset + "|" + c.overrides.dump() + "|" + c.ic; };
  // The latest time each problem setup's reference is asked for.
  std::map<std::string, double> reach;
  for (const Cell& c : spec.cells)
    if (c.observe.reference) {
      double& t = reach[setup_of(c)];
      t = std::max(t, c.h * static_cast<double>(c.steps));
    }
  std::set<std::string> seen;
  for (const Cell& c : spec.cells) {
    const std::string key = setup_of(c) + "|" + c.method + "|" + c.method_params.dump();
    if (!seen.insert(key).second) continue;
    const PreparedCell prepared = prepare_cell(c, methods);
    if (const auto it = reach.find(setup_of(c)); it != reach.end())
      check_reference_reach(*prepared.problem, it->second, "a sweep cell observing the reference (T = steps x h)");
  }
}

SweepResult assemble_sweep(const SweepSpec& spec, std::vector<CellOutcome> outcomes) {
  if (outcomes.size() != spec.cells.size()) throw std::logic_error("assemble_sweep: one outcome per cell");
  SweepResult r;
  for (std::size_t i = 0; i < outcomes.size(); ++i) {
    r.rows.push_back(std::move(outcomes[i].row));
    if (!outcomes[i].series.is_null()) {
      Json s = std::move(outcomes[i].series);
      s["row"] = i;
      r.series.push_back(std::move(s));
    }
  }
  if (!spec.fit_metrics.empty()) r.fits = fit_rows(r.rows, spec.fit_metrics, spec.fit);
  for (auto& f : r.fits) f["sweep"] = spec.name;  // lets a figure check pick a fit from one of its sweeps
  return r;
}

SweepResult run_sweep(const SweepSpec& spec, const SweepOptions& opt) {
  const MethodCatalog& methods = opt.methods != nullptr ? *opt.methods : registry_catalog();
  check_sweep_cells(spec, methods);
  std::vector<CellOutcome> out(spec.cells.size());
  std::vector<std::size_t> all(spec.cells.size());
  for (std::size_t i = 0; i < all.size(); ++i) all[i] = i;
  Progress progress(spec.name, all.size(), 0, opt.progress);
  const CellSink sink = progress.counting([&](std::size_t i, CellOutcome&& o) { out[i] = std::move(o); });
  run_accuracy_passes(spec, next_from_list(all), sink, thread_count(opt.jobs), methods);
  const auto timed = cells_to_time(spec, out, all);
  const auto timings = run_timing_passes(spec, timed, methods, opt.progress);
  for (std::size_t k = 0; k < timed.size(); ++k) out[timed[k]].row["timing"] = timings[k];
  return assemble_sweep(spec, std::move(out));
}

std::string cell_key(const Cell& c) {
  return Json{{"problem", c.problem}, {"preset", c.preset}, {"overrides", c.overrides}, {"ic", c.ic},
              {"method", c.method},   {"method_params", c.method_params}, {"h", c.h}, {"steps", c.steps},
              {"rep", c.rep}}
      .dump();
}

std::string hash_hex(const std::string& text) { return fnv1a_hex(text); }

std::string sweep_fingerprint(const SweepSpec& spec) {
  return hash_hex(spec.config.dump() + "|" + std::to_string(spec.cells.size()));
}

Json status_summary(const Json& rows) {
  Json by = Json::object();
  for (const auto& r : rows) {
    const std::string s = r.value("status", "?");
    by[s] = by.value(s, 0) + 1;
  }
  return {{"cells", rows.size()}, {"by_status", by}};
}

// T = steps * h can differ from the requested T in the last bit (h = T / N rounded): rows of one final time
// group together at 12 significant digits.
namespace {
std::string t_key(double T) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.12g", T);
  return buf;
}
}  // namespace

Json fit_rows(const Json& rows, const std::vector<std::string>& metrics, const OrderFitOptions& opt) {
  std::map<std::string, std::vector<std::size_t>> groups;
  std::vector<std::string> order;
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const Json& r = rows[i];
    const std::string key = r.value("problem", "") + "|" + r.value("preset", "") + "|" + r.value("param_hash", "") +
                            "|" + r.value("ic", "") + "|" + r.value("method", "") + "|" +
                            r.value("method_params", Json::object()).dump() + "|" + t_key(r.value("T", 0.0));
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
                      {"conclusive", f.conclusive()},
                      {"note", f.conclusive() ? f.note : f.inconclusive_reason()},
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
                 {"default_params", *m.default_params}};
  }
  return t;
}

namespace {

// Accuracy passes run in parallel and take no time; timing passes run after all of them.
Json timing_protocol(const Json& rows) {
  for (const auto& r : rows) {
    const Json& t = r.value("timing", Json(nullptr));
    if (t.is_null()) continue;
    return {{"concurrency", "one cell at a time in one process, after every accuracy pass has finished; no other cell "
                            "runs meanwhile (MPI: on rank 0 while the other ranks wait)"},
            {"order", "interleaved across cells: A B C A B C ..., so machine drift spreads over every cell"},
            {"observers", "none (plain stepping)"},
            {"repetitions", t.value("reps", Json(nullptr))},
            {"statistic", "median_s over the repetitions; min_s and max_s beside it"}};
  }
  return Json();
}

}  // namespace

Json results_document(const std::string& kind, const SweepResult& r, const std::vector<std::string>& command_line,
                      const Json& seeds) {
  Json doc;
  doc["schema_version"] = 1;
  doc["kind"] = kind;
  doc["manifest"] = build_manifest(command_line, seeds);
  doc["methods"] = methods_table(r.rows);
  doc["summary"] = status_summary(r.rows);
  if (const Json protocol = timing_protocol(r.rows); !protocol.is_null()) doc["timing_protocol"] = protocol;
  doc["rows"] = r.rows;
  doc["series"] = r.series;
  doc["fits"] = r.fits;
  return doc;
}

}  // namespace gib
