// The divergence rule (README, Divergence rule): a run is judged by its invariants and the problem's scales,
// never by |Pi| against its own initial size alone. These cases were reported `ok` with energy errors of 1e6 to
// 1e15, or `diverged` at step 1 for a body released from rest, before the rule changed.
#include <catch2/catch.hpp>
#include <cmath>
#include <string>

#include "core/errors.hpp"
#include "core/method.hpp"
#include "core/problem.hpp"
#include "harness/runner.hpp"
#include "harness/sweep.hpp"

namespace gibench_test_divergence {

namespace {

gib::Cell body_cell(const std::string& problem, const std::string& preset, const gib::Json& overrides, const std::string& method,
                    double h, std::int64_t steps) {
  gib::Cell c;
  c.problem = problem;
  c.preset = preset;
  c.overrides = overrides;
  c.method = method;
  c.h = h;
  c.steps = steps;
  return c;
}

double energy_scale_of(const gib::Cell& c) {
  const auto p = gib::make_problem(c);
  return dynamic_cast<const gib::RigidBodyProblem&>(*p).energy_scale();
}

}  // namespace

TEST_CASE("flipped Coulomb body at h = 0.5: no run whose energy error passes the threshold is ok", "[divergence]") {
  const gib::ProblemInfo& info = gib::find_problem("coulomb_wall");
  gib::Cell c = body_cell("coulomb_wall", "flipped", gib::Json::object(), "", 0.5, 1000);
  const double scale = energy_scale_of(c);
  REQUIRE(scale > 0);
  int blown = 0, runs = 0;
  for (const gib::MethodInfo& m : gib::method_registry()) {
    if (!gib::compatible(m, info)) continue;
    c.method = m.id;
    gib::Json row;
    try {
      row = gib::run_cell(c).row;
    } catch (const gib::InputError&) {
      continue;  // a method that refuses this body (so3_variational_zs needs an isotropic one)
    }
    const gib::Json& metrics = row["metrics"];
    const std::string status = row["status"].get<std::string>();
    INFO(m.id << ": " << status << " at " << row["status_step"].dump() << " (" << row["status_detail"].get<std::string>()
              << "), energy_abs_err_max " << metrics["energy_abs_err_max"].dump());
    ++runs;
    if (status == "ok") {
      CHECK(metrics["energy_abs_err_max"].get<double>() <= 100 * scale);
      continue;
    }
    ++blown;
    CHECK(metrics["energy_rel_err_class"].is_null());  // a failed run is not round-off, bounded or drifting
    CHECK(metrics["state_err_final"].is_null());
    if (status == "diverged") {
      // The row carries the error that condemned it, not a perfect 0.0.
      CHECK(metrics["energy_rel_err_max"].get<double>() > 0);
      CHECK(row["status_detail"].get<std::string>().find("|") != std::string::npos);
    }
  }
  CHECK(runs >= 20);
  CHECK(blown >= 5);
  // The five the audit found finishing `ok` with energy errors from 1.5e6 to 1e15.
  for (const char* id : {"rkmk1", "cg3", "zss", "zs_stiff", "hp_cayley_euler"}) {
    c.method = id;
    c.steps = 1000;
    INFO(id);
    CHECK(gib::run_cell(c).row["status"] == "diverged");
  }
}

TEST_CASE("a body released from rest, or nearly, runs ok: the scales come from its energy, not from |Pi0|", "[divergence]") {
  const struct {
    const char* problem;
    const char* preset;
    gib::Json overrides;
  } cases[] = {
      {"lagrange_top", "slow", {{"Pi0", {0.0, 0.0, 0.0}}}},
      {"lagrange_top", "slow", {{"Pi0", {1e-9, 0.0, 0.0}}}},
      {"magnetized_body", "taoowhadi2014", {{"Omega0", {0.0, 0.0, 0.0}}}},
  };
  for (const auto& k : cases) {
    const gib::ProblemInfo& info = gib::find_problem(k.problem);
    for (const char* method : {"rkmk4", "imid", "dlm2", "cg3", "odeint_rk4_quat"}) {
      if (!gib::compatible(gib::find_method(method), info)) continue;
      const gib::Cell c = body_cell(k.problem, k.preset, k.overrides, method, 0.01, 200);
      const gib::Json row = gib::run_cell(c).row;
      INFO(k.problem << " " << k.overrides.dump() << " " << method << ": " << row["status"].get<std::string>() << " "
                     << row["status_detail"].get<std::string>());
      CHECK(row["status"] == "ok");
      CHECK(energy_scale_of(c) > 1e-3);  // the potential and its torque, not |Pi0|^2 = 0
    }
  }
  // A free body at rest has no energy at all and never moves: still ok, its scale the 1e-300 floor.
  const gib::Cell rest = body_cell("free_rigid_body", "kjer2017", {{"Pi0", {0.0, 0.0, 0.0}}}, "rkmk4", 0.01, 100);
  CHECK(gib::run_cell(rest).row["status"] == "ok");
}

TEST_CASE("the energy threshold is the sweep's to set, and an energy divergence says so with its numbers", "[divergence]") {
  gib::Cell c = body_cell("free_rigid_body", "kjer2017", gib::Json::object(), "rkmk1", 0.05, 400);
  REQUIRE(gib::run_cell(c).row["status"] == "ok");
  c.observe.divergence_energy = 1e-6;  // far below what a first-order method keeps
  const gib::Json row = gib::run_cell(c).row;
  CHECK(row["status"] == "diverged");
  CHECK(row["status_detail"].get<std::string>().find("energy scale") != std::string::npos);
  CHECK(row["metrics"]["energy_rel_err_max"].get<double>() > 1e-6);
  CHECK(row["metrics"]["energy_rel_err_class"].is_null());
  CHECK(row["metrics"]["energy_rel_err_drift_slope"].is_null());
}

}  // namespace gibench_test_divergence
