#include "harness/baseline.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <set>
#include <sstream>

#include "core/errors.hpp"
#include "core/safe_file.hpp"
#include "core/user_input.hpp"
#include "harness/json_fields.hpp"
#include "harness/json_util.hpp"
#include "harness/model_kinds.hpp"
#include "harness/manifest.hpp"
#include "harness/order_fit.hpp"

namespace gib {

namespace fs = std::filesystem;

const ToleranceBand& BaselineDefinition::band(const std::string& metric) const {
  const auto it = bands.find(metric);
  return it == bands.end() ? default_band : it->second;
}

namespace {

ToleranceBand parse_band(const Json& j, const ToleranceBand& base, const std::string& where) {
  ToleranceBand b = base;
  if (!j.is_object()) throw InputError(where + ": a tolerance band is an object {factor, floor}");
  b.factor = j.value("factor", b.factor);
  b.floor = j.value("floor", b.floor);
  if (!(b.factor > 1) || !(b.floor >= 0)) throw InputError(where + ": tolerance needs factor > 1 and floor >= 0");
  return b;
}

BaselineDefinition parse_definition(const Json& j, const fs::path& path) {
  const std::string where = path.string();
  BaselineDefinition d;
  d.path = path;
  try {
    d.name = j.at("name").get<std::string>();
    d.description = j.value("description", std::string());
    d.protects = j.at("protects").get<std::string>();
    d.sweeps = j.at("sweeps");
    d.metrics = j.at("metrics").get<std::vector<std::string>>();
    d.order_tolerance = j.value("order_tolerance", d.order_tolerance);
    d.declared_order_tolerance = j.value("declared_order_tolerance", d.declared_order_tolerance);
  } catch (const Json::exception&) {
    throw InputError(where + ": a baseline needs name, sweeps (array), metrics (array of names) and protects (what its bands protect)");
  }
  if (!d.sweeps.is_array() || d.sweeps.empty()) throw InputError(where + ": sweeps must be a non-empty array");
  check_file_name_word(d.name, where + ".name");  // results/baselines/<name>.json
  const Json tol = j.value("tolerance", Json::object());
  d.default_band = parse_band(tol.value("default", Json::object()), d.default_band, where + ".tolerance.default");
  const Json per_metric = tol.value("per_metric", Json::object());
  for (const auto& [metric, band] : per_metric.items())
    d.bands[metric] = parse_band(band, d.default_band, where + ".tolerance.per_metric." + metric);
  return d;
}

std::string cell_key(const Json& row) {
  std::ostringstream k;
  k.precision(17);
  k << row.value("problem", "") << '/' << row.value("preset", "") << " ic=" << row.value("ic", "") << " params#"
    << row.value("param_hash", "") << ' ' << row.value("method", "") << row.value("method_params", Json::object()).dump()
    << " h=" << row.value("h", 0.0) << " steps=" << row.value("steps", 0);
  return k.str();
}

std::string fit_key(const Json& fit) {
  std::ostringstream k;
  k.precision(17);
  k << fit.value("problem", "") << '/' << fit.value("preset", "") << " ic=" << fit.value("ic", "") << " params#"
    << fit.value("param_hash", "") << ' ' << fit.value("method", "") << fit.value("method_params", Json::object()).dump()
    << " T=" << fit.value("T", 0.0) << ' ' << fit.value("metric", "");
  return k.str();
}

std::string num(const Json& v) {
  if (!v.is_number()) return v.dump();
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.4g", v.get<double>());
  return buf;
}

// A value that is a size, never negative (results/SCHEMA.md): an error against the reference (any kind's), the
// largest |error| of an invariant (<inv>_max), the manifold residual. <inv>_final is signed and energy_final is no
// error at all, so neither is checked for sign.
bool is_size_metric(const std::string& name) {
  for (const char* suffix : {"_final", "_max"}) {
    const std::string sfx = suffix;
    if (name.size() <= sfx.size() || name.compare(name.size() - sfx.size(), sfx.size(), sfx) != 0) continue;
    const std::string stem = name.substr(0, name.size() - sfx.size());
    if (is_reference_error_stem(stem)) return true;
    if (stem == "manifold_residual") return true;
    return sfx == "_max" && stem.size() > 4 && stem.compare(stem.size() - 4, 4, "_err") == 0;
  }
  return false;
}

void check_recorded_cell(const Json& c, const BaselineDefinition& def, const std::string& where) {
  json_field(c, "key", JsonKind::string, where);
  json_field(c, "status", JsonKind::string, where);
  const Json& metrics = json_field(c, "metrics", JsonKind::object, where);
  for (const auto& m : def.metrics) {
    const Json* v = json_optional_field(metrics, m, JsonKind::number, where + ".metrics");
    if (v == nullptr) continue;
    const double x = v->get<double>();
    if (!std::isfinite(x) || (x < 0 && is_size_metric(m)))
      throw InputError(where + ".metrics." + m + ": " + number_text(x) + " is not an error (finite and >= 0)");
  }
}

void check_recorded_fit(const Json& f, const std::string& where) {
  for (const char* key : {"key", "method", "problem", "preset", "ic"}) json_field(f, key, JsonKind::string, where);
  const bool ok = json_field(f, "ok", JsonKind::boolean, where).get<bool>();
  json_field(f, "conclusive", JsonKind::boolean, where);
  const Json* order = json_optional_field(f, "order_hat", JsonKind::number, where);
  if (ok && order == nullptr) throw InputError(where + ".order_hat: missing, but the fit is ok");
  json_optional_field(f, "ci95", JsonKind::array, where);
  json_optional_field(f, "window", JsonKind::object, where);
}

// Each entry once: a repeated key would be compared twice against one fresh value, or hide a changed one.
void check_unique_keys(const Json& entries, const char* what, const std::string& where) {
  std::set<std::string> seen;
  std::size_t i = 0;
  for (const auto& e : entries) {
    const std::string& key = e["key"].get_ref<const std::string&>();
    if (!seen.insert(key).second)
      throw InputError(where + "[" + std::to_string(i) + "]: the " + what + " " + quote_excerpt(key) + " appears twice");
    ++i;
  }
}

}  // namespace

void check_recorded_baseline(const Json& doc, const BaselineDefinition& def, const std::string& where) {
  const std::string root = where + ":";
  const Json* kind = doc.is_object() ? json_optional_field(doc, "kind", JsonKind::string, root) : nullptr;
  if (kind == nullptr || *kind != "gibench.baseline")
    throw InputError(where + ": not a recorded baseline (gibench check --update writes them)");
  const Json& cells = json_field(doc, "cells", JsonKind::array, root);
  const Json& fits = json_field(doc, "fits", JsonKind::array, root);
  for (std::size_t i = 0; i < cells.size(); ++i) check_recorded_cell(cells[i], def, where + ": cells[" + std::to_string(i) + "]");
  for (std::size_t i = 0; i < fits.size(); ++i) check_recorded_fit(fits[i], where + ": fits[" + std::to_string(i) + "]");
  check_unique_keys(cells, "cell", where + ": cells");
  check_unique_keys(fits, "fit", where + ": fits");
}

Json load_recorded_baseline(const BaselineDefinition& def) {
  const fs::path file = baseline_file(def);
  if (!fs::exists(file)) throw InputError("no recorded baseline " + file.string() + " (record it with gibench check --update)");
  Json doc = read_json_file(file);
  check_recorded_baseline(doc, def, file.string());
  return doc;
}

std::vector<BaselineDefinition> load_baseline_definitions() {
  std::vector<BaselineDefinition> out;
  const fs::path dir = fs::path(project_root()) / "harness" / "baselines";
  if (!fs::is_directory(dir)) throw InputError("baseline definitions not found in " + dir.string());
  for (const auto& e : fs::directory_iterator(dir))
    if (e.path().extension() == ".json") out.push_back(parse_definition(read_json_file(e.path()), e.path()));
  std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.name < b.name; });
  return out;
}

const BaselineDefinition& find_baseline(const std::vector<BaselineDefinition>& all, const std::string& name) {
  std::vector<std::string> valid;
  for (const auto& d : all) {
    if (d.name == name) return d;
    valid.push_back(d.name);
  }
  throw InputError(unknown_id_message("baseline", name, valid));
}

fs::path baseline_file(const BaselineDefinition& def) {
  return fs::path(project_root()) / "results" / "baselines" / (def.name + ".json");
}

Json record_baseline(const BaselineDefinition& def, const SweepOptions& opt, const std::vector<std::string>& command_line) {
  Json cells = Json::array(), fits = Json::array();
  int k = 0;
  for (const auto& cfg : def.sweeps) {
    SweepSpec spec = parse_sweep(cfg, def.path.string() + ".sweeps[" + std::to_string(k++) + "]");
    for (auto& c : spec.cells) c.timing.reps = 0;
    const SweepResult r = run_sweep(spec, opt);
    for (const auto& row : r.rows) {
      Json metrics = Json::object();
      for (const auto& m : def.metrics) metrics[m] = row.value("metrics", Json::object()).value(m, Json(nullptr));
      cells.push_back({{"key", cell_key(row)}, {"method", row.value("method", "")}, {"status", row.value("status", "")},
                       {"metrics", metrics}});
    }
    for (const auto& f : r.fits)
      fits.push_back({{"key", fit_key(f)},
                      {"method", f.value("method", "")},
                      {"problem", f.value("problem", "")},
                      {"preset", f.value("preset", "")},
                      {"ic", f.value("ic", "")},
                      {"ok", f.value("ok", false)},
                      {"conclusive", f.value("conclusive", false)},
                      {"order_hat", f.value("order_hat", Json(nullptr))},
                      {"ci95", f.value("ci95", Json(nullptr))},
                      {"window", f.value("window", Json(nullptr))}});
  }
  return {{"schema_version", 1}, {"kind", "gibench.baseline"}, {"name", def.name},
          {"description", def.description}, {"manifest", build_manifest(command_line, Json::object())},
          {"cells", cells}, {"fits", fits}};
}

int compare_in_band(double base, double now, const ToleranceBand& band, double* ratio) {
  const double b = std::max(std::abs(base), band.floor);
  const double n = std::max(std::abs(now), band.floor);
  const double r = b > 0 ? n / b : (n > 0 ? INFINITY : 1.0);
  if (ratio != nullptr) *ratio = r;
  if (r > band.factor) return 1;
  if (r < 1.0 / band.factor) return -1;
  return 0;
}

namespace {

class Comparer {
 public:
  Comparer(const BaselineDefinition& def, const MethodCatalog& methods, const std::vector<ExpectedDeviation>& deviations,
           CheckReport& report)
      : def_(def), methods_(methods), deviations_(deviations), r_(report) {}

  void cells(const Json& base, const Json& now);
  void fits(const Json& base, const Json& now);

 private:
  void add(const std::string& kind, const std::string& cell, const std::string& metric, const Json& b, const Json& n,
           double ratio, const std::string& note) {
    r_.findings.push_back({kind, cell, metric, b, n, ratio, note});
  }
  void metric(const std::string& cell, const std::string& name, const Json& b, const Json& n);
  void declared_order(const Json& fit);

  const BaselineDefinition& def_;
  const MethodCatalog& methods_;
  const std::vector<ExpectedDeviation>& deviations_;
  CheckReport& r_;
};

void Comparer::metric(const std::string& cell, const std::string& name, const Json& b, const Json& n) {
  ++r_.values;
  if (b.is_null() && n.is_null()) return;
  if (b.is_null() != n.is_null()) {
    add("regression", cell, name, b, n, 0, "value appeared or vanished");
    return;
  }
  const ToleranceBand& band = def_.band(name);
  double ratio = 1;
  const int c = compare_in_band(b.get<double>(), n.get<double>(), band, &ratio);
  if (c != 0) {
    char note[64];
    std::snprintf(note, sizeof note, "band x%.3g, floor %.3g", band.factor, band.floor);
    add(c > 0 ? "regression" : "improvement", cell, name, b, n, ratio, note);
  }
}

void Comparer::cells(const Json& base, const Json& now) {
  std::map<std::string, const Json*> by_key;
  for (const auto& c : now) by_key[c.value("key", "")] = &c;
  std::set<std::string> seen;
  for (const auto& b : base) {
    const std::string key = b.value("key", "");
    seen.insert(key);
    ++r_.cells;
    const auto it = by_key.find(key);
    if (it == by_key.end()) {
      add("mismatch", key, "", nullptr, nullptr, 0, "cell in the baseline but not in this run (definition changed? --update)");
      continue;
    }
    const Json& n = *it->second;
    if (b.value("status", "") != n.value("status", "")) add("regression", key, "status", b["status"], n["status"], 0, "");
    for (const auto& m : def_.metrics)
      metric(key, m, b["metrics"].value(m, Json(nullptr)), n["metrics"].value(m, Json(nullptr)));
  }
  for (const auto& n : now)
    if (!seen.count(n.value("key", "")))
      add("mismatch", n.value("key", ""), "", nullptr, nullptr, 0, "cell not in the baseline (new method or cell: --update)");
}

// The declared order is checked only on a conclusive fit (order_fit.hpp); an undecided one is reported as
// inconclusive, never as a pass. An expected deviation whose fit now agrees has expired: that fails too.
void Comparer::declared_order(const Json& fit) {
  if (!fit.value("ok", false) || !fit["order_hat"].is_number()) return;
  const MethodInfo& m = methods_.find(fit.value("method", ""));
  const double order = fit["order_hat"].get<double>();
  const double tol = def_.declared_order_tolerance;
  const std::string key = fit.value("key", "");
  const Json declared = m.claims.order;
  if (!fit.value("conclusive", false)) {
    std::string why;
    fit_json_conclusive(fit, &why);
    add("inconclusive", key, "declared order", declared, fit["order_hat"], 0, why);
    return;
  }
  const bool agrees = order >= m.claims.order - tol && order <= m.claims.max_observable_order() + tol;
  const auto* d = find_expected_deviation(deviations_, m.id, fit.value("problem", ""), fit.value("preset", ""), fit.value("ic", ""),
                                          "baseline_order");
  if (agrees) {
    if (d != nullptr) add("stale", key, "declared order", declared, fit["order_hat"], 0, "the expected deviation has expired: remove it");
    return;
  }
  if (d != nullptr) {
    add("expected_deviation", key, "declared order", declared, fit["order_hat"], 0, d->reason);
    return;
  }
  add("regression", key, "declared order", declared, fit["order_hat"], 0,
      "fitted order differs from the declared one by more than " + num(def_.declared_order_tolerance));
}

void Comparer::fits(const Json& base, const Json& now) {
  std::map<std::string, const Json*> by_key;
  for (const auto& f : now) by_key[f.value("key", "")] = &f;
  for (const auto& b : base) {
    ++r_.fits;
    const std::string key = b.value("key", "");
    const auto it = by_key.find(key);
    if (it == by_key.end()) {
      add("mismatch", key, "order", nullptr, nullptr, 0, "fit in the baseline but not in this run");
      continue;
    }
    const Json& n = *it->second;
    const bool bok = b.value("ok", false), nok = n.value("ok", false);
    if (bok && !nok) add("regression", key, "order", b["order_hat"], nullptr, 0, "the order fit no longer succeeds");
    if (!bok && nok) add("improvement", key, "order", nullptr, n["order_hat"], 0, "an order fit now succeeds");
    if (bok && nok && std::abs(b["order_hat"].get<double>() - n["order_hat"].get<double>()) > def_.order_tolerance)
      add("regression", key, "order", b["order_hat"], n["order_hat"], 0, "fitted order moved by more than " + num(def_.order_tolerance));
    declared_order(n);
  }
}

}  // namespace

CheckReport compare_baseline(const BaselineDefinition& def, const Json& recorded, const Json& now,
                             const MethodCatalog& methods, const std::vector<ExpectedDeviation>& deviations) {
  check_recorded_baseline(recorded, def, "the recorded baseline " + def.name);
  CheckReport r;
  r.name = def.name;
  Comparer c(def, methods, deviations, r);
  c.cells(recorded.value("cells", Json::array()), now.value("cells", Json::array()));
  c.fits(recorded.value("fits", Json::array()), now.value("fits", Json::array()));
  return r;
}

bool CheckReport::failed() const {
  for (const auto& f : findings)
    if (f.kind == "regression" || f.kind == "mismatch" || f.kind == "stale") return true;
  return false;
}

std::string check_report_text(const CheckReport& r) {
  std::ostringstream out;
  std::map<std::string, int> count;
  for (const auto& f : r.findings) {
    ++count[f.kind];
    std::string kind = f.kind;
    std::transform(kind.begin(), kind.end(), kind.begin(), [](unsigned char ch) { return static_cast<char>(std::toupper(ch)); });
    out << kind << "  " << f.cell;
    if (!f.metric.empty()) out << "  " << f.metric << ": baseline " << num(f.base) << ", now " << num(f.now);
    if (f.ratio != 0) out << ", ratio " << num(f.ratio);
    if (!f.note.empty()) out << " (" << f.note << ")";
    out << '\n';
  }
  out << "check " << r.name << ": " << r.cells << " cells, " << r.values << " values, " << r.fits << " order fits: "
      << count["regression"] << " regression(s), " << count["mismatch"] << " mismatch(es), " << count["stale"]
      << " expired expected deviation(s), " << count["improvement"] << " improvement(s), " << count["expected_deviation"]
      << " expected deviation(s), " << count["inconclusive"] << " inconclusive declared-order fit(s)\n";
  return out.str();
}

Json check_report_json(const CheckReport& r) {
  Json findings = Json::array();
  for (const auto& f : r.findings)
    findings.push_back({{"kind", f.kind}, {"cell", f.cell}, {"metric", f.metric}, {"baseline", f.base},
                        {"now", f.now}, {"ratio", json_number(f.ratio)}, {"note", f.note}});
  return {{"name", r.name}, {"cells", r.cells}, {"values", r.values}, {"fits", r.fits}, {"failed", r.failed()},
          {"findings", findings}};
}

}  // namespace gib
