#include <catch2/catch.hpp>
#include <cmath>

#include "core/errors.hpp"
#include "harness/rank.hpp"

namespace gibench_test_rank {

namespace {

gib::Json small_rank() {
  gib::RankOptions opt;
  opt.problem = "free_rigid_body";
  opt.preset = "buss2001";
  opt.include = {"rkmk2", "rkmk4", "odeint_rk4_quat", "odeint_euler_quat"};
  opt.targets = {1e-3, 1e-8};
  opt.reps = 2;
  opt.min_sample_seconds = 1e-4;
  opt.n_max = 1 << 14;
  opt.jobs = 2;
  return gib::rank_methods(opt, {});
}

}  // namespace

TEST_CASE("rank: leaderboards sorted by time, costs bracketed on the work-precision curve", "[rank]") {
  const gib::Json doc = small_rank();
  REQUIRE(doc["leaderboard"].size() == 2);
  for (const auto& board : doc["leaderboard"]) {
    const double target = board["target"].get<double>();
    double last_time = 0;
    int rank = 0;
    for (const auto& e : board["entries"]) {
      INFO(e.dump());
      if (!e["reached"].get<bool>()) {
        CHECK(e["rank"].is_null());
        CHECK(e["best_error"].get<double>() > target);  // reported with the best it reached
        continue;
      }
      CHECK(e["rank"].get<int>() == ++rank);
      const double t = e["time_median_s"].get<double>();
      CHECK(t >= last_time);
      last_time = t;
      CHECK(e["time_min_s"].get<double>() <= t);
      CHECK(e["time_max_s"].get<double>() >= t);
      const auto& b = e["bracket"];
      CHECK(b["err_pass"].get<double>() <= target);
      if (e["interpolated"].get<bool>()) {
        CHECK(b["err_fail"].get<double>() > target);
        CHECK(e["steps"].get<double>() >= b["n_fail"].get<double>());
        CHECK(e["steps"].get<double>() <= b["n_pass"].get<double>());
      }
    }
  }
  // Explicit Euler cannot reach 1e-8 within 2^14 steps; RKMK4 reaches both targets.
  const auto& tight = doc["leaderboard"][1]["entries"];
  bool euler_listed = false, rkmk4_reached = false;
  for (const auto& e : tight) {
    if (e["method"] == "odeint_euler_quat") euler_listed = !e["reached"].get<bool>();
    if (e["method"] == "rkmk4") rkmk4_reached = e["reached"].get<bool>();
  }
  CHECK(euler_listed);
  CHECK(rkmk4_reached);
}

TEST_CASE("rank: Pareto fronts are non-dominated", "[rank]") {
  const gib::Json doc = small_rank();
  for (const char* key : {"pareto_time", "pareto_cost"}) {
    const auto& front = doc[key];
    REQUIRE(front.size() >= 2);
    for (std::size_t i = 1; i < front.size(); ++i) {
      CHECK(front[i]["error"].get<double>() > front[i - 1]["error"].get<double>());
      CHECK(front[i]["work"].get<double>() < front[i - 1]["work"].get<double>());
    }
  }
  CHECK_FALSE(gib::rank_markdown(doc).empty());
}

TEST_CASE("rank: bad options are input errors", "[rank]") {
  gib::RankOptions opt;
  opt.problem = "free_rigid_body";
  opt.targets = {2.0};
  CHECK_THROWS_AS(gib::rank_methods(opt, {}), gib::InputError);
  opt.targets = {1e-3};
  opt.include = {"no_such_method"};
  CHECK_THROWS_AS(gib::rank_methods(opt, {}), gib::InputError);
  opt.include = {};
  opt.problem = "no_such_problem";
  CHECK_THROWS_AS(gib::rank_methods(opt, {}), gib::InputError);
}

}  // namespace gibench_test_rank
