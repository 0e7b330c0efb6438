#include "harness/comparison_checks.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <sstream>
#include <vector>

#include "core/errors.hpp"
#include "harness/figure_verdict.hpp"
#include "harness/json_util.hpp"

namespace gib {
namespace {

std::string num(double x) {
  std::ostringstream s;
  s.precision(4);
  s << x;
  return s.str();
}

constexpr std::size_t kNone = static_cast<std::size_t>(-1);

// The index of the one row matching `where`; kNone when none or several match (count says how many).
std::size_t one_row(const Json& rows, const Json& where, int* count) {
  std::size_t found = kNone;
  *count = 0;
  for (std::size_t i = 0; i < rows.size(); ++i)
    if (where_matches(rows[i], where)) {
      found = i;
      ++*count;
    }
  return *count == 1 ? found : kNone;
}

double metric_of(const Json& row, const std::string& metric) {
  if (row.value("status", "") != "ok") return NAN;
  const Json& m = row.value("metrics", Json::object());
  return m.contains(metric) && m[metric].is_number() ? std::abs(m[metric].get<double>()) : NAN;
}

std::vector<double> blocks_of(const std::vector<double>& v, int blocks, bool want_mean) {
  std::vector<double> out;
  const std::size_t n = v.size();
  for (int b = 0; b < blocks; ++b) {
    const std::size_t lo = n * static_cast<std::size_t>(b) / static_cast<std::size_t>(blocks);
    const std::size_t hi = n * static_cast<std::size_t>(b + 1) / static_cast<std::size_t>(blocks);
    if (hi <= lo) continue;
    const auto [mn, mx] = std::minmax_element(v.begin() + static_cast<long>(lo), v.begin() + static_cast<long>(hi));
    const double sum = std::accumulate(v.begin() + static_cast<long>(lo), v.begin() + static_cast<long>(hi), 0.0);
    out.push_back(want_mean ? sum / static_cast<double>(hi - lo) : *mx - *mn);
  }
  return out;
}

double statistic(const std::vector<double>& v, const std::string& stat, int blocks) {
  const auto [mn, mx] = std::minmax_element(v.begin(), v.end());
  const double mean = std::accumulate(v.begin(), v.end(), 0.0) / static_cast<double>(v.size());
  if (stat == "max_abs") return std::max(std::abs(*mn), std::abs(*mx));
  if (stat == "spread") return *mx - *mn;
  if (stat == "mean") return mean;
  if (stat == "std") {
    double s = 0;
    for (double x : v) s += (x - mean) * (x - mean);
    return std::sqrt(s / static_cast<double>(v.size()));
  }
  const bool means = stat == "block_mean_span";
  if (!means && stat != "block_width_variation") throw InputError("series_stat: unknown stat '" + stat + "'");
  const std::vector<double> b = blocks_of(v, blocks, means);
  const auto [bmn, bmx] = std::minmax_element(b.begin(), b.end());
  return means ? *bmx - *bmn : (*bmx - *bmn) / *bmx;
}

}  // namespace

Json judge_number(const Json& c, double ours, const std::string& note) {
  if (!std::isfinite(ours)) return figure_not_comparable(c, "no finite value: " + note);
  if (c.contains("at_most") || c.contains("at_least")) {
    const double hi = c.value("at_most", INFINITY), lo = c.value("at_least", -INFINITY);
    std::string bound = c.contains("at_most") ? "at most " + num(hi) : "";
    if (c.contains("at_least")) bound += (bound.empty() ? "at least " : " and at least ") + num(lo);
    return figure_verdict(c, json_number(ours), ours <= hi && ours >= lo, note + " Needs " + bound + ".");
  }
  if (c.contains("range")) {
    const double lo = c["range"][0].get<double>(), hi = c["range"][1].get<double>();
    return figure_verdict(c, json_number(ours), ours >= lo && ours <= hi, note + " Needs [" + num(lo) + ", " + num(hi) + "].");
  }
  const Json& pv = c.value("paper_value", Json(nullptr));
  if (!pv.is_number()) throw InputError("check '" + c.value("statement", "") + "' needs at_most, at_least, range or a numeric paper_value");
  const double tol = c.value("rel_tol", 0.25);
  return figure_verdict(c, json_number(ours), std::abs(ours / pv.get<double>() - 1) <= tol,
                        note + " Relative tolerance " + num(tol) + ".");
}

Json check_metric_ratio(const Json& c, const Json& rows) {
  int na = 0, nb = 0;
  const std::size_t a = one_row(rows, c.value("numerator", Json()), &na);
  const std::size_t b = one_row(rows, c.value("denominator", Json()), &nb);
  if (a == kNone || b == kNone)
    return figure_not_comparable(c, std::to_string(na) + " and " + std::to_string(nb) + " rows match numerator and denominator; each needs one");
  const std::string metric = c.value("metric", "");
  const double x = metric_of(rows[a], c.value("numerator_metric", metric));
  const double y = metric_of(rows[b], c.value("denominator_metric", metric));
  return judge_number(c, x / y, "Ratio " + num(x) + " / " + num(y) + ".");
}

Json check_best(const Json& c, const Json& rows) {
  const std::string metric = c.value("metric", "");
  std::string best;
  double best_v = INFINITY;
  std::vector<std::pair<std::string, double>> all;
  for (const auto& r : rows) {
    if (!where_matches(r, c.value("where", Json()))) continue;
    const double v = metric_of(r, metric);
    all.emplace_back(r.value("method", ""), v);
    if (v < best_v) best_v = v, best = r.value("method", "");
  }
  if (best.empty()) return figure_not_comparable(c, "no row with a finite " + metric + " matches");
  Json expected = c.value("expected", Json());
  if (expected.is_string()) expected = Json::array({expected});
  const double within = c.value("within", 1.0);
  bool ok = false;
  std::ostringstream note;
  note << "Smallest " << metric << ": " << best << " (" << num(best_v) << ").";
  for (const auto& e : expected) {
    for (const auto& [m, v] : all)
      if (m == e.get<std::string>()) {
        ok = ok || v <= within * best_v;
        if (m != best) note << " " << m << " is " << num(v / best_v) << "x the best.";
      }
  }
  if (within > 1) note << " Passes within a factor " << num(within) << ".";
  return figure_verdict(c, best, ok, note.str());
}

Json check_series_stat(const Json& c, const Json& rows, const Json& series) {
  int n = 0;
  const std::size_t index = one_row(rows, c.value("where", Json()), &n);
  if (index == kNone) return figure_not_comparable(c, std::to_string(n) + " rows match; a series_stat check needs one");
  const std::string field = c.value("series", std::string("energy_rel_err"));
  for (const auto& s : series) {
    if (s.value("row", kNone) != index || !s.contains(field)) continue;
    std::vector<double> v;
    for (const auto& x : s[field]) v.push_back(x.is_number() ? x.get<double>() : NAN);
    if (v.empty() || std::any_of(v.begin(), v.end(), [](double x) { return !std::isfinite(x); }))
      return figure_not_comparable(c, "the " + field + " series is empty or not finite (a diverged run)");
    const std::string stat = c.value("stat", "");
    return judge_number(c, statistic(v, stat, c.value("blocks", 10)), stat + " of " + field + " over " + std::to_string(v.size()) + " samples.");
  }
  return figure_not_comparable(c, "the matching row recorded no " + field + " series");
}

}  // namespace gib
