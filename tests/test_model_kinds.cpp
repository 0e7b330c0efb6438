// The model-kind interface: one dispatch from a problem to its kind's traits, one compatibility predicate that
// says why, every problem instance true to its registry declaration, and a prepared cell that refuses before any
// work.
#include <catch2/catch.hpp>
#include <string>
#include <utility>

#include "core/errors.hpp"
#include "core/method.hpp"
#include "core/problem.hpp"
#include "harness/model_kinds.hpp"
#include "harness/prepared_cell.hpp"
#include "harness/runner.hpp"

namespace gibench_test_model_kinds {

namespace {

gib::Cell cell_of(const std::string& problem, const std::string& preset, const std::string& method) {
  gib::Cell c;
  c.problem = problem;
  c.preset = preset;
  c.method = method;
  c.h = 0.01;
  c.steps = 10;
  return c;
}

std::unique_ptr<gib::Problem> preset_problem(const gib::ProblemInfo& info, const std::string& preset) {
  return info.make(preset, gib::Json::object(), "preset");
}

}  // namespace

TEST_CASE("visit_kind reaches the traits of every model kind and refuses one without traits", "[kinds]") {
  for (gib::ModelKind k : {gib::ModelKind::rigid_body, gib::ModelKind::rigid_particles, gib::ModelKind::newtonian,
                           gib::ModelKind::vector_field})
    CHECK(gib::visit_kind(k, [](auto kind) { return decltype(kind)::type::kModelKind; }) == k);
  CHECK_THROWS_AS(gib::visit_kind(static_cast<gib::ModelKind>(99), [](auto) { return 0; }), std::logic_error);
  for (const auto& info : gib::problem_registry()) {
    const auto p = preset_problem(info, info.presets.front().name);
    const bool exact = gib::visit_kind(*p, [&](auto kind, const auto& typed) {
      return decltype(kind)::type::kModelKind == info.kind && &typed == p.get();
    });
    CHECK(exact);
  }
}

TEST_CASE("every preset of every problem is what the registry declares it to be", "[kinds]") {
  // The compatibility predicate reads the declaration (torque-free, constrained, kind); a preset that broke it
  // would let a torque-free-only method run on a body with a potential.
  for (const auto& info : gib::problem_registry())
    for (const auto& preset : info.presets) {
      INFO(info.id << "/" << preset.name);
      CHECK(gib::registry_mismatch(*preset_problem(info, preset.name), info).empty());
    }
}

TEST_CASE("a registry declaration a preset does not meet is caught", "[kinds]") {
  const gib::ProblemInfo& top = gib::find_problem("lagrange_top");
  const auto top_problem = preset_problem(top, top.presets.front().name);
  gib::ProblemInfo lie = top;
  lie.torque_free = true;
  CHECK(gib::registry_mismatch(*top_problem, lie) == "it has a potential; the registry says torque-free");
  lie = top;
  lie.kind = gib::ModelKind::newtonian;
  CHECK(gib::registry_mismatch(*top_problem, lie) == "its model kind is rigid_body, the registry says newtonian");

  const gib::ProblemInfo& pendulum = gib::find_problem("double_pendulum");
  const auto pendulum_problem = preset_problem(pendulum, pendulum.presets.front().name);
  lie = pendulum;
  lie.constrained = false;
  CHECK(gib::registry_mismatch(*pendulum_problem, lie) == "it has constraints the registry does not declare");
  const gib::ProblemInfo& dna = gib::find_problem("dna_torsion");
  lie = dna;
  lie.constrained = true;
  CHECK(gib::registry_mismatch(*preset_problem(dna, dna.presets.front().name), lie) ==
        "it has no constraints; the registry says constrained");

  const gib::ProblemInfo& swing = gib::find_problem("pendulum");
  const auto swing_problem = preset_problem(swing, swing.presets.front().name);
  CHECK(gib::registry_mismatch(*swing_problem, swing) == "");
  lie = swing;
  lie.structure = 0;
  CHECK(gib::registry_mismatch(*swing_problem, lie) ==
        "it has a separable Hamiltonian H = T(p) + V(q), a reversing involution; the registry says none");
  lie.structure = gib::kSeparableHamiltonian;  // one bit of two forgotten
  CHECK(gib::registry_mismatch(*swing_problem, lie) ==
        "it has a separable Hamiltonian H = T(p) + V(q), a reversing involution; the registry says a separable "
        "Hamiltonian H = T(p) + V(q)");
}

TEST_CASE("one compatibility predicate, and it says why", "[kinds]") {
  const auto why = [](const char* method, const char* problem) {
    return gib::incompatibility(gib::find_method(method), gib::find_problem(problem));
  };
  CHECK(why("rkmk4", "free_rigid_body").empty());
  CHECK(why("rkmk4", "double_pendulum") == "method rkmk4 does not support model kind newtonian of problem double_pendulum");
  CHECK(why("buss3", "lagrange_top") == "method buss3 is for torque-free bodies only; problem lagrange_top has a potential");
  CHECK(why("rattle", "dna_torsion") == "method rattle enforces holonomic constraints; problem dna_torsion has none");
  CHECK(why("zs_stiff", "dna_torsion") ==
        "method zs_stiff needs a penalised model on Newtonian problems; problem dna_torsion has no constraints");
  CHECK(gib::compatible(gib::find_method("rattle"), gib::find_problem("double_pendulum")));
  CHECK(why("leapfrog_dkd", "pendulum").empty());
  gib::ProblemInfo no_hamiltonian = gib::find_problem("pendulum");
  no_hamiltonian.structure = 0;
  CHECK(gib::incompatibility(gib::find_method("leapfrog_dkd"), no_hamiltonian) ==
        "method leapfrog_dkd needs a separable Hamiltonian H = T(p) + V(q); problem pendulum does not have it");
  CHECK(gib::compatible(gib::find_method("odeint_rk4"), no_hamiltonian));
}

TEST_CASE("a prepared cell refuses an incompatible method, a bad parameter and a series the kind lacks", "[kinds]") {
  CHECK_NOTHROW(gib::prepare_cell(cell_of("free_rigid_body", "", "rkmk4")));
  CHECK_THROWS_WITH(gib::prepare_cell(cell_of("lagrange_top", "", "buss3")),
                    "method buss3 is for torque-free bodies only; problem lagrange_top has a potential");
  gib::Cell c = cell_of("free_rigid_body", "", "rkmk4");
  c.method_params = {{"nonsense", 1}};
  CHECK_THROWS_WITH(gib::prepare_cell(c), Catch::Matchers::StartsWith("unknown parameter 'nonsense' for method rkmk4"));
  c = cell_of("free_rigid_body", "", "rkmk4");
  c.observe.series_extra = {"Pi"};
  const gib::PreparedCell ok = gib::prepare_cell(c);
  CHECK(ok.method->id == "rkmk4");
  CHECK(ok.problem->id() == "free_rigid_body");
  c.observe.series_extra = {"configuration"};
  CHECK_THROWS_WITH(gib::prepare_cell(c), Catch::Matchers::Contains("unknown series 'configuration'") &&
                                              Catch::Matchers::Contains("model kind rigid_body"));
  gib::Cell particles = cell_of("dipolar_spheres", "kjer2017_2d_n2", "dlm2");
  particles.observe.series_extra = {"configuration", "orthogonality"};
  CHECK_NOTHROW(gib::prepare_cell(particles));
  particles.observe.series_extra = {"Pi"};
  CHECK_THROWS_AS(gib::prepare_cell(particles), gib::InputError);
}

TEST_CASE("the metrics a kind reports: its errors, then its invariants", "[kinds]") {
  const auto body = gib::make_problem(cell_of("free_rigid_body", "", "rkmk4"));
  const auto stems = gib::metric_stems(*body);
  REQUIRE(stems.size() >= 6);
  CHECK(stems[4] == "state_err");
  CHECK(std::find(stems.begin(), stems.end(), "energy_rel_err") != stems.end());
  const auto summary = gib::summary_metrics(*gib::make_problem(cell_of("double_pendulum", "", "velocity_verlet")));
  CHECK(summary.front() == "state_err_final");
  CHECK(std::find(summary.begin(), summary.end(), "tip_err_final") != summary.end());
  CHECK(std::find(summary.begin(), summary.end(), "rot_geodesic_final") == summary.end());
}

// tip_err is the error of the coordinates a paper plots (the last bob); a problem without them reports null, not a 0
// that would read as an exact tip, in the final and the max value alike.
TEST_CASE("tip_err: a number where the problem has a tip, null where it has none", "[kinds]") {
  const auto tip_metrics = [](const std::string& problem, const std::string& preset) {
    gib::Cell c = cell_of(problem, preset, "velocity_verlet");
    c.h = 1e-3;
    const gib::PreparedCell p = gib::prepare_cell(c);
    const gib::Json m = gib::run_prepared(p).row.at("metrics");
    INFO(problem << ": " << m.dump());
    REQUIRE(m.at("state_err_final").is_number());
    return std::pair{m.at("tip_err_final"), m.at("tip_err_max")};
  };
  const auto [chain_final, chain_max] = tip_metrics("pendulum_chain", "taoowhadi2014_n10");
  CHECK(chain_final.is_number());
  CHECK(chain_max.is_number());
  const auto [dna_final, dna_max] = tip_metrics("dna_torsion", "n20");
  CHECK(dna_final.is_null());
  CHECK(dna_max.is_null());
}

}  // namespace gibench_test_model_kinds
