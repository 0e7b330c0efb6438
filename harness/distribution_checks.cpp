#include "harness/distribution_checks.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <sstream>
#include <stdexcept>

#include "harness/check_kinds.hpp"
#include "harness/figure_verdict.hpp"
#include "harness/json_util.hpp"

namespace gib {

std::int64_t BinnedSample::total() const {
  std::int64_t t = underflow + overflow;
  for (auto c : counts) t += c;
  return t;
}

namespace {

constexpr int kMaxRuns = 20;
constexpr int kMaxShiftBins = 200;

// Cumulative counts at the bin edges: entry k counts the values below edge k (the underflow at edge 0), bins + 1
// entries; the overflow is what the last entry leaves of the total.
std::vector<double> cumulative(const BinnedSample& s) {
  std::vector<double> out(s.counts.size() + 1);
  double acc = static_cast<double>(s.underflow);
  for (std::size_t k = 0; k < s.counts.size(); ++k) {
    out[k] = acc;
    acc += static_cast<double>(s.counts[k]);
  }
  out[s.counts.size()] = acc;
  return out;
}

// The null distribution of D over every split of the runs into groups of size n_a (the first n_a runs being the
// observed split), by Gosper's enumeration of n_a-bit subsets of n bits.
std::vector<double> split_statistics(const std::vector<std::vector<double>>& cum, const std::vector<double>& totals, int n_a,
                                     double* observed) {
  const int n = static_cast<int>(cum.size());
  const std::size_t edges = cum.front().size();
  std::vector<double> all(edges, 0.0);
  double total_all = 0;
  for (int r = 0; r < n; ++r) {
    for (std::size_t k = 0; k < edges; ++k) all[k] += cum[static_cast<std::size_t>(r)][k];
    total_all += totals[static_cast<std::size_t>(r)];
  }
  std::vector<double> out, a(edges);
  const std::uint32_t first = (std::uint32_t{1} << n_a) - 1, end = std::uint32_t{1} << n;
  for (std::uint32_t set = first; set < end;) {
    std::fill(a.begin(), a.end(), 0.0);
    double total_a = 0;
    for (int r = 0; r < n; ++r)
      if ((set >> r) & 1U) {
        for (std::size_t k = 0; k < edges; ++k) a[k] += cum[static_cast<std::size_t>(r)][k];
        total_a += totals[static_cast<std::size_t>(r)];
      }
    const double total_b = total_all - total_a;
    double d = 0;
    for (std::size_t k = 0; k < edges; ++k) d = std::max(d, std::abs(a[k] / total_a - (all[k] - a[k]) / total_b));
    if (set == first) *observed = d;
    out.push_back(d);
    const std::uint32_t low = set & (~set + 1), ripple = set + low;
    set = (((ripple ^ set) >> 2) / low) | ripple;
  }
  return out;
}

}  // namespace

PermutationTest permutation_ks_test(const std::vector<BinnedSample>& a, const std::vector<BinnedSample>& b, double alpha) {
  const int n_a = static_cast<int>(a.size()), n = static_cast<int>(a.size() + b.size());
  if (a.empty() || b.empty() || n > kMaxRuns)
    throw std::invalid_argument("permutation_ks_test: each group needs a run, and at most 20 runs in all");
  std::vector<std::vector<double>> cum;
  std::vector<double> totals;
  for (const auto* group : {&a, &b})
    for (const auto& s : *group) {
      if (s.counts.size() != a.front().counts.size() || s.total() == 0)
        throw std::invalid_argument("permutation_ks_test: runs with different bins, or an empty run");
      cum.push_back(cumulative(s));
      totals.push_back(static_cast<double>(s.total()));
    }
  PermutationTest t;
  std::vector<double> null = split_statistics(cum, totals, n_a, &t.statistic);
  t.splits = static_cast<std::int64_t>(null.size());
  // Ties with the observed D count as "at least as large": a conservative p-value. D is computed the same way on
  // every split, so the observed split's own D ties with itself exactly.
  const auto at_least = std::count_if(null.begin(), null.end(), [&](double d) { return d >= t.statistic; });
  t.p_value = static_cast<double>(at_least) / static_cast<double>(t.splits);
  std::sort(null.begin(), null.end(), std::greater<>());
  // Every split's p-value is the share of splits with a D at least its own: the largest D has the smallest p.
  t.smallest_p = static_cast<double>(std::count(null.begin(), null.end(), null.front())) / static_cast<double>(t.splits);
  // The smallest D whose p-value is below alpha: walking down the sorted D, the splits with a D at least null[i] are
  // those up to the last tie of null[i].
  t.critical = INFINITY;
  for (std::size_t i = 0; i < null.size();) {
    std::size_t j = i;
    while (j < null.size() && null[j] == null[i]) ++j;
    if (!(static_cast<double>(j) / static_cast<double>(t.splits) < alpha)) break;
    t.critical = null[i];
    i = j;
  }
  return t;
}

std::vector<BinnedSample> shifted(const std::vector<BinnedSample>& a, int bins) {
  std::vector<BinnedSample> out = a;
  for (auto& s : out) {
    const auto n = static_cast<int>(s.counts.size());
    std::vector<std::int64_t> moved(s.counts.size(), 0);
    for (int k = 0; k < n; ++k) {
      if (k + bins < n) moved[static_cast<std::size_t>(k + bins)] += s.counts[static_cast<std::size_t>(k)];
      else s.overflow += s.counts[static_cast<std::size_t>(k)];
    }
    s.counts = std::move(moved);
  }
  return out;
}

namespace {

// The histograms of `name` in the rows matching `where`; a reason in *why when a row did not end ok or lacks them.
std::vector<BinnedSample> group(const Json& rows, const Json& where, const std::string& name, const Json& range, Json* grid,
                                const Json** failed, std::string* why, std::int64_t* states) {
  std::vector<BinnedSample> out;
  for (const auto& r : rows) {
    if (!where_matches(r, where)) continue;
    if (r.value("status", "") != "ok") {
      *failed = &r;
      return {};
    }
    const Json* d = r.contains("distributions") && r["distributions"].contains(name) ? &r["distributions"][name] : nullptr;
    if (d == nullptr) {
      *why = "a matching row has no distribution " + name + " (observe.distributions)";
      return {};
    }
    const Json g = {(*d)["lo"], (*d)["hi"], (*d)["bin"]};
    if (grid->is_null()) *grid = g;
    if (g != *grid) {
      *why = "the rows' histograms of " + name + " have different bins";
      return {};
    }
    BinnedSample s;
    s.counts = (*d)["counts"].get<std::vector<std::int64_t>>();
    s.underflow = (*d)["underflow"].get<std::int64_t>();
    s.overflow = (*d)["overflow"].get<std::int64_t>();
    if (range.is_array()) {
      // The distribution conditional on the range: its bins only, nothing below or above it.
      const double lo = (*d)["lo"].get<double>(), bin = (*d)["bin"].get<double>();
      const auto first = static_cast<std::ptrdiff_t>(std::llround((range[0].get<double>() - lo) / bin));
      const auto last = static_cast<std::ptrdiff_t>(std::llround((range[1].get<double>() - lo) / bin));
      if (first < 0 || last > static_cast<std::ptrdiff_t>(s.counts.size()) || first >= last) {
        *why = "values_in " + range.dump() + " is not a run of whole bins inside the histogram";
        return {};
      }
      s.counts = std::vector<std::int64_t>(s.counts.begin() + first, s.counts.begin() + last);
      s.underflow = s.overflow = 0;
      if (s.total() == 0) {
        *why = "a matching row has no value in " + range.dump();
        return {};
      }
    }
    *states += (*d)["states"].get<std::int64_t>();
    out.push_back(std::move(s));
  }
  return out;
}

std::int64_t values_in(const std::vector<BinnedSample>& g) {
  std::int64_t n = 0;
  for (const auto& s : g) n += s.total();
  return n;
}

}  // namespace

Json check_distribution_agreement(const Json& c, const Json& rows) {
  const std::string name = c.value("distribution", "");
  const double alpha = c.value("at_least", 0.01);
  Json grid;
  const Json* failed = nullptr;
  std::string why;
  std::int64_t states_a = 0, states_b = 0;
  const Json range = c.value("values_in", Json());
  if (!range.is_null() && !(range.is_array() && range.size() == 2 && range[0].is_number() && range[1].is_number()))
    return no_data_row(c, "values_in must be [lo, hi]");
  const auto a = group(rows, c.value("where", Json()), name, range, &grid, &failed, &why, &states_a);
  if (failed != nullptr) return failed_run_row(c, *failed, "where group's");
  const auto b = why.empty() ? group(rows, c.value("reference", Json()), name, range, &grid, &failed, &why, &states_b)
                             : std::vector<BinnedSample>{};
  if (failed != nullptr) return failed_run_row(c, *failed, "reference group's");
  if (!why.empty()) return no_data_row(c, why);
  if (a.empty() || b.empty() || a.size() + b.size() > kMaxRuns)
    return no_data_row(c, std::to_string(a.size()) + " and " + std::to_string(b.size()) +
                              " rows match where and reference; each group needs one, at most 20 in all");
  const PermutationTest t = permutation_ks_test(a, b, alpha);
  const std::string sizes = std::to_string(a.size()) + " + " + std::to_string(b.size()) + " seeds";
  if (!(t.smallest_p < alpha))
    return no_data_row(c, sizes + " give at least p = " + short_number(t.smallest_p) + ": the test cannot reject at alpha = " + short_number(alpha) +
                              "; more seeds are needed");
  const double bin = grid[2].get<double>();
  // The smallest rejected shift, by doubling and then bisection: a larger shift moves the groups further apart, and
  // each probe is a whole enumeration (184756 splits for 10 + 10 seeds), so a scan bin by bin could cost 200 of them.
  int detectable = 0;
  double detectable_p = NAN;
  const auto rejected = [&](int k, double* p) {
    *p = permutation_ks_test(shifted(a, k), b, alpha).p_value;
    return *p < alpha;
  };
  int accepted = 0;  // the largest shift known not to be rejected
  double p = NAN;
  for (int k = 1; k <= kMaxShiftBins; k = std::min(2 * k, k == kMaxShiftBins ? 2 * k : kMaxShiftBins)) {
    if (rejected(k, &p)) {
      detectable = k, detectable_p = p;
      break;
    }
    accepted = k;
  }
  while (detectable > accepted + 1) {
    const int mid = accepted + (detectable - accepted) / 2;
    if (rejected(mid, &p))
      detectable = mid, detectable_p = p;
    else
      accepted = mid;
  }
  std::ostringstream note;
  note << "KS distance D = " << short_number(t.statistic) << " between the pooled histograms of " << name
       << (range.is_null() ? std::string() : " in [" + short_number(range[0].get<double>()) + ", " + short_number(range[1].get<double>()) + ")")
       << " of " << sizes << " ("
       << values_in(a) << " and " << values_in(b) << " values from " << states_a << " and " << states_b
       << " states); exact permutation test over all " << t.splits << " splits of the seeds: p = " << short_number(t.p_value)
       << " (alpha " << short_number(alpha) << "; a D of " << short_number(t.critical) << " or more rejects). Power: ";
  if (detectable > 0)
    note << "moving every value of the where group up by " << detectable << " bin" << (detectable > 1 ? "s" : "") << " ("
         << short_number(detectable * bin) << ") is rejected (p = " << short_number(detectable_p) << ").";
  else
    note << "no shift up to " << kMaxShiftBins << " bins is rejected: the seeds vary too much for this test to see a difference.";
  Json v = judge_row(c, t.p_value, note.str());
  v["statistic"] = json_number(t.statistic);
  v["p_value"] = json_number(t.p_value);
  v["splits"] = t.splits;
  v["seeds"] = {a.size(), b.size()};
  v["detectable_shift"] = detectable > 0 ? json_number(detectable * bin) : Json(nullptr);
  return v;
}

}  // namespace gib
