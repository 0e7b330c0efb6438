// The cost currency (core/counters.hpp): function evaluations count each stage once on every model kind, work
// adds the counted maps, solves and iterations, and files written before the currency read back the same work.
#include <catch2/catch.hpp>
#include <cmath>
#include <filesystem>

#include "harness/json_util.hpp"
#include "harness/manifest.hpp"
#include "harness/rank.hpp"
#include "harness/runner.hpp"

namespace gibench_test_cost_currency {

namespace {

gib::Json row_cost(const std::string& problem, const std::string& preset, const std::string& method, double h,
                   std::int64_t steps) {
  gib::Cell c{.problem = problem, .preset = preset, .method = method, .h = h, .steps = steps,
              .observe = {}, .timing = {}};
  c.observe.reference = false;  // the counts do not depend on it
  const gib::Json row = gib::run_cell(c).row;
  INFO(row.dump());
  REQUIRE(row["status"] == "ok");
  return row["cost"];
}

std::int64_t count(const gib::Json& cost, const char* field) { return cost.at(field).get<std::int64_t>(); }

gib::OpCounters counters_of(const gib::Json& cost) {
  gib::OpCounters c;
  c.steps = count(cost, "steps");
  c.rhs_evals = count(cost, "rhs_evals");
  c.force_evals = count(cost, "force_evals");
  c.exp_evals = count(cost, "exp_evals");
  c.log_evals = count(cost, "log_evals");
  c.cayley_evals = count(cost, "cayley_evals");
  c.linear_solves = count(cost, "linear_solves");
  c.nonlinear_iters = count(cost, "nonlinear_iters");
  c.nonlinear_iters_max = count(cost, "nonlinear_iters_max");
  c.solver_failures = count(cost, "solver_failures");
  return c;
}

}  // namespace

TEST_CASE("cost currency: a Newtonian method's work is its forces, linear solves and Newton iterations",
          "[cost]") {
  // Before the currency these rows showed 0 right-hand sides: Z&S looked free in rank tables and plots.
  const std::int64_t n = 50;
  for (const char* method : {"velocity_verlet", "zs", "newmark"}) {
    INFO(method);
    const gib::Json cost = row_cost("double_pendulum", "taoowhadi2014", method, 0.01, n);
    CHECK(count(cost, "rhs_evals") == 0);
    REQUIRE(count(cost, "force_evals") >= n);
    CHECK(count(cost, "function_evals") == count(cost, "force_evals"));
    const std::int64_t expected =
        count(cost, "force_evals") + count(cost, "linear_solves") + count(cost, "nonlinear_iters");
    CHECK(count(cost, "work") == expected);
    CHECK(cost["work_per_step"].get<double>() == Approx(static_cast<double>(expected) / n));
    CHECK(cost["work_per_step"].get<double>() > 0);
  }
  // The Newton iterations are in it: Newmark solves a nonlinear system every step.
  const gib::Json newmark = row_cost("double_pendulum", "taoowhadi2014", "newmark", 0.01, n);
  REQUIRE(count(newmark, "nonlinear_iters") >= n);
  CHECK(count(newmark, "work") > count(newmark, "force_evals") + count(newmark, "linear_solves"));
}

TEST_CASE("cost currency: an RKMK4 step under torque or forces is 4 function evaluations, not 8", "[cost]") {
  // Each stage counts one rhs_evals and one force_evals (the torque inside the vector field): the same evaluation.
  const std::int64_t n = 20;
  const gib::Json top = row_cost("lagrange_top", "fast", "rkmk4", 0.01, n);
  REQUIRE(count(top, "force_evals") == 4 * n);
  CHECK(count(top, "function_evals") == 4 * n);
  CHECK(top["function_evals_per_step"].get<double>() == 4.0);
  CHECK(count(top, "work") == 4 * n + count(top, "exp_evals"));
  // On N particles one stage is one forces_and_torques call, however many particles.
  const gib::Json spheres = row_cost("dipolar_spheres", "kjer2017_2d_n2", "rkmk4", 0.01, n);
  REQUIRE(count(spheres, "force_evals") == 4 * n);
  CHECK(count(spheres, "function_evals") == 4 * n);
  // Torque-free, the vector field alone is the function.
  const gib::Json free_body = row_cost("free_rigid_body", "buss2001", "rkmk4", 0.01, n);
  REQUIRE(count(free_body, "force_evals") == 0);
  CHECK(count(free_body, "function_evals") == 4 * n);
}

TEST_CASE("cost currency: rows written before it and rows written now read back the same work", "[cost]") {
  // The fixture is shared with plots/tests/test_plot_results.py, so both languages' readers are held to it.
  const auto path = std::filesystem::path(gib::project_root()) / "tests" / "support" / "cost_currency_rows.json";
  const gib::Json doc = gib::read_json_file(path);
  REQUIRE(doc["cases"].size() >= 5);
  for (const auto& k : doc["cases"]) {
    INFO(k["name"].get<std::string>());
    const gib::Json& old_row = k["old"];
    const gib::Json& new_row = k["new"];
    const gib::Json& stored = k["stored"];
    CHECK_FALSE(old_row.contains("work"));
    CHECK(gib::counters_json(counters_of(old_row)) == new_row);  // "new" is what a run writes today
    CHECK(gib::stored_cost(new_row) == stored);                  // and "stored" what a rank file keeps of it
    CHECK(gib::stored_cost(stored) == stored);                   // gibench compact finds nothing more to do
    // Every field a run writes reads back the same from the stored form: the rank file loses nothing.
    for (auto it = new_row.begin(); it != new_row.end(); ++it) {
      INFO(it.key());
      CHECK(gib::cost_value(stored, it.key()) == Approx(it->get<double>()));
    }
    const double steps = old_row["steps"].get<double>();
    for (const gib::Json* cost : {&old_row, &new_row, &stored}) {
      CHECK(gib::cost_value(*cost, "function_evals") == k["function_evals"].get<double>());
      CHECK(gib::cost_value(*cost, "work") == k["work"].get<double>());
      CHECK(gib::cost_value(*cost, "work_per_step") == Approx(k["work"].get<double>() / steps));
      CHECK(gib::cost_value(*cost, "function_evals_per_step") == Approx(k["function_evals"].get<double>() / steps));
      CHECK(gib::cost_value(*cost, "exp_evals") == old_row["exp_evals"].get<double>());
    }
  }
  // Nothing to derive from: NaN, which every reader leaves out, rather than a free method.
  CHECK(std::isnan(gib::cost_value(gib::Json(nullptr), "work")));
  CHECK(std::isnan(gib::cost_value(gib::Json::object(), "work")));
  CHECK(std::isnan(gib::cost_value(gib::Json{{"steps", 10}}, "no_such_field")));
}

TEST_CASE("cost currency: rank entries and the cost Pareto front are in counted work", "[cost][rank]") {
  gib::RankOptions opt;
  opt.problem = "free_rigid_body";
  opt.preset = "buss2001";
  opt.include = {"rkmk4", "zs", "mr2"};
  opt.targets = {1e-3};
  opt.reps = 1;
  opt.min_sample_seconds = 1e-5;
  opt.n_max = 1 << 12;
  opt.jobs = 1;
  const gib::Json doc = gib::rank_methods(opt, {});
  int reached = 0;
  for (const auto& e : doc["leaderboard"][0]["entries"]) {
    INFO(e.dump());
    if (!e["reached"].get<bool>()) continue;
    ++reached;
    // Z&S (forces, solves) and MR2 (rotations only) made no RHS evaluation, and are not free.
    CHECK(e["work"].get<double>() > 0);
    CHECK(e["work"].get<double>() >= e["function_evals"].get<double>());
    if (e["method"] == "zs") CHECK(e["function_evals"].get<double>() > 0);
    if (e["method"] == "mr2") CHECK(e["function_evals"].get<double>() == 0);
  }
  CHECK(reached >= 2);
  REQUIRE_FALSE(doc["pareto_cost"].empty());
  for (const auto& p : doc["pareto_cost"])
    CHECK(p["work"].get<double>() == gib::cost_value(doc["rows"][p["row"].get<std::size_t>()]["cost"], "work"));
  CHECK(gib::rank_markdown(doc).find("counted work") != std::string::npos);
}

}  // namespace gibench_test_cost_currency
