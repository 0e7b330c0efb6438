#include "harness/order_fit.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

#include "harness/statistics.hpp"

namespace gib {

// Splits the points (decreasing h) into runs of usable, still-decreasing errors and returns the
// longest run (the later one on ties: it is nearer the asymptotic regime).
std::vector<std::pair<double, double>> decreasing_window(const std::vector<std::pair<double, double>>& pts,
                                                         const OrderFitOptions& opt, double T) {
  std::vector<std::pair<double, double>> best, run;
  auto close_run = [&]() {
    if (run.size() >= best.size() && !run.empty()) best = run;
    run.clear();
  };
  for (const auto& [h, e] : pts) {
    const double floor = T > 0 ? std::max(opt.floor, opt.roundoff_per_step * T / h) : opt.floor;
    const bool usable = std::isfinite(e) && e > floor && e <= opt.ceiling && h > 0;
    if (!usable) {
      close_run();
      continue;
    }
    if (!run.empty() && e > run.back().second / std::pow(run.back().first / h, opt.min_local_order)) close_run();
    run.emplace_back(h, e);
  }
  close_run();
  return best;
}

OrderFit fit_order(std::vector<std::pair<double, double>> h_err, const OrderFitOptions& opt, double T) {
  OrderFit f;
  std::sort(h_err.begin(), h_err.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
  f.points = h_err;
  auto window = decreasing_window(h_err, opt, T);
  if (opt.max_points > 0 && static_cast<int>(window.size()) > opt.max_points)
    window.erase(window.begin(), window.end() - opt.max_points);
  std::vector<double> lx, ly;
  for (const auto& [h, e] : window) {
    lx.push_back(std::log(h));
    ly.push_back(std::log(e));
  }
  f.n = static_cast<int>(window.size());
  f.h_max = window.empty() ? 0 : window.front().first;
  f.h_min = window.empty() ? 0 : window.back().first;
  const stats::LineFit line = stats::fit_line(lx, ly);
  if (!line.ok) {
    f.note = "only " + std::to_string(f.n) + " decreasing points between the round-off floor and the ceiling";
    return f;
  }
  f.ok = true;
  f.order_hat = line.slope;
  f.ci_lo = line.slope_ci_lo;
  f.ci_hi = line.slope_ci_hi;
  f.r2 = line.r2;
  return f;
}

namespace {

std::string inconclusive_text(bool ok, int n, double half_width, const std::string& note) {
  if (!ok) return "no fit: " + note;
  std::string why;
  if (n < kConclusiveFitPoints)
    why = std::to_string(n) + " points in the window (a decision needs " + std::to_string(kConclusiveFitPoints) + ")";
  if (half_width > kConclusiveHalfWidth) {
    char buf[96];
    std::snprintf(buf, sizeof buf, "95 %% interval +/-%.3g (a decision needs +/-%.2g or less)", half_width, kConclusiveHalfWidth);
    why += (why.empty() ? "" : "; ") + std::string(buf);
  }
  return why;
}

}  // namespace

std::string OrderFit::inconclusive_reason() const { return inconclusive_text(ok, n, half_width(), note); }

bool fit_json_conclusive(const nlohmann::json& fit, std::string* why) {
  const bool ok = fit.value("ok", false) && fit["order_hat"].is_number() && fit["ci95"].is_array();
  const int n = fit.contains("window") ? fit["window"].value("n", 0) : 0;
  const double hw = ok ? 0.5 * (fit["ci95"][1].get<double>() - fit["ci95"][0].get<double>()) : 0.0;
  const std::string w = inconclusive_text(ok, n, hw, fit.value("note", std::string()));
  if (why != nullptr) *why = w;
  return w.empty();
}

}  // namespace gib
