// RKMK's results, bit for bit: final states and operation counts of rkmk runs on a free body, a top, Krysl's Coulomb
// body and rigid particles, every parameter variant included, against golden values recorded from the code before
// the body and particle steppers shared one kernel (issue 19). A refactor of the RKMK code must reproduce every bit;
// a change meant to move results has to re-record them here (the hidden test case prints the table).
#include <catch2/catch.hpp>
#include <bit>
#include <cstdint>
#include <cstdio>
#include <ios>
#include <string>
#include <type_traits>
#include <vector>

#include "core/method.hpp"
#include "core/problem.hpp"
#include "support/state_vectors.hpp"

namespace gibench_test_rkmk_bits {

namespace {

using gib::Json;

struct Run {
  const char* problem;
  const char* preset;
  const char* overrides;  // JSON
  const char* method;
  const char* params;  // JSON, merged over the method's defaults
  double h;
  int steps;
};

// Every rkmk tableau, both trivialisations, each truncation rule and the flipped-sign ablation; torque-free and
// under torque; particles with translational and angular momenta from the start.
const std::vector<Run>& runs() {
  static const std::vector<Run> r = {
      {"free_rigid_body", "krysl2006", "{}", "rkmk1", "{}", 0.05, 200},
      {"free_rigid_body", "krysl2006", "{}", "rkmk2", "{}", 0.05, 200},
      {"free_rigid_body", "krysl2006", "{}", "rkmk2_midpoint", "{}", 0.05, 200},
      {"free_rigid_body", "krysl2006", "{}", "rkmk3", "{}", 0.05, 200},
      {"free_rigid_body", "krysl2006", "{}", "rkmk4", "{}", 0.05, 200},
      {"free_rigid_body", "kjer2017", "{}", "rkmk4", R"({"trivialisation": "right"})", 0.05, 200},
      {"free_rigid_body", "kjer2017", "{}", "rkmk3", R"({"trivialisation": "right", "truncation": "minimal"})", 0.05,
       200},
      {"free_rigid_body", "kjer2017", "{}", "rkmk4", R"({"dexpinv_sign": "flipped"})", 0.05, 200},
      {"free_rigid_body", "kjer2017", "{}", "rkmk2", R"({"trivialisation": "right", "dexpinv_sign": "flipped"})",
       0.05, 200},
      {"free_rigid_body", "kjer2017", "{}", "rkmk4", R"({"truncation": 6})", 0.05, 200},
      {"lagrange_top", "fast", "{}", "rkmk4", "{}", 0.002, 200},
      {"lagrange_top", "fast", "{}", "rkmk4", R"({"trivialisation": "right"})", 0.002, 200},
      {"lagrange_top", "fast", "{}", "rkmk2", "{}", 0.002, 200},
      {"lagrange_top", "slow", "{}", "rkmk3", R"({"truncation": "minimal", "dexpinv_sign": "flipped"})", 0.01, 200},
      {"coulomb_wall", "krysl2006", "{}", "rkmk4", "{}", 0.05, 200},
      {"coulomb_wall", "krysl2006", "{}", "rkmk3", R"({"trivialisation": "right"})", 0.05, 200},
  };
  return r;
}

// Three Kjer spheres packed close, moving and spinning from the start, so every block of the state changes.
constexpr const char* kSpheres =
    R"({"N": 3, "box": 1.6, "min_start_distance": 1.3, "momentum_scale": 0.5, "angular_momentum_scale": 0.5})";

const std::vector<Run>& particle_runs() {
  static const std::vector<Run> r = {
      {"dipolar_spheres", "kjer2017_n10", kSpheres, "rkmk1", "{}", 0.01, 100},
      {"dipolar_spheres", "kjer2017_n10", kSpheres, "rkmk2", "{}", 0.01, 100},
      {"dipolar_spheres", "kjer2017_n10", kSpheres, "rkmk2_midpoint", "{}", 0.01, 100},
      {"dipolar_spheres", "kjer2017_n10", kSpheres, "rkmk3", "{}", 0.01, 100},
      {"dipolar_spheres", "kjer2017_n10", kSpheres, "rkmk4", "{}", 0.01, 100},
      {"dipolar_spheres", "kjer2017_n10", kSpheres, "rkmk3", R"({"truncation": "minimal"})", 0.01, 100},
      {"dipolar_spheres", "kjer2017_n10", kSpheres, "rkmk4", R"({"dexpinv_sign": "flipped"})", 0.01, 100},
      {"dipolar_spheres", "kjer2017_n10", kSpheres, "rkmk4", R"({"truncation": 0})", 0.01, 100},
  };
  return r;
}

struct Outcome {
  std::vector<double> state;
  std::int64_t rhs = 0, force = 0, exp = 0;
};

Json params_of(const gib::MethodInfo& m, const char* params) {
  Json p = m.default_params;
  const Json given = Json::parse(params);  // items() refers to it: it must outlive the loop
  for (const auto& [k, v] : given.items()) p[k] = v;
  return p;
}

// The run through the registered method's factory for the problem's kind.
template <class ProblemT> Outcome run_kind(const Run& r) {
  const auto made = gib::find_problem(r.problem).make(r.preset, Json::parse(r.overrides), "preset");
  const auto& problem = dynamic_cast<const ProblemT&>(*made);
  const gib::MethodInfo& m = gib::find_method(r.method);
  const Json params = params_of(m, r.params);
  auto stepper = [&] {
    if constexpr (std::is_same_v<ProblemT, gib::RigidBodyProblem>) return m.rigid_body(problem.model(), params);
    else return m.particles(problem.model(), params);
  }();
  auto x = problem.initial_state();
  gib::OpCounters c;
  for (int n = 0; n < r.steps; ++n) REQUIRE(stepper->step(x, r.h, c) == gib::StepStatus::ok);
  Outcome o{{}, c.rhs_evals, c.force_evals, c.exp_evals};
  if constexpr (std::is_same_v<ProblemT, gib::RigidBodyProblem>) o.state = gib::test::body_vector<double>(x.R, x.Pi);
  else o.state = gib::test::particles_vector<double>(x);
  return o;
}

Outcome run_body(const Run& r) { return run_kind<gib::RigidBodyProblem>(r); }
Outcome run_particles(const Run& r) { return run_kind<gib::ParticlesProblem>(r); }

std::string label(const Run& r) {
  return std::string(r.problem) + "/" + r.preset + " " + r.method + " " + r.params;
}

void print_table(const char* name, const std::vector<Run>& rs, Outcome (*run)(const Run&)) {
  std::printf("const std::vector<Golden> %s = {\n", name);
  for (const Run& r : rs) {
    const Outcome o = run(r);
    std::printf("    {%lld, %lld, %lld, {", static_cast<long long>(o.rhs), static_cast<long long>(o.force),
                static_cast<long long>(o.exp));
    for (std::size_t k = 0; k < o.state.size(); ++k) std::printf("%s%a", k == 0 ? "" : ", ", o.state[k]);
    std::printf("}},  // %s\n", label(r).c_str());
  }
  std::printf("};\n");
}

struct Golden {
  std::int64_t rhs, force, exp;
  std::vector<double> state;
};

// Recorded from the code at commit 43886e5 (before the shared kernel) by the hidden test case below.
// clang-format off
#include "rkmk_bits_golden.inc"
// clang-format on

void check_bits(const std::vector<Run>& rs, const std::vector<Golden>& golden, Outcome (*run)(const Run&)) {
  REQUIRE(golden.size() == rs.size());
  for (std::size_t i = 0; i < rs.size(); ++i) {
    const Outcome o = run(rs[i]);
    const Golden& g = golden[i];
    INFO(label(rs[i]));
    CHECK(o.rhs == g.rhs);
    CHECK(o.force == g.force);
    CHECK(o.exp == g.exp);
    REQUIRE(o.state.size() == g.state.size());
    int differing = 0;
    for (std::size_t k = 0; k < o.state.size(); ++k)
      if (std::bit_cast<std::uint64_t>(o.state[k]) != std::bit_cast<std::uint64_t>(g.state[k])) {
        if (differing++ == 0) UNSCOPED_INFO("first differing entry " << k << ": " << std::hexfloat << o.state[k] << " vs " << g.state[k]);
      }
    CHECK(differing == 0);
  }
}

}  // namespace

TEST_CASE("rkmk on rigid bodies reproduces its recorded final states bit for bit", "[rkmk][bits]") {
  check_bits(runs(), kBodyGolden, run_body);
}

TEST_CASE("rkmk on rigid particles reproduces its recorded final states bit for bit", "[rkmk][bits]") {
  check_bits(particle_runs(), kParticleGolden, run_particles);
}

// Prints the golden tables (tests/rkmk_bits_golden.inc): gibench_tests "[.record_rkmk_bits]".
TEST_CASE("record the rkmk golden states", "[.record_rkmk_bits]") {
  print_table("kBodyGolden", runs(), run_body);
  print_table("kParticleGolden", particle_runs(), run_particles);
}

}  // namespace gibench_test_rkmk_bits
