// The conformance battery as ctest cases, generated from the registries: one test case per
// method x compatible problem x preset (each covering the preset and two random initial conditions).
// A method gets all of this from its registry line alone.
#include <catch2/catch.hpp>
#include <algorithm>
#include <deque>
#include <utility>
#include <vector>
#include <string>

#include "core/method.hpp"
#include "core/problem.hpp"
#include "harness/conformance.hpp"

namespace {

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
