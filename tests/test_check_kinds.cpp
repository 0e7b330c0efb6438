// The table of figure check kinds (harness/check_kinds.hpp) is complete: every kind the committed figure specs use
// has exactly one entry and every entry is used by one, and a spec naming a kind the table lacks is refused when
// the specs load, in one line that lists the valid kinds.
#include <catch2/catch.hpp>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <string>

#include "core/errors.hpp"
#include "harness/check_kinds.hpp"
#include "harness/reproduce.hpp"

namespace gibench_test_check_kinds {

namespace {

using gib::Json;
namespace fs = std::filesystem;

// GIBENCH_ROOT names another tree for as long as it lives (project_root(), harness/manifest.hpp).
class OtherRoot {
 public:
  explicit OtherRoot(const fs::path& root) {
    if (const char* r = std::getenv("GIBENCH_ROOT")) saved_ = r, had_ = true;
    ::setenv("GIBENCH_ROOT", root.c_str(), 1);
  }
  ~OtherRoot() {
    if (had_) ::setenv("GIBENCH_ROOT", saved_.c_str(), 1);
    else ::unsetenv("GIBENCH_ROOT");
  }
  OtherRoot(const OtherRoot&) = delete;
  OtherRoot& operator=(const OtherRoot&) = delete;

 private:
  std::string saved_;
  bool had_ = false;
};

// What loading the figure specs of a tree holding `spec` alone says, or "" when it loads.
std::string load_error(const Json& spec) {
  const fs::path root = gib::make_private_temp_dir("gibench-check-kinds");
  fs::create_directories(root / "harness" / "figures");
  std::ofstream(root / "harness" / "figures" / "bad.json") << spec.dump(1);
  std::string what;
  {
    OtherRoot other(root);
    try {
      (void)gib::load_figure_specs();
    } catch (const gib::InputError& e) {
      what = e.what();
    }
  }
  fs::remove_all(root);
  return what;
}

}  // namespace

TEST_CASE("every kind the figure specs use has one entry in the table, and every entry is used", "[figure_checks][check_kinds]") {
  std::set<std::string> declared, used;
  for (const auto& k : gib::check_kinds()) {
    INFO(k.name);
    CHECK(declared.insert(k.name).second);
    CHECK(k.evaluate != nullptr);
    CHECK(gib::find_check_kind(k.name) == &k);
  }
  int checks = 0;
  for (const auto& fig : gib::load_figure_specs())
    for (const auto& c : fig.spec["checks"]) {
      INFO(fig.id << ": " << c.value("statement", ""));
      ++checks;
      CHECK_NOTHROW(gib::check_kind(c));
      used.insert(c.value("kind", ""));
    }
  CHECK(checks > 400);
  CHECK(used == declared);
}

TEST_CASE("a figure spec with a misspelt check kind is refused when it loads, naming the valid kinds", "[figure_checks][check_kinds]") {
  const Json good = {{"kind", "series_stat"}, {"statement", "the spread is small"}, {"where", {{"method", "rkmk4"}}},
                     {"stat", "spread"}, {"at_most", 1e-3}};
  Json spec = {{"id", "bad"}, {"sweeps", Json::array()}, {"checks", {good}}};
  CHECK(load_error(spec).empty());

  spec["checks"][0]["kind"] = "series_stats";
  const std::string what = load_error(spec);
  INFO(what);
  CHECK(what.find("bad.json: check 'the spread is small': unknown kind 'series_stats' (valid: ") == 0);
  for (const auto& k : gib::check_kinds()) CHECK(what.find(k.name) != std::string::npos);
  CHECK(what.find('\n') == std::string::npos);

  // No kind at all, or one that is not a string, is refused the same way.
  spec["checks"][0].erase("kind");
  CHECK(load_error(spec).find("unknown kind '' (valid: order, ") != std::string::npos);
  spec["checks"][0]["kind"] = 3;
  CHECK(load_error(spec).find("unknown kind '3' (valid: order, ") != std::string::npos);
}

}  // namespace gibench_test_check_kinds
