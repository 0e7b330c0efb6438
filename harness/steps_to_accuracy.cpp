#include "harness/steps_to_accuracy.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <sstream>

#include "core/errors.hpp"
#include "core/user_input.hpp"
#include "harness/runner.hpp"

namespace gib {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

void require_eps(double eps) {
  if (std::isfinite(eps) && eps > 0) return;
  std::ostringstream msg;
  msg << "eps must be a positive finite number, got " << number_text(eps);
  throw InputError(msg.str());
}

// Worse of two errors for the same N: NaN wins, then the larger value.
double worse(double a, double b) {
  if (std::isnan(a) || std::isnan(b)) return kNaN;
  return std::max(a, b);
}

// Sorted by N with repeated N merged (a repeat meets eps only if every entry does).
StepsScan normalised(StepsScan scan) {
  std::stable_sort(scan.begin(), scan.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  StepsScan out;
  for (const auto& [n, e] : scan) {
    if (n < 1) {
      std::ostringstream msg;
      msg << "step counts in a scan must be >= 1, got " << n;
      throw InputError(msg.str());
    }
    if (!out.empty() && out.back().first == n)
      out.back().second = worse(out.back().second, e);
    else
      out.emplace_back(n, e);
  }
  return out;
}

}  // namespace

bool meets_eps(double err, double eps) { return std::isfinite(err) && err <= eps; }

StepsScanResult steps_from_scan(StepsScan scan, double eps) {
  require_eps(eps);
  const StepsScan pts = normalised(std::move(scan));
  StepsScanResult r;
  for (const auto& [n, e] : pts) {
    if (std::isfinite(e) && (r.best_n == 0 || e < r.best_err)) {
      r.best_n = n;
      r.best_err = e;
    }
  }
  // Walk down from the largest N: the answer is the bottom of the passing run at the top of the scan.
  std::size_t i = pts.size();
  while (i > 0 && meets_eps(pts[i - 1].second, eps)) --i;
  r.support = static_cast<int>(pts.size() - i);
  if (i > 0) {
    r.last_fail = pts[i - 1].first;
    r.last_fail_err = pts[i - 1].second;
  }
  if (r.support > 0) {
    r.reached = true;
    r.n = pts[i].first;
    r.err = pts[i].second;
  }
  return r;
}

void validate_steps_options(const StepsSearchOptions& opt) {
  std::ostringstream msg;
  if (opt.n_min < 1) msg << "n_min must be >= 1, got " << opt.n_min;
  else if (opt.n_max < opt.n_min) msg << "n_max (" << opt.n_max << ") must be >= n_min (" << opt.n_min << ")";
  else if (!std::isfinite(opt.ratio) || opt.ratio <= 1) msg << "ratio must be a finite number > 1, got " << opt.ratio;
  else if (opt.confirm < 1) msg << "confirm must be >= 1, got " << opt.confirm;
  else if (opt.window < 0) msg << "window must be >= 0, got " << opt.window;
  else return;
  throw InputError(msg.str());
}

namespace {

// One search: the memo of evaluated errors and the largest failing N seen so far.
class StepsSearch {
 public:
  StepsSearch(const ErrorOfSteps& err_of, double eps, const StepsSearchOptions& opt)
      : err_of_(err_of), eps_(eps), opt_(opt) {}

  StepsSearchResult run() {
    while (scan_above_last_fail()) {
      const std::int64_t n = bisect();
      if (dense_window_passes(n)) return report(n);
    }
    return report(0);
  }

 private:
  double eval(std::int64_t n) {
    const auto it = memo_.find(n);
    if (it != memo_.end()) return it->second;
    const double e = err_of_(n);
    memo_.emplace(n, e);
    if (!meets_eps(e, eps_)) fail_ = std::max(fail_, n);
    return e;
  }
  bool passes(std::int64_t n) { return meets_eps(eval(n), eps_); }

  std::int64_t next_scan_point(std::int64_t n) const;
  bool is_scan_point(std::int64_t n) const;
  bool scan_above_last_fail();
  std::int64_t bisect();
  bool dense_window_passes(std::int64_t n);
  StepsSearchResult report(std::int64_t n) const;
  void describe_cap(StepsSearchResult& r) const;

  const ErrorOfSteps& err_of_;
  double eps_;
  StepsSearchOptions opt_;
  std::map<std::int64_t, double> memo_;
  std::set<std::int64_t> dense_;
  std::int64_t fail_ = 0;  // largest failing N evaluated; 0 when none
};

std::int64_t StepsSearch::next_scan_point(std::int64_t n) const {
  const double x = static_cast<double>(n) * opt_.ratio;
  // 10 * 1.1 is 11.000000000000002 in binary: do not let that round up to 12.
  const double r = std::round(x);
  const double up = std::abs(x - r) <= 1e-9 * x ? r : std::ceil(x);
  if (up >= static_cast<double>(opt_.n_max)) return opt_.n_max;
  return std::max(n + 1, static_cast<std::int64_t>(up));
}

bool StepsSearch::is_scan_point(std::int64_t n) const {
  std::int64_t g = opt_.n_min;
  while (g < n && g < opt_.n_max) g = next_scan_point(g);
  return g == n;
}

// Step 1: true once `confirm` consecutive scan points above the last failure pass.
bool StepsSearch::scan_above_last_fail() {
  int run = 0;
  for (std::int64_t g = opt_.n_min;; g = next_scan_point(g)) {
    if (g > fail_) run = passes(g) ? run + 1 : 0;
    if (run >= opt_.confirm) return true;
    if (g >= opt_.n_max) return opt_.short_run_at_cap && run > 0;
  }
}

// Step 2: every evaluated N above fail_ passes, so the smallest of them bounds the bisection from above.
std::int64_t StepsSearch::bisect() {
  std::int64_t lo = std::max(fail_, opt_.n_min - 1);
  std::int64_t hi = memo_.upper_bound(fail_)->first;
  while (hi - lo > 1) {
    const std::int64_t mid = lo + (hi - lo) / 2;
    if (passes(mid))
      hi = mid;
    else
      lo = mid;
  }
  return hi;
}

// Step 3: all of the window is evaluated even after a failure; the points above the failure are
// reused (memoised) by the next window, which starts just above it.
bool StepsSearch::dense_window_passes(std::int64_t n) {
  const std::int64_t top = n + std::min(opt_.window, opt_.n_max - n);
  bool ok = true;
  for (std::int64_t k = n; k <= top; ++k) {
    dense_.insert(k);
    ok = passes(k) && ok;
  }
  return ok;
}

StepsSearchResult StepsSearch::report(std::int64_t n) const {
  StepsSearchResult r;
  r.evaluated.assign(memo_.begin(), memo_.end());
  r.dense.assign(dense_.begin(), dense_.end());
  r.evaluations = static_cast<int>(memo_.size());
  r.checked_top = memo_.empty() ? 0 : memo_.rbegin()->first;
  const StepsScanResult s = steps_from_scan(r.evaluated, eps_);
  r.best_n = s.best_n;
  r.best_err = s.best_err;
  r.last_fail = fail_;
  if (fail_ > 0) r.last_fail_err = memo_.at(fail_);
  if (n == 0) {
    describe_cap(r);
    return r;
  }
  r.reached = true;
  r.n = n;
  r.err = memo_.at(n);
  r.dense_hi = n;
  while (memo_.count(r.dense_hi + 1) > 0) ++r.dense_hi;
  for (auto it = memo_.upper_bound(r.dense_hi); it != memo_.end(); ++it)
    if (is_scan_point(it->first)) ++r.scan_points_above;
  return r;
}

void StepsSearch::describe_cap(StepsSearchResult& r) const {
  std::ostringstream msg;
  msg << "N > " << opt_.n_max << " failed";
  const auto passing_above = std::distance(memo_.upper_bound(fail_), memo_.end());
  if (passing_above > 0)
    msg << ": the " << passing_above << " evaluated N above the last failure " << fail_
        << " meet eps, fewer than confirm = " << opt_.confirm << " scan points before n_max; raise n_max";
  r.note = msg.str();
}

}  // namespace

StepsSearchResult search_steps_to_accuracy(const ErrorOfSteps& err_of, double eps, const StepsSearchOptions& opt) {
  require_eps(eps);
  validate_steps_options(opt);
  if (!err_of) throw InputError("search_steps_to_accuracy needs an error function");
  return StepsSearch(err_of, eps, opt).run();
}

ErrorOfSteps cell_error_of_steps(const Cell& tmpl, double T, const std::string& metric) {
  if (!std::isfinite(T) || T <= 0) {
    std::ostringstream msg;
    msg << "T must be a positive finite number, got " << T;
    throw InputError(msg.str());
  }
  return [cell = tmpl, T, metric](std::int64_t n) -> double {
    Cell c = cell;
    c.h = T / static_cast<double>(n);
    c.steps = n;
    c.observe.ref_samples = 0;  // only the final reference error is needed
    c.observe.series_points = 0;
    c.timing.reps = 0;
    const CellOutcome out = run_cell(c);
    const Json& m = out.row.at("metrics");
    if (!m.contains(metric)) {
      std::string msg = "unknown metric '";
      msg.append(metric).append("' for steps to accuracy");
      throw InputError(msg);
    }
    if (out.row.at("status") != "ok") return kNaN;
    if (!m.at(metric).is_number()) {
      std::string msg = "metric '";
      msg.append(metric).append("' is null for problem ").append(c.problem).append(" (no reference solution?)");
      throw InputError(msg);
    }
    return m.at(metric).get<double>();
  };
}

StepsSearchResult steps_to_accuracy_cell(const Cell& tmpl, double T, double eps, const StepsSearchOptions& opt,
                                         const std::string& metric) {
  return search_steps_to_accuracy(cell_error_of_steps(tmpl, T, metric), eps, opt);
}

}  // namespace gib
