#include <catch2/catch.hpp>
#include <cmath>

#include "harness/order_fit.hpp"
#include "harness/statistics.hpp"

namespace gibench_test_order_fit {

TEST_CASE("order fit recovers the slope of C h^p above a round-off floor", "[harness][order_fit]") {
  for (int p = 1; p <= 6; ++p) {
    std::vector<std::pair<double, double>> pts;
    for (int k = 1; k <= 14; ++k) {
      const double h = std::ldexp(1.0, -k);
      // Round-off plateau with jitter below 1e-14: must be excluded from the window.
      const double err = 0.3 * std::pow(h, p) + 1e-15 * (1.0 + 0.5 * std::sin(3.0 * k));
      pts.emplace_back(h, err);
    }
    const gib::OrderFit f = gib::fit_order(pts);
    INFO("p = " << p << " order_hat = " << f.order_hat << " n = " << f.n);
    REQUIRE(f.ok);
    CHECK(f.order_hat == Approx(p).margin(0.05));
    CHECK(f.ci_lo <= p + 0.05);
    CHECK(f.ci_hi >= p - 0.05);
    CHECK(f.r2 > 0.999);
  }
}

TEST_CASE("order fit stops at the first point that no longer decreases", "[harness][order_fit]") {
  std::vector<std::pair<double, double>> pts = {{0.5, 1e-3}, {0.25, 2.5e-4}, {0.125, 6.25e-5}, {0.0625, 1.6e-5},
                                                {0.03125, 2e-5}, {0.015625, 1e-9}};
  const gib::OrderFit f = gib::fit_order(pts);
  REQUIRE(f.ok);
  CHECK(f.n == 4);
  CHECK(f.h_min == 0.0625);
  CHECK(f.order_hat == Approx(2.0).margin(0.02));
}

TEST_CASE("order fit reports too few points instead of guessing", "[harness][order_fit]") {
  std::vector<std::pair<double, double>> pts = {{0.5, 1e-13}, {0.25, 1e-14}, {0.125, NAN}};
  const gib::OrderFit f = gib::fit_order(pts);
  CHECK_FALSE(f.ok);
  CHECK_FALSE(f.note.empty());
}

TEST_CASE("line fit: exact line, interval contains the slope, t quantiles", "[harness][stats]") {
  const std::vector<double> x = {0, 1, 2, 3, 4}, y = {1, 3, 5, 7, 9};
  const auto f = gib::stats::fit_line(x, y);
  REQUIRE(f.ok);
  CHECK(f.slope == Approx(2.0));
  CHECK(f.intercept == Approx(1.0));
  CHECK(f.r2 == Approx(1.0));
  CHECK(gib::stats::student_t95(1) == Approx(12.706));
  CHECK(gib::stats::student_t95(10) == Approx(2.228));
  CHECK(gib::stats::median({3, 1, 2}) == 2);
  CHECK(gib::stats::quantile({1, 2, 3, 4, 5}, 0.25) == 2);
}

}  // namespace gibench_test_order_fit
