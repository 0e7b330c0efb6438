#include "harness/comparison_checks.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <sstream>
#include <vector>

#include "core/errors.hpp"
#include "core/metrics.hpp"
#include "harness/figure_verdict.hpp"
#include "harness/json_util.hpp"
#include "harness/reproduce.hpp"
#include "harness/statistics.hpp"

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

double statistic(const std::vector<double>& v, const std::string& stat, int blocks, double level = 0) {
  const auto [mn, mx] = std::minmax_element(v.begin(), v.end());
  const double mean = std::accumulate(v.begin(), v.end(), 0.0) / static_cast<double>(v.size());
  if (stat == "max_abs") return std::max(std::abs(*mn), std::abs(*mx));
  if (stat == "spread") return *mx - *mn;
  if (stat == "mean") return mean;
  if (stat == "final") return v.back();
  if (stat == "min") return *mn;
  if (stat == "max") return *mx;
  if (stat == "crossings") {  // sign changes of v - level (Tao-Owhadi Fig 8: transitions between the wells)
    double count = 0;
    for (std::size_t i = 1; i < v.size(); ++i) count += (v[i - 1] - level) * (v[i] - level) < 0;
    return count;
  }
  if (stat == "std") {
    double s = 0;
    for (double x : v) s += (x - mean) * (x - mean);
    return std::sqrt(s / static_cast<double>(v.size()));
  }
  const bool means = stat == "block_mean_span";
  if (stat == "low_freq_share") throw InputError("series_stat low_freq_share needs the run's block summaries (observe.block_stats)");
  if (!means && stat != "block_width_variation") throw InputError("series_stat: unknown stat '" + stat + "'");
  const std::vector<double> b = blocks_of(v, blocks, means);
  const auto [bmn, bmx] = std::minmax_element(b.begin(), b.end());
  return means ? *bmx - *bmn : (*bmx - *bmn) / *bmx;
}

// Per-block summaries of the signed error from every step (observe.block_stats); blocks hold equal numbers
// of steps (to within one), so means and variances pool with equal weights.
struct Blocks {
  std::vector<double> min, max, mean, sd;
  std::size_t size() const { return mean.size(); }
};

Blocks read_blocks(const Json& b) {
  return {b["min"].get<std::vector<double>>(), b["max"].get<std::vector<double>>(), b["mean"].get<std::vector<double>>(),
          b["std"].get<std::vector<double>>()};
}

// E[x^2] over the blocks [lo, hi), pooled from their means and standard deviations.
double second_moment(const Blocks& b, std::size_t lo, std::size_t hi) {
  double s = 0;
  for (std::size_t i = lo; i < hi; ++i) s += b.sd[i] * b.sd[i] + b.mean[i] * b.mean[i];
  return s / static_cast<double>(hi - lo);
}

// The runner's blocks merged into `groups` equal groups (the check's "blocks"); their count must divide.
Blocks group_blocks(const Blocks& b, int groups, const std::string& stat) {
  const std::size_t k = b.size(), g = static_cast<std::size_t>(groups);
  if (g == 0 || k % g != 0)
    throw InputError("series_stat " + stat + ": " + std::to_string(groups) + " blocks do not divide the run's " + std::to_string(k));
  Blocks out;
  const std::size_t per = k / g;
  for (std::size_t j = 0; j < g; ++j) {
    const std::size_t lo = j * per, hi = lo + per;
    const auto from = static_cast<long>(lo), to = static_cast<long>(hi);
    out.min.push_back(*std::min_element(b.min.begin() + from, b.min.begin() + to));
    out.max.push_back(*std::max_element(b.max.begin() + from, b.max.begin() + to));
    const double m = std::accumulate(b.mean.begin() + from, b.mean.begin() + to, 0.0) / static_cast<double>(per);
    out.mean.push_back(m);
    out.sd.push_back(std::sqrt(std::max(second_moment(b, lo, hi) - m * m, 0.0)));
  }
  return out;
}

// The same statistics as statistic() from the block summaries, which see peaks a sampled series misses.
// low_freq_share: the variance of the runner's block means over the total variance, i.e. the share of
// the signal at periods longer than one block (a box filter); it needs fine blocks (e.g. 200 steps).
double block_statistic(const Json& json, const std::string& stat, int groups) {
  const Blocks fine = read_blocks(json);
  const double k = static_cast<double>(fine.size());
  const double m = std::accumulate(fine.mean.begin(), fine.mean.end(), 0.0) / k;
  const double var = std::max(second_moment(fine, 0, fine.size()) - m * m, 0.0);
  if (stat == "max_abs")
    return std::max(std::abs(*std::min_element(fine.min.begin(), fine.min.end())), std::abs(*std::max_element(fine.max.begin(), fine.max.end())));
  if (stat == "spread") return *std::max_element(fine.max.begin(), fine.max.end()) - *std::min_element(fine.min.begin(), fine.min.end());
  if (stat == "mean") return m;
  if (stat == "std") return std::sqrt(var);
  if (stat == "low_freq_share") {
    double between = 0;
    for (double x : fine.mean) between += (x - m) * (x - m);
    return var > 0 ? between / k / var : 0.0;
  }
  const Blocks b = group_blocks(fine, groups, stat);
  if (stat == "block_mean_span") return *std::max_element(b.mean.begin(), b.mean.end()) - *std::min_element(b.mean.begin(), b.mean.end());
  if (stat != "block_width_variation") throw InputError("series_stat: unknown stat '" + stat + "'");
  std::vector<double> w;
  for (std::size_t i = 0; i < b.size(); ++i) w.push_back(b.max[i] - b.min[i]);
  const auto [wmn, wmx] = std::minmax_element(w.begin(), w.end());
  return (*wmx - *wmn) / *wmx;
}

}  // namespace

Json check_metric_ratio(const Json& c, const Json& rows) {
  int na = 0, nb = 0;
  const std::size_t a = one_row(rows, c.value("numerator", Json()), &na);
  const std::size_t b = one_row(rows, c.value("denominator", Json()), &nb);
  if (a == kNone || b == kNone)
    return no_data_row(c, std::to_string(na) + " and " + std::to_string(nb) + " rows match numerator and denominator; each needs one");
  for (const std::size_t i : {a, b})
    if (rows[i].value("status", "") != "ok") return failed_run_row(c, rows[i], i == a ? "numerator's" : "denominator's");
  const std::string metric = c.value("metric", "");
  const double x = metric_of(rows[a], c.value("numerator_metric", metric));
  const double y = metric_of(rows[b], c.value("denominator_metric", metric));
  return judge_row(c, x / y, "Ratio " + num(x) + " / " + num(y) + ".");
}

// ours for the judge: the smallest error among the expected methods over the smallest of all (1 when an
// expected method is the best); the row shows the best method's id.
Json check_best(const Json& c, const Json& rows) {
  const std::string metric = c.value("metric", "");
  std::string best;
  double best_v = INFINITY;
  std::vector<std::pair<std::string, double>> all;
  for (const auto& r : rows) {
    if (!where_matches(r, c.value("where", Json()))) continue;
    const double v = metric_of(r, metric);  // NaN for a run that did not end ok: never the best
    all.emplace_back(r.value("method", ""), v);
    if (v < best_v) best_v = v, best = r.value("method", "");
  }
  if (best.empty()) return no_data_row(c, "no row with a finite " + metric + " matches");
  Json expected = c.value("expected", Json());
  if (expected.is_string()) expected = Json::array({expected});
  double expected_best = INFINITY;
  std::ostringstream note;
  note << "Smallest " << metric << ": " << best << " (" << num(best_v) << ").";
  for (const auto& e : expected)
    for (const auto& [m, v] : all)
      if (m == e.get<std::string>()) {
        if (v < expected_best) expected_best = v;
        if (m != best) note << " " << m << " is " << num(v / best_v) << "x the best.";
      }
  const double factor = best_v > 0 ? expected_best / best_v : (expected_best == best_v ? 1.0 : INFINITY);
  note << " The best expected method's error over the best of all: " << num(factor) << ".";
  Json v = judge_row(c, std::isnan(factor) ? INFINITY : factor, note.str());
  v["ours"] = best;
  v["ratio"] = nullptr;
  v["factor_to_best"] = json_number(factor);
  return v;
}

Json check_series_stat(const Json& c, const Json& rows, const Json& series) {
  int n = 0;
  const std::size_t index = one_row(rows, c.value("where", Json()), &n);
  if (index == kNone) return no_data_row(c, std::to_string(n) + " rows match; a series_stat check needs one");
  if (rows[index].value("status", "") != "ok") return failed_run_row(c, rows[index], "matching");
  const std::string field = c.value("series", std::string(metrics::energy_rel_err.name));
  const std::string stat = c.value("stat", "");
  const Json& row_metrics = rows[index].value("metrics", Json::object());
  if (row_metrics.contains(field + metrics::kBlocks) && row_metrics[field + metrics::kBlocks].is_object()) {
    const Json& b = row_metrics[field + metrics::kBlocks];
    const int groups = c.value("blocks", 10);
    const std::string over = stat == "low_freq_share" ? std::to_string(b["mean"].size()) + " blocks" : std::to_string(groups) + " blocks";
    return judge_row(c, block_statistic(b, stat, groups), stat + " of " + field + " from every step (" + over + ").");
  }
  for (const auto& s : series) {
    if (s.value("row", kNone) != index || !s.contains(field)) continue;
    std::vector<double> v;
    for (const auto& x : s[field]) v.push_back(x.is_number() ? x.get<double>() : NAN);
    if (v.empty() || std::any_of(v.begin(), v.end(), [](double x) { return !std::isfinite(x); }))
      return no_data_row(c, "the " + field + " series is empty or not finite");
    return judge_row(c, statistic(v, stat, c.value("blocks", 10), c.value("level", 0.0)), stat + " of " + field + " over " + std::to_string(v.size()) + " samples.");
  }
  return no_data_row(c, "the matching row recorded no " + field + " series");
}

namespace {

std::vector<double> series_values(const Json& s, const std::string& field) {
  std::vector<double> v;
  for (const auto& x : s[field]) v.push_back(x.is_number() ? x.get<double>() : NAN);
  return v;
}

// Spike events: runs of consecutive samples whose step change |e_k - e_{k-1}| exceeds `fraction` of the
// largest |e| of the run, i.e. the jumps visible on the figure's own scale (the thesis's plots are linear in
// the relative error). Returns the [first, last] sample of each event.
std::vector<std::pair<std::size_t, std::size_t>> spike_events(const std::vector<double>& e, double fraction) {
  double top = 0;
  for (double x : e) top = std::max(top, std::abs(x));
  std::vector<std::pair<std::size_t, std::size_t>> out;
  if (!(top > 0)) return out;
  for (std::size_t k = 1; k < e.size(); ++k) {
    if (std::abs(e[k] - e[k - 1]) <= fraction * top) continue;
    if (!out.empty() && out.back().second + 1 == k)
      out.back().second = k;
    else
      out.emplace_back(k, k);
  }
  return out;
}

}  // namespace

Json check_spikes(const Json& c, const Json& rows, const Json& series) {
  int n = 0;
  const std::size_t index = one_row(rows, c.value("where", Json()), &n);
  if (index == kNone) return no_data_row(c, std::to_string(n) + " rows match; a spikes check needs one");
  if (rows[index].value("status", "") != "ok") return failed_run_row(c, rows[index], "matching");
  const std::string field = c.value("series", std::string(metrics::energy_rel_err.name));
  const std::string near = c.value("near", std::string("min_pair_distance"));
  const std::string stat = c.value("stat", std::string("count"));
  const double fraction = c.value("jump_fraction", 0.02), below = c.value("distance_below", 1.5);
  if (stat != "count" && stat != "near_fraction") throw InputError("spikes: unknown stat '" + stat + "' (count, near_fraction)");
  for (const auto& s : series) {
    if (s.value("row", kNone) != index || !s.contains(field) || !s.contains(near)) continue;
    const std::vector<double> e = series_values(s, field), r = series_values(s, near);
    if (e.size() != r.size() || std::any_of(e.begin(), e.end(), [](double x) { return !std::isfinite(x); }))
      return no_data_row(c, "the " + field + " series is not finite");
    const auto events = spike_events(e, fraction);
    std::size_t close = 0;
    for (const auto& [first, last] : events)
      close += *std::min_element(r.begin() + static_cast<long>(first - 1), r.begin() + static_cast<long>(last + 1)) < below;
    const double share = events.empty() ? NAN : static_cast<double>(close) / static_cast<double>(events.size());
    std::ostringstream note;
    note << events.size() << " spike events of " << field << " (step change > " << num(fraction) << " of the largest |value|) over "
         << e.size() << " samples; " << close << " of them with " << near << " < " << num(below) << ".";
    return judge_row(c, stat == "count" ? static_cast<double>(events.size()) : share, note.str());
  }
  return no_data_row(c, "the matching row recorded no " + field + " and " + near + " series");
}

// rate_ratio (see the header): spike onsets against close encounters, with a circular-shift null.
Json check_rate_ratio(const Json& c, const Json& rows, const Json& series) {
  int n = 0;
  const std::size_t index = one_row(rows, c.value("where", Json()), &n);
  if (index == kNone) return no_data_row(c, std::to_string(n) + " rows match; a rate_ratio check needs one");
  if (rows[index].value("status", "") != "ok") return failed_run_row(c, rows[index], "matching");
  const std::string field = c.value("series", std::string(metrics::energy_rel_err.name));
  const std::string near = c.value("near", std::string("min_pair_distance"));
  const double fraction = c.value("jump_fraction", 0.02), q = c.value("close_quantile", 0.1), alpha = c.value("alpha", 0.05);
  if (!(q > 0 && q < 1)) throw InputError("rate_ratio: close_quantile must lie in (0, 1)");
  for (const auto& s : series) {
    if (s.value("row", kNone) != index || !s.contains(field) || !s.contains(near)) continue;
    const std::vector<double> e = series_values(s, field), r = series_values(s, near);
    if (e.size() != r.size() || e.size() < 3 || std::any_of(e.begin(), e.end(), [](double x) { return !std::isfinite(x); }))
      return no_data_row(c, "the " + field + " series is too short or not finite");
    // Per transition k (samples k-1 -> k): is a spike event starting there, and are the particles close then?
    const auto events = spike_events(e, fraction);
    const std::size_t m = e.size() - 1;
    std::vector<char> onset(m, 0), close(m, 0);
    for (const auto& ev : events) onset[ev.first - 1] = 1;
    std::vector<double> closest(m);
    for (std::size_t k = 0; k < m; ++k) closest[k] = std::min(r[k], r[k + 1]);
    const double threshold = c.contains("distance_below") ? c["distance_below"].get<double>() : stats::quantile(closest, q);
    std::size_t n_close = 0, n_onset = 0, both = 0;
    for (std::size_t k = 0; k < m; ++k) {
      close[k] = closest[k] <= threshold;
      n_close += close[k];
      n_onset += onset[k];
      both += close[k] && onset[k];
    }
    if (n_onset == 0 || n_close == 0) return no_data_row(c, "no spike event or no close sample in the run");
    const double base = static_cast<double>(n_onset) / static_cast<double>(m);
    const double close_share = static_cast<double>(n_close) / static_cast<double>(m);
    const double ratio = static_cast<double>(both) / static_cast<double>(n_close) / base;
    // Null: the close indicator shifted circularly against the onsets (keeps each series' own clustering).
    constexpr int kShifts = 999;
    std::vector<std::size_t> onsets;
    for (std::size_t k = 0; k < m; ++k)
      if (onset[k]) onsets.push_back(k);
    int at_least = 0;
    std::vector<double> null_ratios;
    for (int j = 1; j <= kShifts; ++j) {
      const std::size_t shift = static_cast<std::size_t>(std::llround(static_cast<double>(j) * static_cast<double>(m) / (kShifts + 1.0)));
      std::size_t hit = 0;
      for (const std::size_t k : onsets) hit += close[(k + shift) % m];
      const double rr = static_cast<double>(hit) / static_cast<double>(n_close) / base;
      null_ratios.push_back(rr);
      at_least += rr >= ratio;
    }
    const double p_value = (1.0 + at_least) / (kShifts + 1.0);
    const double null95 = stats::quantile(null_ratios, 0.95);
    std::ostringstream note;
    note << n_onset << " spike onsets (step change > " << num(fraction) << " of the largest |value|) in " << m
         << " sample steps; " << n_close << " of those steps (" << num(100 * close_share) << " %) have " << near << " <= "
         << num(threshold) << (c.contains("distance_below") ? "" : " (its " + num(100 * q) + " % quantile)") << ", and " << both
         << " onsets fall in them. Rate ratio " << num(ratio) << "; under " << kShifts << " circular shifts its 95 % quantile is "
         << num(null95) << ", p = " << num(p_value) << ".";
    Json v = judge_row(c, ratio, note.str());
    v["p_value"] = json_number(p_value);
    v["null_q95"] = json_number(null95);
    if (v.value("verdict", "") != "no data" && v.value("verdict", "") != "measured" && p_value > alpha &&
        judge(check_criterion(c), ratio) == Outcome::holds) {
      Json u = verdict_row(c, json_number(ratio), Outcome::inconclusive,
                           note.str() + " Not significant at " + num(alpha) + ": inconclusive.");
      u["p_value"] = v["p_value"];
      u["null_q95"] = v["null_q95"];
      return u;
    }
    return v;
  }
  return no_data_row(c, "the matching row recorded no " + field + " and " + near + " series");
}

}  // namespace gib

namespace gib {
namespace {

struct TimedSeries {
  std::vector<double> t, v;
};

// The series named in `side` ({"where", "series", "scale", "window"}) of its one matching row, on its own times.
TimedSeries side_series(const Json& side, const Json& rows, const Json& series, std::string* why) {
  int n = 0;
  const std::size_t index = one_row(rows, side.value("where", Json()), &n);
  if (index == kNone) {
    *why = std::to_string(n) + " rows match " + side.value("where", Json()).dump() + "; series_compare needs one";
    return {};
  }
  if (rows[index].value("status", "") != "ok") {
    *why = "failed:" + std::to_string(index);
    return {};
  }
  const std::string field = side.value("series", "");
  for (const auto& s : series) {
    if (s.value("row", kNone) != index || !s.contains(field) || !s.contains("t")) continue;
    TimedSeries out{series_values(s, "t"), series_values(s, field)};
    if (out.v.size() != out.t.size()) {
      *why = field + " has " + std::to_string(out.v.size()) + " samples for " + std::to_string(out.t.size()) + " times";
      return {};
    }
    // lag_samples k: sample j belongs to t[j - k] (RATTLE's multiplier of a step's start, recorded at its end).
    const auto lag = static_cast<std::size_t>(std::max(0, side.value("lag_samples", 0)));
    if (lag >= out.t.size()) {
      *why = "lag_samples exceeds the series";
      return {};
    }
    out.v.erase(out.v.begin(), out.v.begin() + static_cast<long>(lag));
    out.t.resize(out.v.size());
    // Leading nulls (a quantity that appears after the first sample) are dropped with their times.
    std::size_t first = 0;
    while (first < out.v.size() && std::isnan(out.v[first])) ++first;
    out.t.erase(out.t.begin(), out.t.begin() + static_cast<long>(first));
    out.v.erase(out.v.begin(), out.v.begin() + static_cast<long>(first));
    const double scale = side.value("scale", 1.0);
    for (double& x : out.v) x *= scale;
    return out;
  }
  *why = "the row matching " + side.value("where", Json()).dump() + " recorded no " + field + " series";
  return {};
}

// Mean over the samples with |t_j - t_i| <= width / 2 (two pointers: O(n) for sorted t).
std::vector<double> box_filter(const std::vector<double>& t, const std::vector<double>& v, double width) {
  if (!(width > 0)) return v;
  std::vector<double> out(v.size());
  std::size_t lo = 0, hi = 0;
  double sum = 0;
  for (std::size_t i = 0; i < v.size(); ++i) {
    while (hi < v.size() && t[hi] <= t[i] + 0.5 * width) sum += v[hi++];
    while (t[lo] < t[i] - 0.5 * width) sum -= v[lo++];
    out[i] = sum / static_cast<double>(hi - lo);
  }
  return out;
}

}  // namespace

Json check_series_compare(const Json& c, const Json& rows, const Json& series) {
  std::string why;
  const Json& subject = c.value("subject", Json::object());
  const Json& reference = c.value("reference", Json::object());
  auto missing = [&](const std::string& w) {
    if (w.rfind("failed:", 0) == 0) return failed_run_row(c, rows[std::stoul(w.substr(7))], "compared");
    return no_data_row(c, w);
  };
  TimedSeries a = side_series(subject, rows, series, &why);
  if (!why.empty()) return missing(why);
  TimedSeries b = side_series(reference, rows, series, &why);
  if (!why.empty()) return missing(why);
  a.v = box_filter(a.t, a.v, subject.value("window", 0.0));
  b.v = box_filter(b.t, b.v, reference.value("window", 0.0));
  const double skip = c.value("skip_t", 0.0);
  const double t_end = std::min(a.t.empty() ? 0.0 : a.t.back(), b.t.empty() ? 0.0 : b.t.back());
  double diff2 = 0, ref2 = 0;
  std::size_t used = 0;
  for (std::size_t i = 0, j = 0; i < a.t.size(); ++i) {
    if (a.t[i] < skip || a.t[i] > t_end - skip) continue;
    while (j < b.t.size() && b.t[j] < a.t[i] - 1e-9 * (1 + std::abs(a.t[i]))) ++j;
    if (j == b.t.size() || std::abs(b.t[j] - a.t[i]) > 1e-9 * (1 + std::abs(a.t[i]))) continue;  // no common sample
    if (!std::isfinite(a.v[i]) || !std::isfinite(b.v[j])) return no_data_row(c, "a compared series is not finite");
    diff2 += (a.v[i] - b.v[j]) * (a.v[i] - b.v[j]);
    ref2 += b.v[j] * b.v[j];
    ++used;
  }
  if (used < 2 || !(ref2 > 0)) return no_data_row(c, "the two series share fewer than two sample times");
  const double rel = std::sqrt(diff2 / ref2);
  return judge_row(c, rel, "RMS(" + subject.value("series", "") + " - " + reference.value("series", "") + ") / RMS(" +
                                  reference.value("series", "") + ") over " + std::to_string(used) + " common samples.");
}

}  // namespace gib
