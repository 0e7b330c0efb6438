// RATTLE's multipliers solved molecule by molecule against the dense solve on all of them (methods/zhang_skeel/
// rattle.cpp, parameter multiplier_solve), the constraints' Jacobian blocks they rest on (ConstraintSet::
// jacobian_blocks), and the timing pass's split into time inside the model and the rest (harness/clocked_model.hpp,
// harness/timing.cpp; Tao-Owhadi spec 4.3 "Timings").
#include <catch2/catch.hpp>
#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/errors.hpp"
#include "core/method.hpp"
#include "core/penalty.hpp"
#include "core/problem.hpp"
#include "core/random.hpp"
#include "harness/clocked_model.hpp"
#include "harness/model_kinds.hpp"
#include "harness/timing.hpp"
#include "methods/zhang_skeel/rattle.hpp"

namespace gibench_test_rattle_blocks {

namespace {

using Eigen::MatrixXd;
using Eigen::VectorXd;
using gib::Json;
using gib::NewtonianState;

std::unique_ptr<gib::NewtonianProblem> make(const std::string& problem, const std::string& preset) {
  auto p = gib::find_problem(problem).make(preset, Json::object(), "preset");
  auto* n = dynamic_cast<gib::NewtonianProblem*>(p.get());
  REQUIRE(n != nullptr);
  p.release();
  return std::unique_ptr<gib::NewtonianProblem>(n);
}

std::unique_ptr<gib::NewtonianStepper> rattle(const gib::NewtonianModel& model, const std::string& solve) {
  return gib::find_method("rattle").newtonian(model, Json{{"multiplier_solve", solve}});
}

bool by_block(const gib::NewtonianStepper& s) {
  const auto* m = dynamic_cast<const gib::zhang_skeel::ConstraintMultipliers*>(&s);
  REQUIRE(m != nullptr);
  return m->solves_by_block();
}

double relative(const VectorXd& a, const VectorXd& b) { return (a - b).norm() / std::max(b.norm(), 1e-300); }

// The largest relative differences in q, v and Lambda between two RATTLE runs of `steps` steps from a and b.
struct Apart {
  double q = 0, v = 0, lambda = 0;
};
Apart run_apart(const gib::NewtonianModel& model, const std::string& solve_a, const std::string& solve_b,
                NewtonianState a, NewtonianState b, double h, int steps, gib::OpCounters& ca, gib::OpCounters& cb) {
  auto sa = rattle(model, solve_a), sb = rattle(model, solve_b);
  const auto* ma = dynamic_cast<const gib::zhang_skeel::ConstraintMultipliers*>(sa.get());
  const auto* mb = dynamic_cast<const gib::zhang_skeel::ConstraintMultipliers*>(sb.get());
  Apart worst;
  for (int i = 0; i < steps; ++i) {
    REQUIRE(sa->step(a, h, ca) == gib::StepStatus::ok);
    REQUIRE(sb->step(b, h, cb) == gib::StepStatus::ok);
    worst.q = std::max(worst.q, relative(a.q, b.q));
    worst.v = std::max(worst.v, relative(a.v, b.v));
    worst.lambda = std::max(worst.lambda, relative(ma->last_multipliers(), mb->last_multipliers()));
  }
  return worst;
}

}  // namespace

TEST_CASE("Distance constraints: the Jacobian blocks are the dense Jacobian's nonzero blocks", "[rattle_blocks]") {
  const auto p = make("water_cluster", "n7");
  const gib::ConstraintSet& g = *p->model().constraint_set();
  REQUIRE(g.block_size() == 9);
  gib::random::Stream rng(11);
  VectorXd q = p->initial_state().q;
  for (Eigen::Index i = 0; i < q.size(); ++i) q(i) += rng.uniform(-0.05, 0.05);  // bonds off their lengths
  MatrixXd G;
  g.jacobian(q, G);
  std::vector<gib::ConstraintSet::JacobianBlock> blocks;
  g.jacobian_blocks(q, blocks);
  REQUIRE(blocks.size() == 7);
  // Reassembled, the blocks are G bit for bit (the same 2 (x_i - x_j)), and G has nothing outside them.
  MatrixXd assembled = MatrixXd::Zero(G.rows(), G.cols());
  std::vector<int> seen(static_cast<std::size_t>(g.size()), 0);
  for (std::size_t k = 0; k < blocks.size(); ++k) {
    const auto& B = blocks[k];
    REQUIRE(B.G.rows() == static_cast<Eigen::Index>(B.constraints.size()));
    REQUIRE(B.G.cols() == 9);
    CHECK(std::is_sorted(B.constraints.begin(), B.constraints.end()));
    for (std::size_t j = 0; j < B.constraints.size(); ++j) {
      ++seen[static_cast<std::size_t>(B.constraints[j])];
      assembled.row(B.constraints[j]).segment(9 * static_cast<Eigen::Index>(k), 9) = B.G.row(static_cast<Eigen::Index>(j));
    }
  }
  CHECK(std::all_of(seen.begin(), seen.end(), [](int n) { return n == 1; }));
  CHECK(assembled == G);
  // A second call at another q reuses the lists and refills G.
  g.jacobian_blocks(p->initial_state().q, blocks);
  g.jacobian(p->initial_state().q, G);
  CHECK(blocks[3].G == G.block(blocks[3].constraints.front(), 27, 3, 9));

  // Constraints without blocks (a pendulum's rods) have no Jacobian blocks: asking is a programming error.
  const auto pendulum = make("double_pendulum", "taoowhadi2014");
  const gib::ConstraintSet& rods = *pendulum->model().constraint_set();
  REQUIRE(rods.block_size() == 0);
  CHECK_THROWS_AS(rods.jacobian_blocks(pendulum->initial_state().q, blocks), std::logic_error);
}

// The mass-metric projection onto G v = 0 (GLA's kick with RATTLE, the water's initial velocities) takes the same
// block path: against the dense projection computed here from the whole Jacobian, on a water cluster's state with a
// velocity off the tangent space.
TEST_CASE("project_to_tangent: the block projection is the dense one", "[rattle_blocks]") {
  const auto p = make("water_cluster", "n7");
  const gib::ConstraintSet& g = *p->model().constraint_set();
  REQUIRE(g.block_size() == 9);
  const VectorXd& q = p->initial_state().q;
  const VectorXd inverse_mass = p->model().mass_matrix().diagonal().cwiseInverse();
  gib::random::Stream rng(11);
  VectorXd v(q.size());
  for (Eigen::Index i = 0; i < v.size(); ++i) v(i) = rng.normal();
  MatrixXd G;
  g.jacobian(q, G);
  const MatrixXd GMinv = G * inverse_mass.asDiagonal();
  const VectorXd dense = v - GMinv.transpose() * (GMinv * G.transpose()).llt().solve(G * v);
  VectorXd block = v;
  gib::project_to_tangent(g, q, inverse_mass, block);
  CHECK((block - dense).norm() <= 1e-14 * v.norm());
  CHECK((G * block).norm() <= 1e-13 * v.norm());
  CHECK((G * v).norm() > 1);  // the velocity did leave the tangent space
}

TEST_CASE("RATTLE: block and global multiplier solves give the same water-cluster trajectory", "[rattle_blocks]") {
  const auto p = make("water_cluster", "n7");
  const auto& model = p->model();
  REQUIRE(by_block(*rattle(model, "block")));
  REQUIRE_FALSE(by_block(*rattle(model, "global")));
  // The paper's h = 0.05 for 200 steps. Both Newton iterations stop on the same whole-update test, and the block
  // solves differ from the dense ones only in the order of round-off (the dense LU of a block-diagonal matrix pivots
  // within the blocks; the dense products add the same nonzero terms in another order). The yardstick for "the same
  // to round-off" is the cluster's own amplification of round-off: the global solve from initial positions moved
  // by one ulp each. Measured (AMD EPYC, GCC 12 -O3): block against global q 3.2e-13, v 2.1e-12, Lambda 9.4e-13;
  // one ulp q 2.7e-13, v 1.8e-12: they grow alike, 1e-16 at the first steps to 1e-12 at step 200.
  const double h = 0.05;
  gib::OpCounters ca, cb, unused_a, unused_b;
  const Apart solves = run_apart(model, "block", "global", p->initial_state(), p->initial_state(), h, 200, ca, cb);
  NewtonianState nudged = p->initial_state();
  for (Eigen::Index i = 0; i < nudged.q.size(); ++i) nudged.q(i) = std::nextafter(nudged.q(i), INFINITY);
  const Apart ulp = run_apart(model, "global", "global", nudged, p->initial_state(), h, 200, unused_a, unused_b);
  INFO("largest relative differences over 200 steps, block against global: q " << solves.q << ", v " << solves.v
       << ", Lambda " << solves.lambda << "; one ulp in q0: q " << ulp.q << ", v " << ulp.v << ", Lambda " << ulp.lambda);
  CHECK(solves.q <= 1e-12);
  // Within a decade of what one ulp in the initial positions does (a perturbed block solve is orders beyond).
  CHECK(solves.q <= 10 * ulp.q);
  CHECK(solves.v <= 10 * ulp.v);
  CHECK(solves.lambda <= 10 * ulp.lambda);
  CHECK(ulp.q > 0);  // the yardstick is not zero
  // The same iterations and solves, counted the same way.
  CHECK(ca.linear_solves == cb.linear_solves);
  CHECK(ca.nonlinear_iters == cb.nonlinear_iters);
  CHECK(ca.force_evals == cb.force_evals);
  // The run went somewhere (the comparison is not between two states at rest) and stayed on the constraints.
  NewtonianState x = p->initial_state();
  gib::OpCounters c;
  REQUIRE(rattle(model, "block")->advance(x, h, 200, c).status == gib::StepStatus::ok);
  CHECK(relative(x.q, p->initial_state().q) > 1e-3);
  VectorXd g;
  model.constraint_set()->values(x.q, g);
  CHECK(g.norm() <= 1e-10);
}

TEST_CASE("RATTLE: one block step is the global step to a few ulps, from states along a water-cluster run",
          "[rattle_blocks]") {
  // Without 200 steps of chaos in between, the two solves must agree to the round-off of one step: the same nonzero
  // terms summed in another order, a few ulps of |x| (64 eps allows for the Newton iterations compounding them). This
  // is what sees a block solved slightly wrong that the trajectory test above, whose yardstick grows to 1e-12, cannot.
  const auto p = make("water_cluster", "n7");
  const auto& model = p->model();
  const double h = 0.05, eps = std::numeric_limits<double>::epsilon();
  NewtonianState x = p->initial_state();
  auto along = rattle(model, "global");
  gib::OpCounters c;
  double worst_q = 0, worst_v = 0;
  for (int k = 0; k < 4; ++k) {
    NewtonianState a = x, b = x;
    gib::OpCounters ca, cb;
    REQUIRE(rattle(model, "block")->step(a, h, ca) == gib::StepStatus::ok);
    REQUIRE(rattle(model, "global")->step(b, h, cb) == gib::StepStatus::ok);
    worst_q = std::max(worst_q, relative(a.q, b.q));
    worst_v = std::max(worst_v, relative(a.v, b.v));
    REQUIRE(along->advance(x, h, 50, c).status == gib::StepStatus::ok);
  }
  INFO("largest relative one-step differences: q " << worst_q << ", v " << worst_v);
  CHECK(worst_q <= 64 * eps);
  CHECK(worst_v <= 64 * eps);
}

TEST_CASE("RATTLE: models without block structure keep the dense solve either way", "[rattle_blocks]") {
  const auto p = make("double_pendulum", "taoowhadi2014");
  auto block = rattle(p->model(), "block");
  auto global = rattle(p->model(), "global");
  CHECK_FALSE(by_block(*block));
  CHECK_FALSE(by_block(*global));
  NewtonianState a = p->initial_state(), b = p->initial_state();
  gib::OpCounters ca, cb;
  for (int i = 0; i < 50; ++i) {
    REQUIRE(block->step(a, 0.01, ca) == gib::StepStatus::ok);
    REQUIRE(global->step(b, 0.01, cb) == gib::StepStatus::ok);
  }
  CHECK(a.q == b.q);
  CHECK(a.v == b.v);
}

TEST_CASE("RATTLE: multiplier_solve other than block or global is an input error", "[rattle_blocks]") {
  const auto p = make("water_cluster", "n3");
  CHECK(gib::find_method("rattle").default_params->at("multiplier_solve") == "block");
  for (const Json& bad : {Json("blocks"), Json("Global"), Json(1), Json(nullptr)}) {
    INFO(bad.dump());
    try {
      (void)gib::find_method("rattle").newtonian(p->model(), Json{{"multiplier_solve", bad}});
      FAIL("no InputError");
    } catch (const gib::InputError& e) {
      const std::string what = e.what();
      CHECK(what.find("multiplier_solve") != std::string::npos);
      CHECK(what.find('\n') == std::string::npos);
    }
  }
}

TEST_CASE("Clocked model: every Newtonian method steps bit for bit as on the plain model, and is clocked",
          "[rattle_blocks][clocked_model]") {
  // Forwarding every virtual is what keeps the methods' paths: a missed stiff_block_size() would send Integrator 5
  // down its dense solve, a missed sparse_hessian() the DNA chain's methods, a missed unpenalized() RATTLE's forces
  // past the clock; each changes the bits or the clock's count.
  for (const auto& [problem, preset, h] : {std::tuple<std::string, std::string, double>{"water_cluster", "n3", 0.05},
                                           {"dna_torsion", "n20", 0.1},
                                           {"double_pendulum", "taoowhadi2014", 0.01}}) {
    const auto p = make(problem, preset);
    const gib::ProblemInfo& info = gib::find_problem(problem);
    int methods = 0;
    for (const gib::MethodInfo& m : gib::method_registry()) {
      if (!gib::compatible(m, info) || !m.newtonian) continue;
      INFO(problem << " " << m.id);
      gib::ModelClock clock;
      const gib::ClockedNewtonianModel clocked(p->model(), clock);
      CHECK(clocked.constraint_set() == p->model().constraint_set());
      CHECK((clocked.unpenalized() == nullptr) == (p->model().unpenalized() == nullptr));
      auto plain_stepper = m.newtonian(p->model(), *m.default_params);
      auto clocked_stepper = m.newtonian(clocked, *m.default_params);
      NewtonianState a = p->initial_state(), b = p->initial_state();
      gib::OpCounters ca, cb;
      const gib::Advanced sa = plain_stepper->advance(a, h, 20, ca);
      const gib::Advanced sb = clocked_stepper->advance(b, h, 20, cb);
      CHECK(sa.status == sb.status);
      CHECK(sa.steps == sb.steps);
      // Bit for bit (memcmp: a method that blows up at this h gives NaN on both sides, which == would call unequal).
      CHECK(gib::NewtonianKind::bitwise_equal(a, b));
      CHECK(ca.linear_solves == cb.linear_solves);
      // Every force evaluation went through the clock (Hessians and V''' add to the calls, never remove).
      CHECK(clock.calls >= cb.force_evals);
      CHECK(clock.calls > 0);
      CHECK(clock.seconds() > 0);
      ++methods;
    }
    CHECK(methods >= 3);
  }
}

TEST_CASE("Timing pass: Newtonian rows carry the model split, other kinds none", "[rattle_blocks][clocked_model]") {
  const auto timed = [](const std::string& problem, const std::string& preset, const std::string& method, double h) {
    gib::Cell c;
    c.problem = problem;
    c.preset = preset;
    c.method = method;
    c.h = h;
    c.steps = 40;
    c.timing.reps = 3;
    c.timing.min_sample_seconds = 1e-3;
    return c;
  };
  const gib::Cell water = timed("water_cluster", "n3", "zs_stiff", 0.05);
  gib::Cell rattle_global = timed("water_cluster", "n3", "rattle", 0.05);
  rattle_global.method_params = Json{{"multiplier_solve", "global"}};
  const gib::Cell body = timed("free_rigid_body", "kjer2017", "rkmk4", 0.1);
  const std::vector<Json> t = gib::time_cells_interleaved({water, rattle_global, body}, gib::registry_catalog());
  REQUIRE(t.size() == 3);
  for (std::size_t i = 0; i < 2; ++i) {
    INFO(t[i].dump());
    REQUIRE(t[i].contains("model_s"));
    const double f = t[i]["model_fraction"].get<double>();
    CHECK(f > 0);
    CHECK(f < 1);
    CHECK(t[i]["model_s"].get<double>() > 0);
    CHECK(t[i]["model_s"].get<double>() < t[i]["clocked_median_s"].get<double>());
    CHECK(t[i]["model_calls_per_step"].get<double>() >= 1);
  }
  // Integrator 5: a gradient and the stiff Hessian's blocks every step, and the start's; RATTLE: one gradient per
  // step (the end's is the next start's) plus the first.
  CHECK(t[0]["model_calls_per_step"].get<double>() >= 2.0);
  CHECK(t[1]["model_calls_per_step"].get<double>() == Approx(1.0 + 1.0 / 40));
  INFO(t[2].dump());
  CHECK_FALSE(t[2].contains("model_s"));
  CHECK(t[2].contains("median_s"));
}

}  // namespace gibench_test_rattle_blocks
