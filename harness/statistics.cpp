#include "harness/statistics.hpp"

#include <algorithm>
#include <cmath>

namespace gib::stats {

double student_t95(int dof) {
  static const double table[] = {0,     12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
                                 2.201, 2.179,  2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
                                 2.080, 2.074,  2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042};
  if (dof <= 0) return INFINITY;
  if (dof <= 30) return table[dof];
  return 1.96 + 2.4 / dof;  // within 0.3 % of the exact quantile beyond 30 dof
}

LineFit fit_line(const std::vector<double>& x, const std::vector<double>& y) {
  LineFit f;
  const auto n = static_cast<int>(std::min(x.size(), y.size()));
  f.n = n;
  if (n < 3) return f;
  double mx = 0, my = 0;
  for (int i = 0; i < n; ++i) {
    mx += x[i];
    my += y[i];
  }
  mx /= n;
  my /= n;
  double sxx = 0, sxy = 0, syy = 0;
  for (int i = 0; i < n; ++i) {
    sxx += (x[i] - mx) * (x[i] - mx);
    sxy += (x[i] - mx) * (y[i] - my);
    syy += (y[i] - my) * (y[i] - my);
  }
  if (!(sxx > 0)) return f;
  f.slope = sxy / sxx;
  f.intercept = my - f.slope * mx;
  double sse = 0;
  for (int i = 0; i < n; ++i) {
    const double r = y[i] - (f.intercept + f.slope * x[i]);
    sse += r * r;
  }
  f.r2 = syy > 0 ? 1.0 - sse / syy : 1.0;
  const double se = std::sqrt(sse / (n - 2) / sxx);
  const double t = student_t95(n - 2);
  f.slope_ci_lo = f.slope - t * se;
  f.slope_ci_hi = f.slope + t * se;
  f.ok = true;
  return f;
}

double quantile(std::vector<double> v, double q) {
  if (v.empty()) return NAN;
  std::sort(v.begin(), v.end());
  const double pos = q * static_cast<double>(v.size() - 1);
  const auto lo = static_cast<std::size_t>(std::floor(pos));
  const std::size_t hi = std::min(lo + 1, v.size() - 1);
  return v[lo] + (pos - static_cast<double>(lo)) * (v[hi] - v[lo]);
}

double median(std::vector<double> v) { return quantile(std::move(v), 0.5); }

}  // namespace gib::stats
