// Observed order of convergence (GUIDE 3): the least-squares slope of log err against log h over the
// points that lie above the round-off plateau and still decrease, with its 95 % interval and r^2.
// The window is the longest run of consecutive points (in decreasing h) with floor < err <= ceiling
// where each error is below its predecessor by at least (h_prev/h)^min_local_order; non-monotone
// pre-asymptotic points and the round-off plateau therefore fall outside it.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

namespace gib {

struct OrderFitOptions {
  double floor = 1e-12;   // errors at or below this are on the round-off plateau
  double ceiling = 1e-1;  // errors above this are pre-asymptotic (O(1) errors, instability)
  double min_local_order = 0.5;
  // When > 0, fit only the last (smallest-h, most asymptotic) max_points points of the window.
  int max_points = 0;
  // Round-off grows with the number of steps (about linearly, from biased rounding in each step), so
  // with a known final time T a point at step h also needs err > roundoff_per_step * T / h.
  double roundoff_per_step = 10 * 2.220446049250313e-16;
};

// A fit decides an order claim only with enough points and a narrow interval (GUIDE 7): otherwise it is
// "inconclusive", shown as such and never counted as a pass (figures, the battery, gibench check).
constexpr int kConclusiveFitPoints = 5;
constexpr double kConclusiveHalfWidth = 0.15;

struct OrderFit {
  bool ok = false;  // false when fewer than 3 points qualify
  double order_hat = 0, ci_lo = 0, ci_hi = 0, r2 = 0;
  double h_max = 0, h_min = 0;
  int n = 0;
  std::vector<std::pair<double, double>> points;  // all (h, err), decreasing h
  std::string note;
  double half_width() const { return 0.5 * (ci_hi - ci_lo); }
  bool conclusive() const { return ok && n >= kConclusiveFitPoints && half_width() <= kConclusiveHalfWidth; }
  // Why the fit cannot decide an order claim ("" when it can).
  std::string inconclusive_reason() const;
};

// The same rule on a fit as written in results (fits[k]: ok, window.n, ci95).
bool fit_json_conclusive(const nlohmann::json& fit, std::string* why = nullptr);

// T > 0 enables the step-count-dependent floor (roundoff_per_step * T / h).
OrderFit fit_order(std::vector<std::pair<double, double>> h_err, const OrderFitOptions& opt = {}, double T = 0);

}  // namespace gib
