// Least-squares fits used by the order fit (GUIDE 3: slope of log err vs log h) and by the drift
// classification of invariants (slope of per-block maxima against time).
#pragma once

#include <vector>

namespace gib::stats {

struct LineFit {
  double slope = 0, intercept = 0;
  double slope_ci_lo = 0, slope_ci_hi = 0;  // 95 % interval (Student t, n - 2 dof)
  double r2 = 0;
  int n = 0;
  bool ok = false;  // false when n < 3 or x is constant
};

LineFit fit_line(const std::vector<double>& x, const std::vector<double>& y);

// Two-sided 95 % quantile of Student's t with `dof` degrees of freedom.
double student_t95(int dof);

double median(std::vector<double> v);
// Linear-interpolation quantile, q in [0, 1].
double quantile(std::vector<double> v, double q);

}  // namespace gib::stats
