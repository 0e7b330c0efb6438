// Figure check kinds on what particles do (orientation_rule, particle_fates), on hand-made rows and series whose
// answers are known.
#include <catch2/catch.hpp>
#include <cmath>
#include <numbers>

#include "core/errors.hpp"
#include "harness/figure_verdict.hpp"
#include "harness/particle_checks.hpp"

namespace gibench_test_particle_checks {

namespace {

using gib::Json;

constexpr double kT = 0.2;

double rad(double deg) { return deg * std::numbers::pi / 180; }

// A planar pair at rest, `separation` apart along the direction `axis_deg`, with dipoles at a1, a2 degrees from the
// separation, whose distance after T moved as a radial acceleration `accel` would move it. mu_bar = (1, 1, 0), as
// the planar presets, so Q_i = R_z(axis + a_i - 45 deg).
Json pair_row(double a1, double a2, double accel, double axis_deg = 0, double separation = 2.0) {
  const double ux = std::cos(rad(axis_deg)), uy = std::sin(rad(axis_deg));
  auto rotation = [&](double a) {
    const double t = rad(axis_deg + a - 45), c = std::cos(t), s = std::sin(t);
    return Json{c, -s, 0.0, s, c, 0.0, 0.0, 0.0, 1.0};
  };
  const double r1 = separation + 0.5 * accel * kT * kT;
  auto at = [&](double along) { return Json{along * ux, along * uy, 0.0}; };
  Json params = {{"q0", {at(-separation / 2), at(separation / 2)}},
                 {"Q0", {rotation(a1), rotation(a2)}},
                 {"p0", {{0.0, 0.0, 0.0}, {0.0, 0.0, 0.0}}},
                 {"m0", {{0.0, 0.0, 0.0}, {0.0, 0.0, 0.0}}},
                 {"mu_bar", {1.0, 1.0, 0.0}},
                 {"sigma", 1.0},
                 {"epsilon", 1.0},
                 {"short_range", "soft_sphere"},
                 {"cutoff", 0.0}};
  return {{"method", "rkmk4"}, {"T", kT}, {"status", "ok"}, {"params", params},
          {"final_state", {{"q", {at(-r1 / 2), at(r1 / 2)}}}}};
}

Json rule_check(const std::string& stat) {
  return {{"kind", "orientation_rule"}, {"statement", "differ by more than 90 degrees: repel"}, {"stat", stat},
          {"where", {{"method", "rkmk4"}}}, {"at_least", 1}};
}

}  // namespace

TEST_CASE("orientation_rule: the rule on average, per configuration, and against the dipole energy", "[figure_checks][particle]") {
  // Two differences, three mean angles each. d = 0: two attract, one repels (side by side), mean attract;
  // d = 180: two repel, one attracts, mean repel. On average the rule holds for both; per pair for 4 of 6.
  Json rows = Json::array({pair_row(10, 10, -1.0), pair_row(40, 40, -1.0), pair_row(100, 100, 0.5),
                           pair_row(100, -80, -0.4), pair_row(10, 190, 1.0), pair_row(40, 220, 1.0)});
  Json v = gib::check_orientation_rule(rule_check("on_average"), rows);
  CHECK(v["ours"].get<double>() == 1.0);
  CHECK(v["verdict"] == "reproduced");
  REQUIRE(v["by_difference"].size() == 2);
  CHECK(v["by_difference"][0]["d_deg"].get<double>() == Approx(0).margin(1e-9));
  CHECK(v["by_difference"][0]["attract"] == 2);
  CHECK(v["by_difference"][0]["mean_accel"].get<double>() == Approx(-0.5).epsilon(1e-9));
  CHECK(v["by_difference"][1]["d_deg"].get<double>() == Approx(180).epsilon(1e-12));
  CHECK(v["by_difference"][1]["mean_accel"].get<double>() == Approx(1.6 / 3).epsilon(1e-9));

  // Configuration by configuration the rule misses 2 of 6: the check that wants every pair fails.
  v = gib::check_orientation_rule(rule_check("per_configuration"), rows);
  CHECK(v["ours"].get<double>() == Approx(4.0 / 6).epsilon(1e-12));
  CHECK(v["verdict"] == "refuted");
  Json lenient = rule_check("per_configuration");
  lenient.erase("at_least");
  lenient["range"] = {0.6, 0.7};
  CHECK(gib::check_orientation_rule(lenient, rows)["verdict"] == "reproduced");

  // The signs above are the point-dipole energy's: side by side parallel repels, antiparallel attracts; at 40 deg
  // from the separation parallel dipoles attract (3 cos^2 40 > 1), and so on.
  v = gib::check_orientation_rule(rule_check("dipole_theory"), rows);
  CHECK(v["ours"].get<double>() == 1.0);
  rows[2] = pair_row(100, 100, -0.5);  // a side-by-side parallel pair that attracts would be a wrong force
  v = gib::check_orientation_rule(rule_check("dipole_theory"), rows);
  CHECK(v["ours"].get<double>() == Approx(5.0 / 6).epsilon(1e-12));
  CHECK(v["verdict"] == "refuted");
}

TEST_CASE("orientation_rule: angles from the separation, whatever its direction, and d = 90 not counted", "[figure_checks][particle]") {
  // The same physical pairs turned by 70 deg and with the particles' order swapped (axis + 180) give the same answers.
  for (const double axis : {0.0, 70.0, 250.0}) {
    INFO("axis " << axis);
    Json rows = Json::array({pair_row(0, 0, -1.0, axis), pair_row(90, 90, 0.4, axis), pair_row(45, -45, -0.2, axis),
                             pair_row(0, 180, 0.8, axis)});
    Json v = gib::check_orientation_rule(rule_check("per_configuration"), rows);
    // d = 0 attracts (agrees), d = 0 side by side repels (disagrees), d = 90 silent (and attracts, as the dipole
    // energy says), d = 180 repels (agrees).
    CHECK(v["ours"].get<double>() == Approx(2.0 / 3).epsilon(1e-12));
    CHECK_THAT(v["reason"].get<std::string>(), Catch::Matchers::Contains("1 pairs at d = 90 deg"));
    CHECK(gib::check_orientation_rule(rule_check("dipole_theory"), rows)["ours"].get<double>() == 1.0);
  }
}

TEST_CASE("orientation_rule: rows it cannot use have no data, a failed run refutes", "[figure_checks][particle]") {
  const Json c = rule_check("on_average");
  CHECK(gib::check_orientation_rule(c, Json::array())["verdict"] == "no data");
  Json moving = pair_row(0, 0, -1.0);
  moving["params"]["p0"][0][0] = 0.1;
  CHECK(gib::check_orientation_rule(c, Json::array({moving}))["verdict"] == "no data");
  Json three = pair_row(0, 0, -1.0);
  three["params"]["q0"].push_back({5.0, 0.0, 0.0});
  CHECK(gib::check_orientation_rule(c, Json::array({three}))["verdict"] == "no data");
  Json failed = pair_row(0, 0, -1.0);
  failed["status"] = "diverged";
  CHECK(gib::check_orientation_rule(c, Json::array({failed}))["verdict"] == "refuted");
  CHECK_THROWS_AS(gib::check_orientation_rule(rule_check("majority"), Json::array({pair_row(0, 0, -1.0)})), gib::InputError);
}

namespace {

// Five particles over 10 samples, centre of mass moving: 1 and 2 1.2 apart throughout; 3 flies off alone; 4 flies
// off the other way with 5, which joins it (1.0 apart) from the sixth sample on and is 3 away before.
Json fates_series() {
  Json q = Json::array();
  for (int k = 0; k < 10; ++k) {
    const double out = 5 + 2 * k;
    q.push_back({{-0.6, 0.0, 0.0}, {0.6, 0.0, 0.0}, {0.0, out, 0.0}, {0.0, -out, 0.0}, {k < 5 ? 3.0 : 1.0, -out, 0.0}});
  }
  return Json::array({{{"row", 0}, {"t", Json::array()}, {"q", q}}});
}

Json fates_row() { return Json::array({{{"method", "rkmk4"}, {"h", 0.05}, {"status", "ok"}}}); }

Json fates_check(const std::string& stat) {
  Json c = {{"kind", "particle_fates"}, {"statement", "some pairs bond, others are pushed out"}, {"stat", stat},
            {"where", {{"method", "rkmk4"}}}, {"particles", 5}, {"bond_distance", 1.5}, {"at_least", 1}};
  if (stat == "pushed_out") c["grow_by"] = 5;
  return c;
}

}  // namespace

TEST_CASE("particle_fates: pushed out alone, bonded pairs, and a bound that fails", "[figure_checks][particle]") {
  // 3 recedes by 21.6 alone; 4 recedes by 14.4 but ends 1.0 from 5; 1 and 2 recede by 3.5 only (the centre of
  // mass follows 4 and 5).
  Json v = gib::check_particle_fates(fates_check("pushed_out"), fates_row(), fates_series());
  CHECK(v["ours"].get<double>() == 1);
  CHECK(v["verdict"] == "reproduced");
  CHECK_THAT(v["reason"].get<std::string>(), Catch::Matchers::Contains("3 (+21.6"));
  CHECK_THAT(v["reason"].get<std::string>(), Catch::Matchers::Contains("Receded but bonded: 4"));
  Json c = fates_check("pushed_out");
  c["grow_by"] = 25;  // nobody recedes that far
  CHECK(gib::check_particle_fates(c, fates_row(), fates_series())["verdict"] == "refuted");

  // (1, 2) within 1.5 in every sample, (4, 5) in half of them.
  c = fates_check("bonded_throughout");
  v = gib::check_particle_fates(c, fates_row(), fates_series());
  CHECK(v["ours"].get<double>() == 1);
  CHECK(v["verdict"] == "reproduced");
  CHECK_THAT(v["reason"].get<std::string>(), Catch::Matchers::Contains("(4, 5) 50 %"));
  c["at_least"] = 2;
  CHECK(gib::check_particle_fates(c, fates_row(), fates_series())["verdict"] == "refuted");
  c["min_share"] = 0.5;
  CHECK(gib::check_particle_fates(c, fates_row(), fates_series())["ours"].get<double>() == 2);
}

TEST_CASE("particle_fates: its count's range comes from N, wrong sizes and missing fields are caught", "[figure_checks][particle]") {
  // Pushed-out particles lie in [0, N], bonded pairs in [0, N(N-1)/2]: bounds that pass or miss everything are refused.
  Json c = fates_check("pushed_out");
  CHECK(gib::attainable_range(c).hi == 5);
  c.erase("at_least");
  c["at_most"] = 5;
  CHECK_THROWS_AS(gib::check_criterion(c), gib::InputError);
  c = fates_check("bonded_throughout");
  CHECK(gib::attainable_range(c).hi == 10);
  c["at_least"] = 11;
  CHECK_THROWS_AS(gib::check_criterion(c), gib::InputError);
  c.erase("particles");
  CHECK_THROWS_AS(gib::check_criterion(c), gib::InputError);
  CHECK(gib::check_criterion(fates_check("bonded_throughout")).integer);

  // A run of another size, a failed run, no series, pushed_out without grow_by.
  c = fates_check("bonded_throughout");
  c["particles"] = 6;
  CHECK(gib::check_particle_fates(c, fates_row(), fates_series())["verdict"] == "no data");
  Json failed = fates_row();
  failed[0]["status"] = "nonfinite";
  CHECK(gib::check_particle_fates(fates_check("pushed_out"), failed, fates_series())["verdict"] == "refuted");
  CHECK(gib::check_particle_fates(fates_check("pushed_out"), fates_row(), Json::array())["verdict"] == "no data");
  c = fates_check("pushed_out");
  c.erase("grow_by");
  CHECK_THROWS_AS(gib::check_particle_fates(c, fates_row(), fates_series()), gib::InputError);
}

}  // namespace gibench_test_particle_checks
