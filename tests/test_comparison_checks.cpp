// Figure check kinds that compare methods (metric_ratio, best) or summarise a series (series_stat), on
// hand-made rows whose answers are known.
#include <catch2/catch.hpp>
#include <cmath>

#include "core/errors.hpp"
#include "harness/comparison_checks.hpp"
#include "harness/reproduce.hpp"

namespace gibench_test_comparison_checks {

namespace {

using gib::Json;

Json row(const std::string& method, double err, const std::string& status = "ok") {
  return {{"method", method}, {"h", 0.1}, {"status", status}, {"metrics", {{"err", err}}}};
}

Json rows() { return Json::array({row("imid", 1e-4), row("trap", 2e-4), row("akw", 2.1e-3), row("bbtrap", -3.2e-3)}); }

}  // namespace

TEST_CASE("metric_ratio divides one row's metric by another's and judges the result", "[figure_checks]") {
  Json c = {{"statement", "AKW is an order of magnitude less accurate"}, {"metric", "err"},
            {"numerator", {{"method", "akw"}}}, {"denominator", {{"method", "imid"}}}, {"at_least", 5}};
  Json v = gib::check_metric_ratio(c, rows());
  CHECK(v["ours"].get<double>() == Approx(21.0));
  CHECK(v["verdict"] == "reproduced");
  c["at_least"] = 30;
  CHECK(gib::check_metric_ratio(c, rows())["verdict"] == "refuted");
  c.erase("at_least");
  c["paper_value"] = 32;  // |metric| is used: bbtrap's signed -3.2e-3 counts as 3.2e-3
  c["rel_tol"] = 0.01;
  c["numerator"] = {{"method", "bbtrap"}};
  CHECK(gib::check_metric_ratio(c, rows())["verdict"] == "reproduced");
  c["numerator"] = {{"h", 0.1}};  // four rows match: not a single row
  CHECK(gib::check_metric_ratio(c, rows())["verdict"] == "no data");
}

TEST_CASE("best names the method with the smallest error, optionally within a factor", "[figure_checks]") {
  Json c = {{"kind", "best"}, {"statement", "IMID is the most accurate"}, {"metric", "err"}, {"where", {{"h", 0.1}}}, {"expected", "imid"}};
  Json v = gib::check_best(c, rows());
  CHECK(v["ours"] == "imid");
  CHECK(v["verdict"] == "reproduced");
  c["expected"] = "trap";
  CHECK(gib::check_best(c, rows())["verdict"] == "refuted");
  c["within"] = 2.5;  // trap is 2x the best: a tie within a factor 2.5
  CHECK(gib::check_best(c, rows())["verdict"] == "reproduced");
  Json failed = rows();
  failed[0]["status"] = "diverged";  // a failed run is never the best
  c.erase("within");
  CHECK(gib::check_best(c, failed)["ours"] == "trap");
}

TEST_CASE("series_stat: spread, std, block means and block widths of a recorded series", "[figure_checks]") {
  // 10 blocks of 10 samples: a stationary oscillation of amplitude 0.01, then the same with a drift.
  Json series = Json::array();
  Json flat = Json::array(), drift = Json::array();
  for (int i = 0; i < 100; ++i) {
    const double osc = 0.01 * std::sin(2 * M_PI * i / 10.0);
    flat.push_back(osc);
    drift.push_back(osc + 0.001 * i);
  }
  series.push_back({{"row", 0}, {"energy_rel_err", flat}});
  series.push_back({{"row", 1}, {"energy_rel_err", drift}});
  const Json r = Json::array({row("imid", 0), row("akw", 0)});
  Json c = {{"statement", "stationary"}, {"where", {{"method", "imid"}}}, {"stat", "block_mean_span"}, {"at_most", 1e-12}};
  CHECK(gib::check_series_stat(c, r, series)["verdict"] == "reproduced");
  c["where"] = {{"method", "akw"}};
  Json v = gib::check_series_stat(c, r, series);
  CHECK(v["verdict"] == "refuted");
  CHECK(v["ours"].get<double>() == Approx(0.09).epsilon(1e-9));  // block means step by 10 x 0.001
  c["stat"] = "spread";
  c.erase("at_most");
  c["range"] = {0.1, 0.12};
  // The drift alone spans 0.099; the oscillation adds less than its peak-to-peak 0.02.
  const double spread = gib::check_series_stat(c, r, series)["ours"].get<double>();
  CHECK(spread > 0.099);
  CHECK(spread < 0.119);
  c["stat"] = "nonsense";
  CHECK_THROWS_AS(gib::check_series_stat(c, r, series), gib::InputError);
  // crossings of a level: the flat sine of period 10 crosses 0.005 twice per period (at 30 and 150 degrees), 20 times
  // in 100 samples; level 0 lands on sampled zeros (sin(k pi) is ~1e-18, not 0, so those count as crossings too).
  c["where"] = {{"method", "imid"}};
  c["stat"] = "crossings";
  c["level"] = 0.005;
  c.erase("range");
  c["at_least"] = 20;
  v = gib::check_series_stat(c, r, series);
  CHECK(v["ours"].get<double>() == 20);
  c["level"] = 0.02;  // above the amplitude: none
  CHECK(gib::check_series_stat(c, r, series)["ours"].get<double>() == 0);
  series[0]["energy_rel_err"][5] = nullptr;  // a diverged run records null
  c["where"] = {{"method", "imid"}};
  c["stat"] = "std";
  CHECK(gib::check_series_stat(c, r, series)["verdict"] == "no data");
}

TEST_CASE("series_stat from per-block summaries: grouping, low-frequency share and report-only rows", "[figure_checks]") {
  // Four runner blocks of equal length: a slow square wave of amplitude 1 (block means +1, -1, +1, -1)
  // under a fast oscillation of standard deviation 1 inside every block.
  const Json blocks = {{"min", {-0.5, -2.5, -0.5, -2.5}}, {"max", {2.5, 0.5, 2.5, 0.5}}, {"mean", {1, -1, 1, -1}}, {"std", {1, 1, 1, 1}}};
  const Json r = Json::array({{{"method", "trapm"}, {"status", "ok"}, {"metrics", {{"energy_rel_err_blocks", blocks}}}}});
  Json c = {{"statement", "s"}, {"where", {{"method", "trapm"}}}, {"stat", "low_freq_share"}, {"at_least", 0.4}};
  Json v = gib::check_series_stat(c, r, Json::array());
  CHECK(v["ours"].get<double>() == Approx(0.5));  // variance 1 between blocks over total 1 + 1
  CHECK(v["verdict"] == "reproduced");
  c["stat"] = "std";
  CHECK(gib::check_series_stat(c, r, Json::array())["ours"].get<double>() == Approx(std::sqrt(2.0)));
  c["stat"] = "spread";
  CHECK(gib::check_series_stat(c, r, Json::array())["ours"].get<double>() == Approx(5.0));
  // Merged into two groups of two blocks, the square wave averages out of the means.
  c = {{"statement", "s"}, {"where", {{"method", "trapm"}}}, {"stat", "block_mean_span"}, {"blocks", 2}, {"at_most", 1e-12}};
  CHECK(gib::check_series_stat(c, r, Json::array())["verdict"] == "reproduced");
  c["blocks"] = 4;
  CHECK(gib::check_series_stat(c, r, Json::array())["ours"].get<double>() == Approx(2.0));
  c["blocks"] = 3;  // does not divide the run's four blocks
  CHECK_THROWS_AS(gib::check_series_stat(c, r, Json::array()), gib::InputError);
  // A report-only row carries the number and no verdict, whatever bounds it might have had.
  c = {{"statement", "s"}, {"where", {{"method", "trapm"}}}, {"stat", "spread"}, {"report", true}};
  v = gib::check_series_stat(c, r, Json::array());
  CHECK(v["verdict"] == "measured");
  CHECK(v["ours"].get<double>() == Approx(5.0));
}

TEST_CASE("series_compare: a windowed average follows a slow signal that the raw series misses", "[figure_checks]") {
  // Penalised run: slow lambda(t) = sin t plus a fast oscillation of amplitude 1 and period 0.1, sampled every 0.01
  // on t = 0 .. 10; the constrained run's multiplier is sin t at the start of each step, recorded at its end (null
  // at t = 0).
  Json t = Json::array(), fast = Json::array(), slow = Json::array();
  for (int i = 0; i <= 1000; ++i) {
    const double ti = 0.01 * i;
    t.push_back(ti);
    fast.push_back(-(std::sin(ti) + std::cos(2 * M_PI * ti / 0.1)));  // the subject is scaled by -1 below
    slow.push_back(i == 0 ? Json(nullptr) : Json(std::sin(ti - 0.01)));  // recorded one step late
  }
  const Json rows = Json::array({{{"method", "zs"}, {"status", "ok"}}, {{"method", "rattle"}, {"status", "ok"}}});
  const Json series = Json::array({{{"row", 0}, {"t", t}, {"g", fast}}, {{"row", 1}, {"t", t}, {"lambda", slow}}});
  Json c = {{"statement", "windowed average tracks"},
            {"subject", {{"where", {{"method", "zs"}}}, {"series", "g"}, {"scale", -1.0}, {"window", 0.2}}},
            {"reference", {{"where", {{"method", "rattle"}}}, {"series", "lambda"}, {"lag_samples", 1}}},
            {"skip_t", 0.1},
            {"at_most", 0.1}};
  // A 0.2 window holds two whole fast periods plus at most one sample (19 to 21 samples, depending on rounding at
  // its edges), so the cosine leaves at most 1/19 of its amplitude: relative RMS below 0.053 / RMS(sin) ~ 0.076.
  const Json v = gib::check_series_compare(c, rows, series);
  CHECK(v["verdict"] == "reproduced");
  CHECK(v["ours"].get<double>() < 0.076);
  // Raw: the difference is the cosine, RMS 1/sqrt 2, over RMS(sin) on [0.1, 9.9]: mean sin^2 = 1/2 - (sin 19.8 -
  // sin 0.2) / (4 * 9.8).
  c["subject"]["window"] = 0.0;
  const Json raw = gib::check_series_compare(c, rows, series);
  CHECK(raw["verdict"] == "refuted");
  const double mean_sin2 = 0.5 - (std::sin(19.8) - std::sin(0.2)) / (4 * 9.8);
  CHECK(raw["ours"].get<double>() == Approx(std::sqrt(0.5 / mean_sin2)).epsilon(0.01));
  c["reference"]["series"] = "missing";
  CHECK(gib::check_series_compare(c, rows, series)["verdict"] == "no data");
}

TEST_CASE("a run that did not end ok refutes a statement about it, instead of being skipped", "[figure_checks]") {
  Json r = rows();
  r[2]["status"] = "diverged";
  r[2]["status_step"] = 7;
  const Json c = {{"statement", "AKW's error over IMID's"}, {"metric", "err"}, {"numerator", {{"method", "akw"}}},
                  {"denominator", {{"method", "imid"}}}, {"at_least", 5}};
  const Json v = gib::check_metric_ratio(c, r);
  CHECK(v["verdict"] == "refuted");
  CHECK(v["reason"].get<std::string>().find("ended 'diverged' at t = 0.7") != std::string::npos);
}

TEST_CASE("deviations live in the spec: unexplained and stale rows are flagged, timing rows only explained",
          "[figure_checks]") {
  const Json checks = Json::array({{{"statement", "a"}},
                                   {{"statement", "b"}, {"deviation", "why, with numbers"}, {"expected_verdict", "refuted"}},
                                   {{"statement", "c"}, {"deviation", "why"}, {"expected_verdict", "refuted"}},
                                   {{"statement", "d"}, {"deviation", "why"}}});
  Json v = Json::array({{{"verdict", "refuted"}},
                        {{"verdict", "refuted"}},
                        {{"verdict", "reproduced"}},
                        {{"verdict", "direction only"}, {"machine_dependent", true}}});
  gib::apply_deviations(checks, v);
  CHECK(v[0].value("unexplained", false));  // a refuted paper statement nobody explained
  CHECK(gib::verdict_row_failed(v[0]));
  CHECK_FALSE(gib::verdict_row_failed(v[1]));  // explained, and still what the explanation says
  CHECK(v[2].value("stale", false));           // the deviation expired: the row is reproduced now
  CHECK(gib::verdict_row_failed(v[2]));
  CHECK_FALSE(gib::verdict_row_failed(v[3]));  // a timing row's verdict moves with the machine
  // A deviation outside a timing row must say which verdict it explains.
  Json w = Json::array({{{"verdict", "refuted"}}});
  CHECK_THROWS_AS(gib::apply_deviations(Json::array({{{"statement", "e"}, {"deviation", "why"}}}), w), gib::InputError);
}

}  // namespace gibench_test_comparison_checks
