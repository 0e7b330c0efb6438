// Metrics are declared once (core/metrics.hpp), emitted through the declaration and documented in results/SCHEMA.md.
// This runs every compatible method on a cheap preset of every problem with every observer and probe on, and fails
// when a row carries a key that is not declared, a declaration is never emitted, SCHEMA.md misses a declared key, or
// SCHEMA.md's metric tables document a key that is not declared.
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <string>

#include "core/errors.hpp"
#include "core/metrics.hpp"
#include "core/method.hpp"
#include "core/problem.hpp"
#include "harness/manifest.hpp"
#include "harness/model_kinds.hpp"
#include "harness/runner.hpp"

namespace gibench_test_metric_schema {

namespace {

namespace metrics = gib::metrics;

struct Emitted {
  std::set<std::string> metric_keys;
  std::set<std::string> series_keys;
};

bool ends_with(const std::string& s, const std::string& suffix) {
  return s.size() > suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

// Every key a declaration expands into in row.metrics (quantities excluded: their names are the problems' own).
std::set<std::string> declared_metric_keys() {
  std::set<std::string> out;
  for (const metrics::Metric* m : metrics::all()) {
    if (m->family == metrics::Family::quantity) continue;
    for (const char* suffix : metrics::suffixes(m->family)) out.insert(metrics::key(*m, suffix));
    if (m->family == metrics::Family::relative_invariant)
      for (const char* suffix : {metrics::kMax, metrics::kFinal}) out.insert(metrics::absolute_name(m->name) + suffix);
  }
  return out;
}

// Names a series may carry: declared series, and every stem that is also tracked along the run.
std::set<std::string> declared_series_names() {
  std::set<std::string> out;
  for (const metrics::Metric* m : metrics::all()) {
    if (m->family == metrics::Family::scalar || m->family == metrics::Family::quantity) continue;
    out.insert(m->name);
    if (m->family == metrics::Family::relative_invariant) out.insert(metrics::absolute_name(m->name));
  }
  return out;
}

// The cheapest preset the battery runs (Kjer's N = 100 system is not one).
const gib::PresetInfo& cheap_preset(const gib::ProblemInfo& info) {
  for (const auto& p : info.presets)
    if (p.in_battery && !p.stress) return p;
  return info.presets.front();
}

const Emitted& emitted_by_every_problem() {
  static const Emitted all = [] {
    Emitted e;
    for (const auto& info : gib::problem_registry())
      for (const auto& m : gib::method_registry()) {
        if (!gib::compatible(m, info)) continue;
        gib::Cell c;
        c.problem = info.id;
        c.preset = cheap_preset(info).name;
        c.method = m.id;
        c.h = 1e-3;
        c.steps = 8;
        c.observe.ref_samples = 2;
        c.observe.series_points = 2;
        c.observe.series_state_err = true;
        c.observe.block_stats = true;
        c.observe.drift_blocks = 4;
        gib::visit_kind(info.kind, [&](auto kind) {
          for (const auto& s : decltype(kind)::type::kExtraSeries) c.observe.series_extra.emplace_back(s.name);
          for (const auto& s : decltype(kind)::type::kProbes) c.observe.probes.emplace_back(s.name);
        });
        gib::CellOutcome o;
        try {
          o = gib::run_cell(c);
        } catch (const gib::InputError&) {
          continue;  // the factory refuses this preset (a relaxed rotation needs a strict triangle inequality)
        }
        for (auto it = o.row["metrics"].begin(); it != o.row["metrics"].end(); ++it) e.metric_keys.insert(it.key());
        for (auto it = o.series.begin(); it != o.series.end(); ++it) e.series_keys.insert(it.key());
      }
    return e;
  }();
  return all;
}

// The quantities among the emitted keys: a name recorded as a series and summarised as _min, _max and _final.
std::set<std::string> quantities(const Emitted& e) {
  std::set<std::string> out;
  const auto declared = declared_series_names();
  for (const auto& s : e.series_keys)
    if (declared.count(s) == 0 && e.metric_keys.count(s + metrics::kMin) == 1) out.insert(s);
  return out;
}

std::string schema_text() {
  std::ifstream in(std::filesystem::path(gib::project_root()) / "results" / "SCHEMA.md");
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// The backticked names in the first column of the tables under "### Metrics ..." headings.
std::set<std::string> documented_metric_keys(const std::string& schema) {
  std::set<std::string> out;
  std::istringstream in(schema);
  std::string line;
  bool in_metrics = false;
  const std::regex code("`([^`]+)`");
  while (std::getline(in, line)) {
    if (line.rfind("#", 0) == 0) in_metrics = line.rfind("### Metrics", 0) == 0;
    if (!in_metrics || line.rfind("| `", 0) != 0) continue;
    const std::string first = line.substr(0, line.find(" |", 2));
    for (std::sregex_iterator it(first.begin(), first.end(), code), end; it != end; ++it) out.insert((*it)[1]);
  }
  return out;
}

bool documented(const std::string& schema, const std::string& key) { return schema.find("`" + key + "`") != std::string::npos; }

}  // namespace

TEST_CASE("every key a run emits is declared in core/metrics.hpp, and every declaration is emitted", "[metric_schema]") {
  const Emitted& e = emitted_by_every_problem();
  const auto declared = declared_metric_keys();
  const auto q = quantities(e);
  REQUIRE_FALSE(q.empty());  // the DNA chain's observables and RATTLE's multipliers
  for (const auto& k : e.metric_keys) {
    bool quantity = false;
    for (const char* suffix : metrics::suffixes(metrics::Family::quantity))
      quantity = quantity || (ends_with(k, suffix) && q.count(k.substr(0, k.size() - std::string(suffix).size())) == 1);
    INFO("row.metrics key " << k);
    CHECK((declared.count(k) == 1 || quantity));
    // Readers find a key's declaration (its range, its family) through resolve: every declared key resolves, and
    // an observable does not (nobody declares its range).
    CHECK((metrics::resolve(k).metric != nullptr) == (declared.count(k) == 1));
  }
  const auto series_names = declared_series_names();
  for (const auto& s : e.series_keys) {
    INFO("series key " << s);
    CHECK((series_names.count(s) == 1 || q.count(s) == 1));
    CHECK((metrics::resolve(s).metric != nullptr) == (q.count(s) == 0));
  }
  for (const auto& k : declared) {
    INFO("declared key never emitted: " << k);
    CHECK(e.metric_keys.count(k) == 1);
  }
  for (const metrics::Metric* m : metrics::all())
    if (m->family == metrics::Family::series) {
      INFO("declared series never emitted: " << m->name);
      CHECK(e.series_keys.count(m->name) == 1);
    }
}

TEST_CASE("results/SCHEMA.md documents exactly the declared metrics", "[metric_schema]") {
  const std::string schema = schema_text();
  REQUIRE(schema.size() > 1000);
  const auto declared = declared_metric_keys();
  for (const metrics::Metric* m : metrics::all()) {
    INFO("declaration " << m->name);
    switch (m->family) {
      case metrics::Family::invariant:
      case metrics::Family::relative_invariant:
        // The per-invariant keys by name, the statistics every invariant has through the <inv> pattern.
        CHECK(documented(schema, metrics::key(*m, metrics::kMax)));
        CHECK(documented(schema, metrics::key(*m, metrics::kFinal)));
        for (const char* suffix : {metrics::kDriftSlope, metrics::kDriftSlopeCi95, metrics::kClass, metrics::kBlocks})
          CHECK(documented(schema, std::string("<inv>") + suffix));
        if (m->family == metrics::Family::relative_invariant)
          CHECK(documented(schema, metrics::absolute_name(m->name) + metrics::kMax));
        break;
      case metrics::Family::quantity:
        for (const char* suffix : metrics::suffixes(m->family)) CHECK(documented(schema, metrics::key(*m, suffix)));
        break;
      default:
        for (const char* suffix : metrics::suffixes(m->family)) CHECK(documented(schema, metrics::key(*m, suffix)));
        if (m->family == metrics::Family::series) CHECK(documented(schema, m->name));
    }
  }
  // The other direction: a metric table row names only declared keys (or the <inv> / <observable> patterns).
  for (const auto& k : documented_metric_keys(schema)) {
    INFO("SCHEMA.md documents " << k);
    const bool pattern = k.rfind("<inv>", 0) == 0 || k.rfind("<observable>", 0) == 0;
    CHECK((declared.count(k) == 1 || pattern));
  }
}

TEST_CASE("a key resolves to its declaration and suffix, and carries the declared range", "[metric_schema]") {
  CHECK(metrics::resolve("state_err_max").metric == &metrics::state_err);
  CHECK(metrics::resolve("state_err_max").suffix == metrics::kMax);
  CHECK(metrics::resolve("energy_abs_err_final").metric == &metrics::energy_rel_err);
  CHECK(metrics::resolve("energy_abs_err").metric == &metrics::energy_rel_err);  // its series
  CHECK(metrics::resolve("energy_rel_err_drift_slope").suffix == metrics::kDriftSlope);
  CHECK(metrics::resolve("rot_2norm_final").metric->hi == 2);
  CHECK(metrics::resolve("rotation_per_step_max_deg").metric->hi == 180);
  CHECK(metrics::resolve("energy_final").metric->lo == -metrics::kUnbounded);
  CHECK(metrics::resolve("state_err_maximum").metric == nullptr);  // a suffix the family does not have
  CHECK(metrics::resolve("omega2_g_norm_final").metric == nullptr);  // an observable
  CHECK(metrics::resolve("state_er").metric == nullptr);
}

TEST_CASE("the schema check fails on an undeclared key and on an undocumented one", "[metric_schema]") {
  // What the two tests above would see if a runner emitted a key by string literal, or SCHEMA.md lost a row.
  const auto declared = declared_metric_keys();
  CHECK(declared.count("state_err_final") == 1);
  CHECK(declared.count("state_error_final") == 0);  // a typo'd literal is not declared
  std::string schema = schema_text();
  CHECK(documented(schema, "tip_err_final"));
  const auto at = schema.find("`tip_err_final`");
  schema.erase(at, std::string("`tip_err_final`").size());
  CHECK_FALSE(documented(schema, "tip_err_final"));
  CHECK(documented_metric_keys("### Metrics (x)\n| `made_up_final` | x |\n").count("made_up_final") == 1);
}

}  // namespace gibench_test_metric_schema
