#include <catch2/catch.hpp>
#include <cmath>
#include <cstdint>
#include <map>
#include <vector>

#include "core/errors.hpp"
#include "harness/steps_to_accuracy.hpp"

namespace gibench_test_steps_to_accuracy {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();

// Oracle: the last failing N in [1, top] plus one, by evaluating every integer.
std::int64_t brute_force_answer(const gib::ErrorOfSteps& f, double eps, std::int64_t top) {
  std::int64_t last_fail = 0;
  for (std::int64_t n = 1; n <= top; ++n)
    if (!(std::isfinite(f(n)) && f(n) <= eps)) last_fail = n;
  return last_fail + 1;
}

}  // namespace

TEST_CASE("scan: monotone errors in any order", "[steps_to_accuracy]") {
  const gib::StepsScanResult r = gib::steps_from_scan({{40, 5e-4}, {10, 1e-2}, {80, 1e-4}, {20, 2e-3}}, 1e-3);
  REQUIRE(r.reached);
  CHECK(r.n == 40);
  CHECK(r.err == 5e-4);
  CHECK(r.last_fail == 20);
  CHECK(r.last_fail_err == 2e-3);
  CHECK(r.support == 2);
  CHECK(r.best_n == 80);
}

TEST_CASE("scan: an early dip below eps does not count", "[steps_to_accuracy]") {
  // Passes at 15, fails again at 20: the answer is the bottom of the passing run at the top, 30.
  const gib::StepsScanResult r =
      gib::steps_from_scan({{10, 5e-3}, {15, 8e-4}, {20, 2e-3}, {30, 9e-4}, {40, 4e-4}, {50, 2e-4}}, 1e-3);
  REQUIRE(r.reached);
  CHECK(r.n == 30);
  CHECK(r.last_fail == 20);
  CHECK(r.support == 3);
}

TEST_CASE("scan: NaN and inf are failures, err == eps meets eps", "[steps_to_accuracy]") {
  const gib::StepsScanResult r =
      gib::steps_from_scan({{10, kNaN}, {20, 5e-4}, {30, kInf}, {40, 3e-4}, {50, 1e-3}}, 1e-3);
  REQUIRE(r.reached);
  CHECK(r.n == 40);
  CHECK(r.last_fail == 30);
  CHECK(std::isinf(r.last_fail_err));
  CHECK(r.support == 2);
  CHECK(r.best_n == 40);
  const gib::StepsScanResult nan_last = gib::steps_from_scan({{10, 1e-4}, {20, kNaN}}, 1e-3);
  CHECK_FALSE(nan_last.reached);
  CHECK(nan_last.last_fail == 20);
}

TEST_CASE("scan: never reached reports the best error, like Buss's failed caps", "[steps_to_accuracy]") {
  const gib::StepsScanResult r = gib::steps_from_scan({{10, 1e-2}, {20, 5e-4}, {30, 2e-3}}, 1e-3);
  CHECK_FALSE(r.reached);
  CHECK(r.n == 0);
  CHECK(r.support == 0);
  CHECK(r.last_fail == 30);
  CHECK(r.best_n == 20);
  CHECK(r.best_err == 5e-4);
  const gib::StepsScanResult empty = gib::steps_from_scan({}, 1e-3);
  CHECK_FALSE(empty.reached);
  CHECK(empty.best_n == 0);
}

TEST_CASE("scan: reached at the first point, repeats, bad input", "[steps_to_accuracy]") {
  const gib::StepsScanResult r = gib::steps_from_scan({{20, 5e-5}, {10, 1e-4}}, 1e-3);
  REQUIRE(r.reached);
  CHECK(r.n == 10);
  CHECK(r.last_fail == 0);
  CHECK(r.support == 2);
  // A repeated N fails if any entry fails.
  const gib::StepsScanResult rep = gib::steps_from_scan({{10, 1e-2}, {20, 5e-4}, {30, 1e-4}, {20, kNaN}}, 1e-3);
  CHECK(rep.n == 30);
  CHECK(rep.last_fail == 20);
  CHECK_THROWS_AS(gib::steps_from_scan({{10, 1e-4}}, 0.0), gib::InputError);
  CHECK_THROWS_AS(gib::steps_from_scan({{10, 1e-4}}, kNaN), gib::InputError);
  CHECK_THROWS_AS(gib::steps_from_scan({{0, 1e-4}}, 1e-3), gib::InputError);
}

TEST_CASE("search: monotone C / N^p gives ceil((C / eps)^(1/p))", "[steps_to_accuracy]") {
  struct Case {
    double C, p, eps;
    std::int64_t answer;  // by hand: 447^2 < 2e5 <= 448^2, 316^4 < 1e10 <= 317^4, 793^3 < 5e8 <= 794^3
  };
  for (const Case& c : {Case{2.0, 2.0, 1e-5, 448}, Case{1.0, 4.0, 1e-10, 317}, Case{0.5, 3.0, 1e-9, 794}}) {
    const auto f = [&](std::int64_t n) { return c.C / std::pow(static_cast<double>(n), c.p); };
    const gib::StepsSearchResult r = gib::search_steps_to_accuracy(f, c.eps);
    INFO("p = " << c.p << " n = " << r.n << " evaluations = " << r.evaluations);
    REQUIRE(r.reached);
    CHECK(r.n == c.answer);
    CHECK(r.last_fail == c.answer - 1);
    CHECK(r.dense_hi >= c.answer + 64);
    CHECK(r.scan_points_above >= 1);
    CHECK(r.checked_top > r.dense_hi);
    CHECK(gib::steps_from_scan(r.evaluated, c.eps).n == r.n);
  }
}

TEST_CASE("search: oscillating C / N^2 (1 + 0.3 sin N) matches a brute-force scan", "[steps_to_accuracy]") {
  const auto f = [](std::int64_t n) {
    const double x = static_cast<double>(n);
    return 3.0 / (x * x) * (1.0 + 0.3 * std::sin(x));
  };
  for (double eps : {1e-2, 3e-3, 1e-3, 3e-4, 1e-4, 3e-5, 1e-5, 3e-6, 1e-6}) {
    // Every N above sqrt(1.3 * 3 / eps) passes, so brute force up to twice that is the whole story.
    const auto top = static_cast<std::int64_t>(2 * std::sqrt(3.9 / eps)) + 10;
    const std::int64_t oracle = brute_force_answer(f, eps, top);
    const gib::StepsSearchResult r = gib::search_steps_to_accuracy(f, eps, {.n_min = 1});
    INFO("eps = " << eps << " oracle = " << oracle << " n = " << r.n << " evaluations = " << r.evaluations);
    REQUIRE(r.reached);
    CHECK(r.n == oracle);
    // Not a scan of every integer: at large N the search evaluates a fraction of them.
    if (oracle > 500) CHECK(r.evaluations < oracle / 2);
  }
}

TEST_CASE("search: failures between the scan points above the first passing run", "[steps_to_accuracy]") {
  // Passes from 12 on except at 20, 22 and 23, none of which is a scan point (10, 11, 13, 15, 17, 19, 21,
  // 24, ...): bisection alone says 12, the dense window finds the failures, the answer is 24.
  const auto f = [](std::int64_t n) { return (n < 12 || n == 20 || n == 22 || n == 23) ? 2e-3 : 5e-4; };
  const gib::StepsSearchResult r = gib::search_steps_to_accuracy(f, 1e-3);
  REQUIRE(r.reached);
  CHECK(r.n == 24);
  CHECK(r.last_fail == 23);
}

TEST_CASE("search: passing from n_min, or from just above a failure inside the first window", "[steps_to_accuracy]") {
  const auto always = [](std::int64_t) { return 5e-4; };
  const gib::StepsSearchResult r = gib::search_steps_to_accuracy(always, 1e-3, {.n_min = 7});
  REQUIRE(r.reached);
  CHECK(r.n == 7);
  CHECK(r.last_fail == 0);
  CHECK(r.dense_hi == 7 + 64);
  const auto one_failure = [](std::int64_t n) { return n == 30 ? 2e-3 : 5e-4; };
  const gib::StepsSearchResult s = gib::search_steps_to_accuracy(one_failure, 1e-3);
  REQUIRE(s.reached);
  CHECK(s.n == 31);
  CHECK(s.last_fail == 30);
  CHECK(s.last_fail_err == 2e-3);
}

TEST_CASE("search: NaN (diverged) for small N and a lucky early pass", "[steps_to_accuracy]") {
  // Diverged below 60 except a spurious pass at 11; C / N^2 above. 141^2 < 2e4 <= 142^2.
  const auto f = [](std::int64_t n) {
    if (n == 11) return 1e-9;
    if (n < 60) return kNaN;
    return 2.0 / static_cast<double>(n * n);
  };
  const gib::StepsSearchResult r = gib::search_steps_to_accuracy(f, 1e-4);
  REQUIRE(r.reached);
  CHECK(r.n == 142);
  CHECK(r.last_fail == 141);
  CHECK(r.best_n == 11);
}

TEST_CASE("search: never reaching eps stops at n_max", "[steps_to_accuracy]") {
  const auto f = [](std::int64_t n) { return 1e-2 + 1.0 / static_cast<double>(n); };
  const gib::StepsSearchResult r = gib::search_steps_to_accuracy(f, 1e-3, {.n_max = 5000});
  CHECK_FALSE(r.reached);
  CHECK(r.n == 0);
  CHECK(r.last_fail == 5000);
  CHECK(r.checked_top == 5000);
  CHECK(r.best_n == 5000);
  CHECK(r.best_err == Approx(1.02e-2));
  CHECK(r.note.find("N > 5000 failed") != std::string::npos);
  // A passing run at the cap shorter than `confirm` is not a result: 2 / N^2 <= 1e-5 from 448 on, but
  // the scan reaches n_max = 460 right after the failing scan point 446.
  const auto g = [](std::int64_t n) { return 2.0 / static_cast<double>(n * n); };
  const gib::StepsSearchResult capped = gib::search_steps_to_accuracy(g, 1e-5, {.n_max = 460});
  CHECK_FALSE(capped.reached);
  CHECK(capped.last_fail == 446);
  CHECK(capped.note.find("raise n_max") != std::string::npos);
  // With a paper's inclusive cap the short run counts, and bisection plus the dense window still give 448.
  const gib::StepsSearchResult at_cap = gib::search_steps_to_accuracy(g, 1e-5, {.n_max = 460, .short_run_at_cap = true});
  REQUIRE(at_cap.reached);
  CHECK(at_cap.n == 448);
  CHECK(at_cap.checked_top == 460);
}

TEST_CASE("search: memoised, each N evaluated once, far fewer than N", "[steps_to_accuracy]") {
  std::map<std::int64_t, int> calls;
  const auto f = [&](std::int64_t n) {
    ++calls[n];
    return 0.5 / std::pow(static_cast<double>(n), 3.0);
  };
  const gib::StepsSearchResult r = gib::search_steps_to_accuracy(f, 1e-9);
  REQUIRE(r.reached);
  CHECK(r.n == 794);
  CHECK(r.evaluations == static_cast<int>(calls.size()));
  for (const auto& [n, k] : calls) {
    INFO("N = " << n);
    CHECK(k == 1);
  }
  // Scan 10 .. 937 (40 points), about 7 bisection steps, the 65-point window, and 793.
  CHECK(r.evaluations <= 120);
  CHECK(r.dense.size() == 65);
  CHECK(r.dense.front() == 794);
}

TEST_CASE("search: options are validated", "[steps_to_accuracy]") {
  const auto f = [](std::int64_t n) { return 1.0 / static_cast<double>(n); };
  CHECK_THROWS_AS(gib::search_steps_to_accuracy(f, 1e-3, {.n_min = 0}), gib::InputError);
  CHECK_THROWS_AS(gib::search_steps_to_accuracy(f, 1e-3, {.n_min = 100, .n_max = 50}), gib::InputError);
  CHECK_THROWS_AS(gib::search_steps_to_accuracy(f, 1e-3, {.ratio = 1.0}), gib::InputError);
  CHECK_THROWS_AS(gib::search_steps_to_accuracy(f, 1e-3, {.ratio = kNaN}), gib::InputError);
  CHECK_THROWS_AS(gib::search_steps_to_accuracy(f, 1e-3, {.confirm = 0}), gib::InputError);
  CHECK_THROWS_AS(gib::search_steps_to_accuracy(f, 1e-3, {.window = -1}), gib::InputError);
  CHECK_THROWS_AS(gib::search_steps_to_accuracy(f, -1e-3), gib::InputError);
  CHECK_THROWS_AS(gib::search_steps_to_accuracy(gib::ErrorOfSteps{}, 1e-3), gib::InputError);
}

TEST_CASE("search through run_cell: rkmk2 on buss2001 agrees with a brute-force neighbourhood",
          "[steps_to_accuracy]") {
  gib::Cell tmpl;
  tmpl.problem = "free_rigid_body";
  tmpl.preset = "buss2001";
  tmpl.method = "rkmk2";
  // T = 0.4, eps = 1e-3 is Buss's Figure 6 column (his own 2nd-order method needs 387 there; rkmk2 is a
  // different method, so no paper number applies).
  for (const auto& [T, eps] : {std::pair{0.04, 1e-6}, std::pair{0.4, 1e-3}}) {
    const gib::ErrorOfSteps err_of = gib::cell_error_of_steps(tmpl, T);
    const gib::StepsSearchResult r = gib::search_steps_to_accuracy(err_of, eps, {.n_min = 1});
    REQUIRE(r.reached);
    INFO("T = " << T << " n = " << r.n << " err = " << r.err << " evaluations = " << r.evaluations);
    CHECK(r.n > 40);
    // The defining property on [n - 40, n + 40], evaluated here integer by integer.
    std::int64_t last_fail = 0;
    for (std::int64_t k = r.n - 40; k <= r.n + 40; ++k) {
      const double e = err_of(k);
      CHECK(std::isfinite(e));
      if (!(e <= eps)) last_fail = k;
    }
    CHECK(last_fail == r.n - 1);
  }
  CHECK_THROWS_AS(gib::cell_error_of_steps(tmpl, 0.04, "no_such_metric")(10), gib::InputError);
  CHECK_THROWS_AS(gib::cell_error_of_steps(tmpl, -1.0), gib::InputError);
}

}  // namespace gibench_test_steps_to_accuracy
