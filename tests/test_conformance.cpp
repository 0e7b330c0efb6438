// The conformance battery as ctest cases, generated from the registries: one test case per
// method x compatible problem x preset (each covering the preset and two random initial conditions).
// A method gets all of this from its registry line alone.
#include <catch2/catch.hpp>
#include <algorithm>
#include <deque>
#include <filesystem>
#include <iterator>
#include <set>
#include <utility>
#include <vector>
#include <string>

#include "core/method.hpp"
#include "core/problem.hpp"
#include "harness/conformance.hpp"
#include "harness/json_util.hpp"
#include "harness/manifest.hpp"

namespace gibench_test_conformance {

namespace {

// The committed battery results (results/conformance.json), which the report's method pages show: every case below
// also holds them to the verdicts it computes, so the file cannot drift from the claims it reports on.
const gib::Json& committed_battery() {
  static const gib::Json doc = gib::read_json_file(std::filesystem::path(gib::project_root()) / "results" / "conformance.json");
  return doc;
}

std::string target_key(const std::string& method, const std::string& problem, const std::string& preset,
                       const std::string& ic) {
  std::string k = method;  // appends: GCC 12 warns falsely on a chain of string concatenations
  k += ' ';
  k += problem;
  k += '/';
  k += preset;
  k += ' ';
  k += ic;
  return k;
}

// claim -> verdict of one committed target, empty when the file lacks the target.
std::vector<std::pair<std::string, std::string>> committed_verdicts(const std::string& key) {
  std::vector<std::pair<std::string, std::string>> out;
  for (const auto& r : committed_battery().at("reports"))
    if (target_key(r.at("method"), r.at("problem"), r.at("preset"), r.at("ic")) == key)
      for (const auto& c : r.at("checks")) out.emplace_back(c.at("claim"), c.at("verdict"));
  return out;
}

class BatteryInvoker final : public Catch::ITestInvoker {
 public:
  BatteryInvoker(std::string method, std::string problem, std::string preset)
      : method_(std::move(method)), problem_(std::move(problem)), preset_(std::move(preset)) {}

  void invoke() const override {
    const gib::MethodInfo& m = gib::find_method(method_);
    int targets = 0;
    for (const auto& target : gib::conformance_targets(m)) {
      if (target.problem != problem_ || target.preset != preset_) continue;
      ++targets;
      const gib::ConformanceReport r = gib::run_conformance(m, target);
      for (const auto& c : r.checks) {
        INFO(method_ << " on " << problem_ << "/" << preset_ << " ic=" << target.ic << ": " << c.claim << ": " << c.detail);
        if (!c.expected_deviation.empty()) WARN(c.verdict() << " (expected deviation: " << c.expected_deviation << ")");
        // A failing or undecided claim needs an expected-deviation entry; an entry whose claim now passes has expired
        // (STALE) and fails too, so that results/expected_deviations.json never covers more than fails.
        INFO("verdict " << c.verdict());
        CHECK(c.acceptable());
      }
      std::vector<std::pair<std::string, std::string>> now;
      for (const auto& c : r.checks) now.emplace_back(c.claim, c.verdict());
      const std::string key = target_key(method_, problem_, preset_, target.ic);
      INFO("results/conformance.json disagrees on " << key
           << ": regenerate it (gibench conformance --out results/conformance.json)");
      CHECK(committed_verdicts(key) == now);
    }
    REQUIRE(targets == 3);  // the preset and two random initial conditions
  }

 private:
  std::string method_, problem_, preset_;
};

// Catch keeps StringRefs to test names, so the strings live here for the program's lifetime.
std::deque<std::string>& name_storage() {
  static std::deque<std::string> names;
  return names;
}

bool register_battery() {
  for (const auto& m : gib::method_registry()) {
    // One case per (problem, preset) the battery targets: stress presets and torque problems for
    // torque-free-only methods get no case, rather than an empty one that passes having checked nothing.
    std::vector<std::pair<std::string, std::string>> cases;
    for (const auto& t : gib::conformance_targets(m)) {
      const std::pair<std::string, std::string> key{t.problem, t.preset};
      if (std::find(cases.begin(), cases.end(), key) == cases.end()) cases.push_back(key);
    }
    for (const auto& [problem, preset] : cases) {
      auto& names = name_storage();
      names.push_back("conformance: " + m.id + " on " + problem + "/" + preset);
      names.push_back("[conformance][" + m.family + "]");
      const std::string& tags = names.back();
      const std::string& name = names[names.size() - 2];
      Catch::AutoReg reg(new BatteryInvoker(m.id, problem, preset), CATCH_INTERNAL_LINEINFO, "",
                         Catch::NameAndTags{name, tags});
    }
  }
  return true;
}

const bool registered = register_battery();

}  // namespace

// The committed file covers exactly the battery's targets: a new method, problem or preset without its results
// fails here, and so does a target the battery no longer runs.
TEST_CASE("results/conformance.json covers every battery target", "[conformance]") {
  std::set<std::string> battery, committed;
  for (const auto& m : gib::method_registry())
    for (const auto& t : gib::conformance_targets(m)) battery.insert(target_key(m.id, t.problem, t.preset, t.ic));
  for (const auto& r : committed_battery().at("reports"))
    committed.insert(target_key(r.at("method"), r.at("problem"), r.at("preset"), r.at("ic")));
  std::vector<std::string> missing, extra;
  std::set_difference(battery.begin(), battery.end(), committed.begin(), committed.end(), std::back_inserter(missing));
  std::set_difference(committed.begin(), committed.end(), battery.begin(), battery.end(), std::back_inserter(extra));
  INFO("missing from results/conformance.json: " << (missing.empty() ? "none" : missing.front()) << " (" << missing.size()
       << "); not a battery target: " << (extra.empty() ? "none" : extra.front()) << " (" << extra.size()
       << "); regenerate it with gibench conformance --out results/conformance.json");
  CHECK(missing.empty());
  CHECK(extra.empty());
}

}  // namespace gibench_test_conformance
