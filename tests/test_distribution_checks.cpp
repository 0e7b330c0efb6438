// The distribution_agreement check (harness/distribution_checks.hpp): the exact permutation test of KS distance over
// seeds, its p-values on cases worked by hand, its size under the null when runs differ from seed to seed, its power,
// and the check's verdicts on rows.
#include <catch2/catch.hpp>

#include <cmath>

#include "core/errors.hpp"
#include "core/random.hpp"
#include "harness/cell.hpp"
#include "harness/distribution_checks.hpp"
#include "harness/prepared_cell.hpp"
#include "harness/runner.hpp"

namespace gibench_test_distribution_checks {

namespace {

gib::BinnedSample at_bin(int bins, int k, std::int64_t n) {
  gib::BinnedSample s;
  s.counts.assign(static_cast<std::size_t>(bins), 0);
  s.counts[static_cast<std::size_t>(k)] = n;
  return s;
}

// A run of n normal values of mean `centre + offset` (in bins), with offset ~ N(0, spread) drawn per run: runs of one
// method vary from seed to seed by more than their samples suggest, as autocorrelated MD runs do.
gib::BinnedSample run(gib::random::Stream& rng, int bins, double centre, double spread, int n) {
  gib::BinnedSample s;
  s.counts.assign(static_cast<std::size_t>(bins), 0);
  const double offset = spread * rng.normal();
  for (int i = 0; i < n; ++i) {
    const double x = std::floor(centre + offset + 3.0 * rng.normal());
    if (x < 0) ++s.underflow;
    else if (x >= bins) ++s.overflow;
    else ++s.counts[static_cast<std::size_t>(x)];
  }
  return s;
}

gib::Json rows_of(const std::vector<gib::BinnedSample>& runs, const std::string& method) {
  gib::Json rows = gib::Json::array();
  int seed = 0;
  for (const auto& s : runs)
    rows.push_back({{"method", method},
                    {"method_params", {{"seed", seed++}}},
                    {"h", 0.05},
                    {"status", "ok"},
                    {"distributions",
                     {{"d", {{"lo", 0.0}, {"hi", 0.05 * static_cast<double>(s.counts.size())}, {"bin", 0.05}, {"radial", true},
                             {"counts", s.counts}, {"underflow", s.underflow}, {"overflow", s.overflow},
                             {"samples", s.total()}, {"states", 100}}}}}});
  return rows;
}

gib::Json check_spec(double alpha) {
  return {{"kind", "distribution_agreement"},
          {"statement", "the two distributions agree"},
          {"source", "test"},
          {"distribution", "d"},
          {"where", {{"method", "a"}}},
          {"reference", {{"method", "b"}}},
          {"paper_value", "agree"},
          {"at_least", alpha}};
}

}  // namespace

TEST_CASE("permutation KS test: p-values worked by hand", "[distribution]") {
  SECTION("groups apart: only the observed split and its complement reach D = 1") {
    std::vector<gib::BinnedSample> a(5, at_bin(10, 2, 100)), b(5, at_bin(10, 7, 100));
    const auto t = gib::permutation_ks_test(a, b, 0.01);
    CHECK(t.statistic == 1.0);
    CHECK(t.splits == 252);  // C(10, 5)
    CHECK(t.p_value == Approx(2.0 / 252));
    CHECK(t.smallest_p == Approx(2.0 / 252));
    CHECK(t.critical == 1.0);
  }
  SECTION("identical runs: every split has D = 0, p = 1") {
    std::vector<gib::BinnedSample> a(3, at_bin(10, 4, 50)), b(4, at_bin(10, 4, 50));
    const auto t = gib::permutation_ks_test(a, b, 0.05);
    CHECK(t.statistic == 0.0);
    CHECK(t.p_value == 1.0);
    CHECK(std::isinf(t.critical));  // nothing rejects
  }
  SECTION("unequal groups: 1 + 4 runs, the odd one out has p = 1/5") {
    std::vector<gib::BinnedSample> a{at_bin(10, 9, 10)}, b(4, at_bin(10, 0, 10));
    const auto t = gib::permutation_ks_test(a, b, 0.05);
    CHECK(t.splits == 5);
    CHECK(t.p_value == Approx(0.2));
  }
  SECTION("out-of-range values count at the ends") {
    gib::BinnedSample low = at_bin(4, 0, 0), high = at_bin(4, 0, 0);
    low.underflow = 10;
    high.overflow = 10;
    const auto t = gib::permutation_ks_test({low}, {high}, 0.5);
    CHECK(t.statistic == 1.0);
  }
  SECTION("bad input") {
    CHECK_THROWS(gib::permutation_ks_test({}, {at_bin(3, 0, 1)}, 0.05));
    CHECK_THROWS(gib::permutation_ks_test({at_bin(3, 0, 1)}, {at_bin(4, 0, 1)}, 0.05));
    CHECK_THROWS(gib::permutation_ks_test(std::vector<gib::BinnedSample>(11, at_bin(3, 0, 1)),
                                          std::vector<gib::BinnedSample>(10, at_bin(3, 0, 1)), 0.05));
  }
}

TEST_CASE("shifted: values move up by whole bins, past the range into the overflow", "[distribution]") {
  gib::BinnedSample s = at_bin(5, 1, 3);
  s.counts[4] = 2;
  s.underflow = 1;
  const auto out = gib::shifted({s}, 2);
  CHECK(out[0].counts == std::vector<std::int64_t>{0, 0, 0, 3, 0});
  CHECK(out[0].overflow == 2);
  CHECK(out[0].underflow == 1);
  CHECK(out[0].total() == s.total());
}

// The seeds are the units: with runs that differ from seed to seed (offset spread 1 bin against a within-run sd of 3),
// 10^4 samples per run make a samples-as-units KS test reject almost always, while the permutation test over seeds
// keeps its size. Over 300 null trials of 5 + 5 runs the rejection rate at alpha = 0.05 stays within 3 binomial SE of
// 0.05 (an exact test's rate is at most alpha); with every B run moved 3 bins it rejects in most trials.
TEST_CASE("permutation KS test: size under the null and power against a shift", "[distribution]") {
  gib::random::Stream rng(20261126);
  constexpr int kTrials = 300, kBins = 60;
  int null_rejections = 0, shift_rejections = 0;
  for (int trial = 0; trial < kTrials; ++trial) {
    std::vector<gib::BinnedSample> a, b, c;
    for (int i = 0; i < 5; ++i) a.push_back(run(rng, kBins, 30, 1.0, 10000));
    for (int i = 0; i < 5; ++i) b.push_back(run(rng, kBins, 30, 1.0, 10000));
    for (int i = 0; i < 5; ++i) c.push_back(run(rng, kBins, 33, 1.0, 10000));
    if (gib::permutation_ks_test(a, b, 0.05).p_value < 0.05) ++null_rejections;
    if (gib::permutation_ks_test(a, c, 0.05).p_value < 0.05) ++shift_rejections;
  }
  const double size = static_cast<double>(null_rejections) / kTrials;
  const double se = std::sqrt(0.05 * 0.95 / kTrials);
  INFO("null rejection rate " << size << ", shifted " << static_cast<double>(shift_rejections) / kTrials);
  CHECK(size <= 0.05 + 3 * se);
  CHECK(shift_rejections >= kTrials * 9 / 10);
}

TEST_CASE("distribution_agreement on rows: agree, shifted, too few seeds, a failed run", "[distribution]") {
  gib::random::Stream rng(7);
  std::vector<gib::BinnedSample> a, b;
  for (int i = 0; i < 5; ++i) a.push_back(run(rng, 80, 40, 0.5, 5000));
  for (int i = 0; i < 5; ++i) b.push_back(run(rng, 80, 40, 0.5, 5000));
  const auto rows_with = [&](const std::vector<gib::BinnedSample>& x) {
    gib::Json rows = rows_of(x, "a");
    for (const auto& r : rows_of(b, "b")) rows.push_back(r);
    return rows;
  };
  SECTION("the same distribution: reproduced, with the test's numbers and its power in the row") {
    const gib::Json v = gib::check_distribution_agreement(check_spec(0.01), rows_with(a));
    INFO(v.dump());
    CHECK(v["verdict"] == "reproduced");
    CHECK(v["p_value"].get<double>() >= 0.01);
    CHECK(v["splits"] == 252);
    CHECK(v["detectable_shift"].is_number());
    CHECK(v["reason"].get<std::string>().find("Power: moving every value") != std::string::npos);
  }
  SECTION("group a moved by 4 bins: refuted") {
    const gib::Json v = gib::check_distribution_agreement(check_spec(0.01), rows_with(gib::shifted(a, 4)));
    INFO(v.dump());
    CHECK(v["verdict"] == "refuted");
    CHECK(v["p_value"].get<double>() < 0.01);
  }
  SECTION("2 + 2 seeds cannot give p < 0.01: no data, never a pass") {
    gib::Json rows = rows_of({a[0], a[1]}, "a");
    for (const auto& r : rows_of({b[0], b[1]}, "b")) rows.push_back(r);
    const gib::Json v = gib::check_distribution_agreement(check_spec(0.01), rows);
    CHECK(v["verdict"] == "no data");
    CHECK(v["reason"].get<std::string>().find("more seeds are needed") != std::string::npos);
  }
  SECTION("a run that did not end ok refutes") {
    gib::Json rows = rows_with(a);
    rows[2]["status"] = "diverged";
    CHECK(gib::check_distribution_agreement(check_spec(0.01), rows)["verdict"] == "refuted");
  }
  SECTION("rows without the histogram: no data") {
    gib::Json rows = rows_with(a);
    rows[0].erase("distributions");
    CHECK(gib::check_distribution_agreement(check_spec(0.01), rows)["verdict"] == "no data");
  }
}

namespace {

gib::Cell water_cell(std::int64_t steps, double after) {
  gib::Cell c;
  c.problem = "water_cluster";
  c.preset = "n3";
  c.ic = "preset";
  c.method = "zs_stiff";
  c.h = 0.05;
  c.steps = steps;
  c.observe.reference = false;
  c.observe.ref_samples = 0;
  c.observe.quantities_after = after;
  c.observe.distributions = {"oo_distance"};
  return c;
}

}  // namespace

// The runner's histogram (observe.distributions) against distances computed here from the rows' final states: one
// more step adds exactly that state's 3 O-O distances, and the burn-in leaves the earlier states out.
TEST_CASE("observe.distributions: the water cluster's O-O histogram, step by step", "[distribution][water]") {
  const gib::Json r1 = gib::run_cell(water_cell(40, 1.0)).row;
  const gib::Json r2 = gib::run_cell(water_cell(41, 1.0)).row;
  const gib::Json& d1 = r1["distributions"]["oo_distance"];
  const gib::Json& d2 = r2["distributions"]["oo_distance"];
  CHECK(d1["states"] == 21);  // t = 1.00, 1.05, ..., 2.00
  CHECK(d1["samples"] == 3 * 21);
  CHECK(d1["bin"] == 0.05);
  CHECK(d1["radial"] == true);
  const auto c1 = d1["counts"].get<std::vector<std::int64_t>>(), c2 = d2["counts"].get<std::vector<std::int64_t>>();
  const auto q = r2["final_state"]["q"].get<std::vector<double>>();
  std::vector<std::int64_t> expected = c1;
  for (int a = 0; a < 3; ++a)
    for (int b = a + 1; b < 3; ++b) {
      double r2sum = 0;
      for (int k = 0; k < 3; ++k) {
        const double d = q[static_cast<std::size_t>(9 * a + 3 + k)] - q[static_cast<std::size_t>(9 * b + 3 + k)];
        r2sum += d * d;
      }
      ++expected[static_cast<std::size_t>(std::floor(std::sqrt(r2sum) / 0.05))];
    }
  CHECK(c2 == expected);
  CHECK(d2["underflow"] == 0);
  CHECK(d2["overflow"] == 0);
}

TEST_CASE("observe.distributions: an unknown name or a problem without distributions is bad input", "[distribution]") {
  gib::Cell c = water_cell(10, 0);
  c.observe.distributions = {"hh_distance"};
  CHECK_THROWS_AS(gib::prepare_cell(c), gib::InputError);
  c.problem = "double_pendulum";
  c.preset = "";
  c.method = "velocity_verlet";
  c.observe.distributions = {"oo_distance"};
  CHECK_THROWS_WITH(gib::prepare_cell(c), Catch::Matchers::Contains("has no distributions"));
}

// values_in: the distributions conditional on a run of bins. Two groups alike below bin 40 and apart above it agree on
// [0, 2) (bins 0..39) and differ on the whole range; a range off the histogram is no data.
TEST_CASE("distribution_agreement: values_in compares the distributions conditional on it", "[distribution]") {
  gib::random::Stream rng(3);
  std::vector<gib::BinnedSample> a, b;
  for (int i = 0; i < 5; ++i) a.push_back(run(rng, 80, 20, 0.5, 5000));
  for (int i = 0; i < 5; ++i) {
    b.push_back(run(rng, 80, 20, 0.5, 5000));
    b.back().counts[70] += 4000;  // a far tail only b has
  }
  gib::Json rows = rows_of(a, "a");
  for (const auto& r : rows_of(b, "b")) rows.push_back(r);
  gib::Json whole = check_spec(0.01), local = check_spec(0.01), off = check_spec(0.01);
  local["values_in"] = {0.0, 2.0};
  off["values_in"] = {0.0, 9.0};
  CHECK(gib::check_distribution_agreement(whole, rows)["verdict"] == "refuted");
  const gib::Json v = gib::check_distribution_agreement(local, rows);
  INFO(v.dump());
  CHECK(v["verdict"] == "reproduced");
  CHECK(v["reason"].get<std::string>().find("in [0, 2)") != std::string::npos);
  CHECK(gib::check_distribution_agreement(off, rows)["verdict"] == "no data");
}

}  // namespace gibench_test_distribution_checks
