#include <catch2/catch.hpp>
#include <cmath>

#include "harness/results_storage.hpp"

namespace gibench_test_results_storage {

using gib::Json;

namespace {

// A series of n points: t = i / 1000, a smooth column with one spike, and a column that names the point (i), which the
// decimation must keep aligned with the others.
Json series_with_spike(std::size_t n, std::size_t spike_at) {
  Json t = Json::array(), err = Json::array(), index = Json::array();
  for (std::size_t i = 0; i < n; ++i) {
    t.push_back(0.001 * static_cast<double>(i));
    err.push_back(i == spike_at ? 1.0 : 1e-12 * (1.0 + std::sin(0.01 * static_cast<double>(i))));
    index.push_back(static_cast<double>(i));
  }
  return {{"row", 3}, {"t", t}, {"energy_rel_err", err}, {"index", index}};
}

Json doc_with(Json series, Json rows = Json::array(), const char* kind = "gibench.figure") {
  return {{"kind", kind}, {"rows", std::move(rows)}, {"series", Json::array({std::move(series)})}};
}

}  // namespace

TEST_CASE("results storage: significant digits", "[results_storage]") {
  CHECK(gib::round_significant(1.2345678901234567e-16, 7) == 1.234568e-16);
  CHECK(gib::round_significant(-98765.4321, 3) == -98800.0);
  CHECK(gib::round_significant(0.0, 7) == 0.0);
  CHECK(std::isinf(gib::round_significant(INFINITY, 7)));
  const double once = gib::round_significant(M_PI, 7);
  CHECK(gib::round_significant(once, 7) == once);
}

TEST_CASE("results storage: a long series keeps its spike, its ends and its columns aligned", "[results_storage]") {
  const std::size_t n = 20001, spike = 7777;
  const Json out = gib::compact_for_storage(doc_with(series_with_spike(n, spike)));
  const Json& s = out["series"][0];
  const auto& t = s["t"];
  REQUIRE(t.size() <= gib::kSeriesMaxPoints);
  CHECK(t.size() > 398);  // 199 buckets of 5 candidates (first, min and max of two columns) keep two or more each
  CHECK(s["energy_rel_err"].size() == t.size());
  CHECK(s["index"].size() == t.size());
  CHECK(s["row"] == 3);
  CHECK(s["decimated"]["from_points"] == n);
  CHECK(s["decimated"]["to_points"] == t.size());
  CHECK(t.front() == 0.0);
  CHECK(t.back().get<double>() == Approx(0.001 * (n - 1)));  // t keeps kTimeDigits
  bool spike_kept = false;
  for (std::size_t k = 0; k < t.size(); ++k) {
    const auto i = static_cast<std::size_t>(std::llround(s["index"][k].get<double>()));
    // every column took the same points; t to kTimeDigits (0.001 * 471 = 0.47100000000000003 is stored as 0.471)
    CHECK(t[k].get<double>() == gib::round_significant(0.001 * static_cast<double>(i), gib::kTimeDigits));
    if (i == spike) spike_kept = s["energy_rel_err"][k] == 1.0;
  }
  CHECK(spike_kept);
}

TEST_CASE("results storage: a state series keeps every k-th point, so a phase portrait keeps its density", "[results_storage]") {
  Json s = series_with_spike(7501, 7777);
  Json x = Json::array();
  for (std::size_t i = 0; i < 7501; ++i) x.push_back(Json::array({std::cos(0.1 * static_cast<double>(i)), 1.0}));
  s["x"] = x;
  const Json out = gib::compact_for_storage(doc_with(s));
  const Json& kept = out["series"][0]["index"];
  REQUIRE(kept.size() <= gib::kStateSeriesMaxPoints);
  CHECK(kept.size() == 1876);  // 0, 4, ..., 7500: every 4th of 7501 fits 2000
  for (std::size_t k = 1; k < kept.size(); ++k) CHECK(kept[k].get<double>() - kept[k - 1].get<double>() == 4.0);
  CHECK(out["series"][0]["decimated"]["rule"].get<std::string>().find("every k-th") != std::string::npos);
}

TEST_CASE("results storage: a broken-down point survives decimation", "[results_storage]") {
  Json s = series_with_spike(10000, 10);
  s["energy_rel_err"][6543] = nullptr;  // a NaN as the writer stores it
  const Json out = gib::compact_for_storage(doc_with(s));
  bool null_kept = false;
  for (const auto& v : out["series"][0]["energy_rel_err"]) null_kept = null_kept || v.is_null();
  CHECK(null_kept);
  CHECK(out["series"][0]["t"].size() <= gib::kSeriesMaxPoints);
}

TEST_CASE("results storage: a short series is only rounded", "[results_storage]") {
  const Json out = gib::compact_for_storage(doc_with(series_with_spike(100, 5)));
  const Json& s = out["series"][0];
  CHECK(s["t"].size() == 100);
  CHECK_FALSE(s.contains("decimated"));
  CHECK(s["energy_rel_err"][1] == gib::round_significant(1e-12 * (1.0 + std::sin(0.01)), gib::kSeriesDigits));
}

TEST_CASE("results storage: rows keep small states and table their parameters", "[results_storage]") {
  Json big = Json::array();
  for (int i = 0; i < 30; ++i) big.push_back(Json::array({1.0 * i, 2.0, 3.0}));
  const Json params = {{"inertia", {1.0, 2.0, 3.0}}};
  const Json rows = Json::array({
      {{"param_hash", "aaaa"}, {"params", params}, {"final_state", {{"pi", {1.0, 2.0, 3.0}}}},
       {"metrics", {{"x_blocks", 1.0}, {"x_max", 2.0}, {"x_final", 0.12345678901}}}},
      {{"param_hash", "aaaa"}, {"params", params}, {"final_state", {{"q", big}}}},
  });
  const Json out = gib::compact_for_storage(doc_with(series_with_spike(10, 1), rows));
  CHECK(out["rows"][0]["final_state"]["pi"] == Json({1.0, 2.0, 3.0}));
  CHECK(out["rows"][1]["final_state"]["numbers"] == 90);
  CHECK(out["rows"][1]["final_state"]["stored"] == false);
  CHECK(out["rows"][1]["final_state"]["fnv1a64"].get<std::string>().size() == 16);
  CHECK(out["rows"][0]["params"] == Json({{"$table", "aaaa"}}));
  CHECK(out["params_table"]["aaaa"] == params);
  CHECK(out["rows"][0]["metrics"]["x_blocks"] == 1.0);  // a figure row keeps every metric

  const Json ranked = gib::compact_for_storage(doc_with(series_with_spike(10, 1), rows, "gibench.rank"));
  CHECK_FALSE(ranked["rows"][0]["metrics"].contains("x_blocks"));
  CHECK_FALSE(ranked["rows"][0]["metrics"].contains("x_max"));
  CHECK(ranked["rows"][0]["metrics"]["x_final"] == 0.1234568);  // kSeriesDigits
  CHECK(ranked["rows"][0]["final_state"].contains("fnv1a64"));  // a rank row's state, however small, is its hash
  CHECK(out["rows"][0]["metrics"]["x_final"] == 0.12345678901);  // a figure row's metric keeps every digit
}

TEST_CASE("results storage: compacting twice changes nothing", "[results_storage]") {
  Json rows = Json::array({{{"param_hash", "bbbb"}, {"params", {{"a", 1}}}}});
  const Json once = gib::compact_for_storage(doc_with(series_with_spike(12345, 99), rows));
  CHECK(gib::compact_for_storage(once) == once);
}

}  // namespace gibench_test_results_storage
