#include "harness/results_storage.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <set>
#include <string>
#include <vector>

#include "core/hash.hpp"
#include "harness/json_util.hpp"

namespace gib {

double round_significant(double x, int digits) {
  if (!std::isfinite(x) || x == 0) return x;
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.*e", digits - 1, x);
  return std::strtod(buf, nullptr);
}

namespace {

// Columns of a series that are not sampled quantities.
bool is_index_column(const std::string& key) { return key == "row" || key == "t"; }

std::size_t count_numbers(const Json& j) {
  if (j.is_number()) return 1;
  std::size_t n = 0;
  if (j.is_array() || j.is_object())
    for (const auto& e : j) n += count_numbers(e);
  return n;
}

void round_numbers(Json& j, int digits) {
  if (j.is_number_float()) {
    j = round_significant(j.get<double>(), digits);
  } else if (j.is_array() || j.is_object()) {
    for (auto& e : j) round_numbers(e, digits);
  }
}

// A series that samples the state (a column of vectors: x, q, Q) feeds phase portraits, whose point density is the
// picture: it keeps every k-th point. Keeping extremes there would pile points on the orbit's edges.
bool state_series(const Json& ser, std::size_t n) {
  for (auto it = ser.begin(); it != ser.end(); ++it)
    if (!is_index_column(it.key()) && it->is_array() && it->size() == n && (*it)[0].is_array()) return true;
  return false;
}

std::vector<std::size_t> every_kth(std::size_t n) {
  const std::size_t k = (n - 1 + kStateSeriesMaxPoints - 3) / (kStateSeriesMaxPoints - 2);  // ceil: room for the last
  std::vector<std::size_t> keep;
  for (std::size_t i = 0; i < n; i += k) keep.push_back(i);
  if (keep.back() != n - 1) keep.push_back(n - 1);
  return keep;
}

// The points a decimated series keeps: per bucket its first point and the extremes of every scalar column; a
// non-number (a NaN stored as null) counts as an extreme, so where a run broke down stays visible.
std::vector<std::size_t> bucket_extremes(const Json& ser, std::size_t n) {
  std::vector<const Json*> scalar;
  for (auto it = ser.begin(); it != ser.end(); ++it) {
    if (is_index_column(it.key()) || !it->is_array() || it->size() != n) continue;
    const Json& first = (*it)[0];
    if (first.is_number() || first.is_null()) scalar.push_back(&*it);
  }
  const std::size_t per_bucket = 1 + 2 * scalar.size();
  const std::size_t buckets = std::max<std::size_t>(1, (kSeriesMaxPoints - 1) / per_bucket);
  std::set<std::size_t> keep{n - 1};  // the last point: where the run ended
  for (std::size_t b = 0; b < buckets; ++b) {
    const std::size_t lo = b * n / buckets, hi = (b + 1) * n / buckets;
    if (lo >= hi) continue;
    keep.insert(lo);
    for (const Json* col : scalar) {
      std::size_t imin = lo, imax = lo;
      bool have = false;
      for (std::size_t i = lo; i < hi; ++i) {
        const Json& v = (*col)[i];
        if (!v.is_number()) {  // this point stands for the column's extremes in this bucket
          keep.insert(i);
          have = false;
          break;
        }
        const double x = v.get<double>();
        if (!have || x < (*col)[imin].get<double>()) imin = i;
        if (!have || x > (*col)[imax].get<double>()) imax = i;
        have = true;
      }
      if (have) keep.insert({imin, imax});
    }
  }
  return {keep.begin(), keep.end()};
}

void compact_series(Json& ser) {
  if (!ser.is_object() || !ser.contains("t") || !ser["t"].is_array()) return;
  const std::size_t n = ser["t"].size();
  const bool state = state_series(ser, n);
  if (n > (state ? kStateSeriesMaxPoints : kSeriesMaxPoints)) {
    const std::vector<std::size_t> keep = state ? every_kth(n) : bucket_extremes(ser, n);
    const char* rule = state ? "every k-th point and the last (a state series)"
                             : "per bucket: first point, min and max of every scalar column; and the last point";
    for (auto it = ser.begin(); it != ser.end(); ++it) {
      if (it.key() == "row" || !it->is_array() || it->size() != n) continue;
      Json thinned = Json::array();
      for (const std::size_t i : keep) thinned.push_back(std::move((*it)[i]));
      *it = std::move(thinned);
    }
    ser["decimated"] = {{"from_points", n},
                        {"to_points", keep.size()},
                        {"rule", rule}};
  }
  for (auto it = ser.begin(); it != ser.end(); ++it)
    if (it.key() == "t") round_numbers(*it, kTimeDigits);
    else if (it.key() != "row" && it.key() != "decimated") round_numbers(*it, kSeriesDigits);
}

bool ends_with(const std::string& s, const std::string& tail) {
  return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

void compact_row(Json& row, Json& params_table, bool rank) {
  if (!row.is_object()) return;
  if (rank && row.contains("metrics") && row["metrics"].is_object()) {
    Json kept = Json::object();
    for (auto it = row["metrics"].begin(); it != row["metrics"].end(); ++it)
      if (ends_with(it.key(), "_final")) kept[it.key()] = std::move(*it);
    row["metrics"] = std::move(kept);
    round_numbers(row["metrics"], kSeriesDigits);
    if (row.contains("timing")) round_numbers(row["timing"], kSeriesDigits);
    if (row.contains("cost")) row["cost"] = stored_cost(row["cost"]);
  }
  if (row.contains("final_state") && row["final_state"].is_object() && !row["final_state"].contains("fnv1a64")) {
    Json& state = row["final_state"];
    const std::size_t numbers = count_numbers(state);
    if (rank || numbers > kStateMaxNumbers) state = {{"numbers", numbers}, {"fnv1a64", fnv1a_hex(state.dump())}, {"stored", false}};
  }
  if (row.contains("params") && row["params"].is_object() && !row["params"].contains("$table") &&
      row.value("param_hash", Json()).is_string()) {
    const std::string hash = row["param_hash"].get<std::string>();
    if (!params_table.contains(hash)) params_table[hash] = row["params"];
    row["params"] = {{"$table", hash}};
  }
}

}  // namespace

namespace {

// A battery file (gibench conformance --out, results/conformance.json, which the report's method pages read): each
// check keeps its claim, verdict, detail and expected deviation, its measured value and threshold to kSeriesDigits;
// `passed` and the reports' `passed` and `acceptable` are left out (the verdicts say it), and so is a null deviation.
void compact_conformance(Json& doc) {
  if (!doc.contains("reports") || !doc["reports"].is_array()) return;
  for (auto& r : doc["reports"]) {
    if (!r.is_object()) continue;
    r.erase("passed");
    r.erase("acceptable");
    if (!r.contains("checks") || !r["checks"].is_array()) continue;
    for (auto& c : r["checks"]) {
      if (!c.is_object()) continue;
      c.erase("passed");
      if (c.contains("expected_deviation") && c["expected_deviation"].is_null()) c.erase("expected_deviation");
      for (const char* k : {"measured", "threshold"})
        if (c.contains(k) && c[k].is_number_float()) c[k] = round_significant(c[k].get<double>(), kSeriesDigits);
    }
  }
}

}  // namespace

Json compact_for_storage(Json doc) {
  if (!doc.is_object()) return doc;
  if (doc.value("kind", "") == "gibench.conformance") {
    compact_conformance(doc);
    return doc;
  }
  Json table = doc.value("params_table", Json::object());
  const bool rank = doc.value("kind", "") == "gibench.rank";
  if (doc.contains("rows") && doc["rows"].is_array())
    for (auto& row : doc["rows"]) compact_row(row, table, rank);
  if (doc.contains("series") && doc["series"].is_array())
    for (auto& ser : doc["series"]) compact_series(ser);
  if (!table.empty()) doc["params_table"] = std::move(table);
  return doc;
}

}  // namespace gib
