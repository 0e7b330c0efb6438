#include <catch2/catch.hpp>
#include <cmath>
#include <filesystem>
#include <fstream>

#include "core/errors.hpp"
#include "core/method.hpp"
#include "harness/commands.hpp"
#include "harness/json_util.hpp"
#include "harness/reference_reach.hpp"
#include "harness/runner.hpp"
#include "harness/sweep.hpp"

namespace gibench_test_harness {

namespace {

gib::Cell cell(const std::string& method, double h, std::int64_t steps, const std::string& preset = "kjer2017") {
  gib::Cell c;
  c.problem = "free_rigid_body";
  c.preset = preset;
  c.method = method;
  c.h = h;
  c.steps = steps;
  return c;
}

bool has_nan_token(const std::string& s) {
  return s.find("NaN") != std::string::npos || s.find("Infinity") != std::string::npos ||
         s.find("nan") != std::string::npos || s.find("inf,") != std::string::npos;
}

}  // namespace

TEST_CASE("a diverging run is a status, not a crash, and its JSON stays valid", "[harness]") {
  // Explicit Euler at about two radians per step grows |Pi| geometrically until it diverges.
  gib::Cell c = cell("odeint_euler_matrix", 2.0, 200000);
  const gib::CellOutcome o = gib::run_cell(c);
  const std::string status = o.row["status"].get<std::string>();
  INFO(o.row.dump());
  CHECK((status == "diverged" || status == "nonfinite"));
  REQUIRE(o.row["status_step"].is_number());
  CHECK(o.row["status_step"].get<std::int64_t>() < 200000);
  CHECK(o.row["metrics"]["state_err_final"].is_null());
  CHECK_FALSE(has_nan_token(o.row.dump()));
  CHECK(gib::json_number(NAN).is_null());
  CHECK(gib::json_number(INFINITY).is_null());
}

TEST_CASE("a run records final state, metrics, cost and the reference it used", "[harness]") {
  const gib::CellOutcome o = gib::run_cell(cell("rkmk4", 0.01, 100));
  const auto& row = o.row;
  CHECK(row["status"] == "ok");
  CHECK(row["final_state"]["R"].size() == 9);
  CHECK(row["final_state"]["Pi"].size() == 3);
  CHECK(row["cost"]["rhs_evals"] == 400);
  CHECK(row["cost"]["steps"] == 100);
  CHECK(row["reference"]["kind"] == "exact");
  CHECK(row["T"].get<double>() == Approx(1.0));
  CHECK(row["metrics"]["casimir_err_class"] == "roundoff");
  CHECK(row["param_hash"].get<std::string>().size() == 16);
}

TEST_CASE("bad cells are rejected with InputError", "[harness]") {
  CHECK_THROWS_AS(gib::run_cell(cell("rkmk4", -0.1, 10)), gib::InputError);
  CHECK_THROWS_AS(gib::run_cell(cell("rkmk4", 0.1, 0)), gib::InputError);
  CHECK_THROWS_AS(gib::run_cell(cell("no_such_method", 0.1, 10)), gib::InputError);
  CHECK_THROWS_AS(gib::run_cell(cell("rkmk4", 0.1, 10, "no_such_preset")), gib::InputError);
  gib::Cell c = cell("rkmk4", 0.1, 10);
  c.method_params = {{"no_such_param", 1}};
  CHECK_THROWS_AS(gib::run_cell(c), gib::InputError);
  c.method_params = {{"truncation", "maximal"}};
  CHECK_THROWS_AS(gib::run_cell(c), gib::InputError);
  CHECK_THROWS_AS(gib::steps_for(1.0, 0.3), gib::InputError);
  CHECK(gib::steps_for(1.0, 0.1) == 10);
}

TEST_CASE("key=value assignments: JSON values, bare words, duplicates", "[harness]") {
  const auto j = gib::parse_assignments({"inertia=[2,1,0.5]", "truncation=minimal", "seed=3"}, "--set");
  CHECK(j["inertia"][2] == 0.5);
  CHECK(j["truncation"] == "minimal");
  CHECK(j["seed"] == 3);
  CHECK_THROWS_AS(gib::parse_assignments({"a=1", "a=2"}, "--set"), gib::InputError);
  CHECK_THROWS_AS(gib::parse_assignments({"novalue"}, "--set"), gib::InputError);
  CHECK_THROWS_AS(gib::parse_assignments({"a="}, "--set"), gib::InputError);
}

TEST_CASE("sweep configs are validated before anything runs", "[harness][sweep]") {
  const gib::Json good = {{"problems", {{{"problem", "free_rigid_body"}}}}, {"methods", {"rkmk2"}}, {"h", {0.1}}, {"T", 1}};
  CHECK(gib::parse_sweep(good, "cfg").cells.size() == 1);
  gib::Json bad = good;
  bad["colour"] = "red";
  CHECK_THROWS_AS(gib::parse_sweep(bad, "cfg"), gib::InputError);
  bad = good;
  bad["T"] = 1.05;
  CHECK_THROWS_AS(gib::parse_sweep(bad, "cfg"), gib::InputError);
  bad = good;
  bad["methods"] = {"rkmk9"};
  CHECK_THROWS_AS(gib::run_sweep(gib::parse_sweep(bad, "cfg"), {1, false}), gib::InputError);
  bad = good;
  bad["h"] = {0.0};
  CHECK_THROWS_AS(gib::parse_sweep(bad, "cfg"), gib::InputError);
}

TEST_CASE("sweep rows do not depend on the number of threads", "[harness][sweep]") {
  const gib::Json cfg = {{"problems", {{{"problem", "free_rigid_body"}, {"presets", {"kjer2017", "krysl2006"}}, {"ics", {"preset", "random:3"}}}}},
                         {"methods", {"rkmk4", "odeint_rk4_quat", "rkmk1"}},
                         {"h", {{"start", 0.2}, {"factor", 0.5}, {"count", 3}}},
                         {"T", 2},
                         {"fit", {{"metrics", {"state_err_final"}}}}};
  const auto spec = gib::parse_sweep(cfg, "cfg");
  const auto a = gib::run_sweep(spec, {1, false});
  const auto b = gib::run_sweep(spec, {2, false});
  REQUIRE(a.rows.size() == 2 * 2 * 3 * 3);
  CHECK(a.rows.dump() == b.rows.dump());
  CHECK(a.fits.dump() == b.fits.dump());
}

TEST_CASE("atomic writes leave a complete file and no temporary", "[harness]") {
  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() / "gibench_atomic_test";
  fs::remove_all(dir);
  const fs::path p = dir / "sub" / "out.json";
  gib::write_json_atomic(p, {{"a", 1}});
  gib::write_json_atomic(p, {{"a", 2}});
  CHECK(gib::read_json_file(p)["a"] == 2);
  int files = 0;
  for (const auto& e : fs::directory_iterator(p.parent_path())) {
    (void)e;
    ++files;
  }
  CHECK(files == 1);
  {
    std::ofstream(dir / "broken.json") << "{\"a\": ";
  }
  CHECK_THROWS_AS(gib::read_json_file(dir / "broken.json"), gib::InputError);
  CHECK_THROWS_AS(gib::read_json_file(dir / "missing.json"), gib::InputError);
  fs::remove_all(dir);
}

TEST_CASE("method parameters: an integer becomes a digit string only where the default is one", "[harness]") {
  const auto& methods = gib::method_registry();
  const auto find = [&](const std::string& id) -> const gib::MethodInfo& {
    for (const auto& m : methods)
      if (m.id == id) return m;
    FAIL("no method " << id);
    return methods.front();
  };
  // --param ordering=123 arrives as a number; mr2's ordering is a string such as "231".
  CHECK(gib::merge_method_params(find("mr2"), {{"ordering", 123}})["ordering"] == "123");
  // RKMK's truncation is "thesis", "minimal" or an integer: an integer must stay one (kjer2017-fig3.2 uses 0).
  const gib::Json t = gib::merge_method_params(find("rkmk4"), {{"truncation", 0}})["truncation"];
  CHECK(t.is_number_integer());
  CHECK(t == 0);
}

TEST_CASE("a numerical reference is not asked beyond its reach, an exact one is", "[harness][reference]") {
  const auto problem = [](const std::string& id) {
    gib::Cell c;
    c.problem = id;
    return gib::make_problem(c);
  };
  const auto pendulum = problem("double_pendulum");
  const double limit = gib::kMaxReferenceTimeScales * pendulum->time_scale();
  CHECK_NOTHROW(gib::check_reference_reach(*pendulum, limit, "reference --times"));
  try {
    gib::check_reference_reach(*pendulum, 1e9, "reference --times");
    FAIL("t = 1e9 accepted");
  } catch (const gib::InputError& e) {
    const std::string what = e.what();
    CHECK(what.rfind("reference --times: t = 1e+09 is ", 0) == 0);
    CHECK(what.find("integrates at most 1e+06 (about 1e7 steps)") != std::string::npos);
  }
  CHECK_THROWS_AS(gib::check_reference_reach(*problem("lagrange_top"), 1e9, "rank --T"), gib::InputError);
  CHECK_NOTHROW(gib::check_reference_reach(*problem("free_rigid_body"), 1e9, "reference --times"));  // closed form
}

TEST_CASE("a body whose momenta would overflow a double is refused when it is made", "[harness]") {
  gib::Cell c;
  c.problem = "lagrange_top";
  c.overrides = {{"weight", 1e308}};
  CHECK_THROWS_WITH(gib::make_problem(c), Catch::Matchers::StartsWith("lagrange_top: the parameters give an energy scale E = "));
  c.overrides = {{"weight", 1e200}};  // large, but its momenta stay far inside the range of a double
  CHECK_NOTHROW(gib::make_problem(c));
}

TEST_CASE("numbers in errors keep their digits", "[harness]") {
  gib::Cell c;
  c.problem = "lagrange_top";
  c.overrides = {{"inertia", {1.0, 1.0, 2.0000000001}}};
  CHECK_THROWS_WITH(gib::make_problem(c), Catch::Matchers::Contains("inertia (1, 1, 2.0000000001) is not a rigid body's"));
}

}  // namespace gibench_test_harness
