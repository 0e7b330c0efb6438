// gibench check: the committed accuracy baselines must match a fresh run, and a perturbed coefficient in
// a copy of a method (injected under the registered id) must be caught as a regression. Both read
// results/expected_deviations.json, as gibench check does.
#include <catch2/catch.hpp>
#include <string>

#include "core/errors.hpp"
#include "harness/baseline.hpp"
#include "harness/expected_deviations.hpp"
#include "harness/json_util.hpp"
#include "methods/rkmk/rkmk.hpp"

namespace gibench_test_check {

namespace {

const gib::BaselineDefinition& fast_set() {
  static const auto all = gib::load_baseline_definitions();
  return gib::find_baseline(all, "freebody-fast");
}

// RKMK4 whose weights are off by 1e-6 (still summing to 1): consistent, but only first order.
gib::MethodInfo perturbed_rkmk4() {
  gib::rkmk::Tableau t = gib::rkmk::classical_rk4();
  t.b[0] = {1000006, 6000000};  // 1/6 + 1e-6
  t.b[3] = {999994, 6000000};   // 1/6 - 1e-6
  return gib::rkmk::method("rkmk4", "RKMK4 (perturbed)", t);
}

}  // namespace

TEST_CASE("tolerance bands compare in log space with a round-off floor", "[check]") {
  const gib::ToleranceBand band{1.5, 1e-12};
  double ratio = 0;
  CHECK(gib::compare_in_band(1e-6, 1.4e-6, band, &ratio) == 0);
  CHECK(ratio == Approx(1.4));
  CHECK(gib::compare_in_band(1e-6, 1.6e-6, band, &ratio) == 1);
  CHECK(gib::compare_in_band(1e-6, 0.6e-6, band, &ratio) == -1);
  CHECK(gib::compare_in_band(3e-15, 9e-13, band, &ratio) == 0);  // both round-off
  CHECK(gib::compare_in_band(3e-15, 2e-12, band, &ratio) == 1);  // left the round-off floor
  CHECK(gib::compare_in_band(-2e-6, 2e-6, band, &ratio) == 0);   // signed values compare by magnitude
}

TEST_CASE("the Buss baseline protects the printed digits: a change in the sixth digit of an energy is a regression",
          "[check]") {
  static const auto all = gib::load_baseline_definitions();
  const auto& def = gib::find_baseline(all, "buss2001-figs-fast");
  CHECK_FALSE(def.protects.empty());
  const gib::ToleranceBand& e = def.band("energy_final");
  // 82.1053 is printed to six digits: half a unit is 5e-5. Ours, 82.105263..., must not move that far.
  const double ours = 82.10526315789474;
  CHECK(gib::compare_in_band(ours, ours + 3e-5, e, nullptr) == 0);
  CHECK(gib::compare_in_band(ours, ours + 5e-5, e, nullptr) == 1);
  CHECK(gib::compare_in_band(ours, ours - 5e-5, e, nullptr) == -1);
  // 150.0 (complete failure) and 69.6595 sit at the ends of the printed range: the band stays below half a unit.
  CHECK(gib::compare_in_band(69.6595, 69.6595 + 5e-5, e, nullptr) == 1);
  // Figure 6: MR 1-2-3's error at its printed N = 514 lies 3e-4 below eps = 1e-3; a 2e-4 move must be caught.
  const gib::ToleranceBand& g = def.band("rot_geodesic_final");
  CHECK(gib::compare_in_band(9.9970e-4, 9.9970e-4 * (1 + 2e-4), g, nullptr) == 1);
}

TEST_CASE("the committed fast baselines match this build", "[check]") {
  const auto& def = fast_set();
  const gib::Json recorded = gib::read_json_file(gib::baseline_file(def));
  const gib::Json now = gib::record_baseline(def, {1, false, nullptr}, {});
  const auto report = gib::compare_baseline(def, recorded, now, gib::registry_catalog(), gib::load_expected_deviations());
  INFO(gib::check_report_text(report));
  CHECK_FALSE(report.failed());
  CHECK(report.cells > 500);
}

TEST_CASE("a perturbed coefficient in a copy of RKMK4 fails the check", "[check]") {
  const auto& def = fast_set();
  const gib::Json recorded = gib::read_json_file(gib::baseline_file(def));
  const gib::MethodCatalog injected({perturbed_rkmk4()});
  const gib::Json now = gib::record_baseline(def, {1, false, &injected}, {});
  const auto report = gib::compare_baseline(def, recorded, now, injected, gib::load_expected_deviations());
  const std::string text = gib::check_report_text(report);
  INFO(text);
  REQUIRE(report.failed());
  // The diff names the cell, the metric, both values and the ratio.
  CHECK(text.find("REGRESSION  free_rigid_body/") != std::string::npos);
  CHECK(text.find("state_err_final: baseline ") != std::string::npos);
  CHECK(text.find(", ratio ") != std::string::npos);
  int rkmk4_regressions = 0, others = 0;
  for (const auto& f : report.findings) {
    if (f.kind != "regression") continue;
    if (f.cell.find(" rkmk4{") != std::string::npos) ++rkmk4_regressions;
    else ++others;
  }
  CHECK(rkmk4_regressions > 0);
  CHECK(others == 0);  // only the perturbed method moved
}

TEST_CASE("cells missing from a run are mismatches", "[check]") {
  const auto& def = fast_set();
  gib::Json recorded = gib::read_json_file(gib::baseline_file(def));
  gib::Json now = recorded;
  now["cells"].erase(now["cells"].begin());
  const auto report = gib::compare_baseline(def, recorded, now, gib::registry_catalog(), gib::load_expected_deviations());
  REQUIRE(report.failed());
  CHECK(report.findings.front().kind == "mismatch");
}

TEST_CASE("a recorded baseline is checked field by field before it is compared", "[check]") {
  const auto& def = fast_set();
  const gib::Json recorded = gib::read_json_file(gib::baseline_file(def));
  CHECK_NOTHROW(gib::check_recorded_baseline(recorded, def, "base.json"));
  const auto error_of = [&](const gib::Json& doc) {
    try {
      gib::check_recorded_baseline(doc, def, "base.json");
    } catch (const gib::InputError& e) {
      return std::string(e.what());
    }
    return std::string("(accepted)");
  };
  gib::Json twice = recorded;
  twice["cells"].push_back(recorded["cells"][3]);
  const std::string key = recorded["cells"][3]["key"].get<std::string>();
  CHECK(error_of(twice).rfind("base.json: cells[" + std::to_string(recorded["cells"].size()) + "]: the cell '" +
                                  key.substr(0, 20),
                              0) == 0);
  gib::Json negative = recorded;
  negative["cells"][0]["metrics"]["state_err_final"] = -1e-6;
  CHECK(error_of(negative) == "base.json: cells[0].metrics.state_err_final: -1e-06 is not an error (finite and >= 0)");
  {  // energy_final is no error (Buss's figures print it): negative is fine
    static const auto all = gib::load_baseline_definitions();
    const auto& buss = gib::find_baseline(all, "buss2001-figs-fast");
    gib::Json doc = gib::read_json_file(gib::baseline_file(buss));
    doc["cells"][0]["metrics"]["energy_final"] = -82.1;
    CHECK_NOTHROW(gib::check_recorded_baseline(doc, buss, "buss.json"));
    doc["cells"][0]["metrics"]["rot_geodesic_final"] = -1e-3;
    CHECK_THROWS_AS(gib::check_recorded_baseline(doc, buss, "buss.json"), gib::InputError);
  }
  gib::Json text = recorded;
  text["cells"][0]["metrics"]["state_err_final"] = "small";
  CHECK(error_of(text) == "base.json: cells[0].metrics.state_err_final must be a number, got '\"small\"'");
  gib::Json no_key = recorded;
  no_key["cells"][1].erase("key");
  CHECK(error_of(no_key) == "base.json: cells[1].key: missing");
  gib::Json fit = recorded;
  fit["fits"][0]["ok"] = "yes";
  CHECK(error_of(fit) == "base.json: fits[0].ok must be true or false, got '\"yes\"'");
  CHECK(error_of(gib::Json::array()) == "base.json: not a recorded baseline (gibench check --update writes them)");
}

}  // namespace gibench_test_check
