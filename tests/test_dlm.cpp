// DLM splitting (methods/splitting/dlm.hpp) on bodies with a potential, before the torque problems'
// battery exists: order 2 (dlm2) and 4 (dlm4) by self-convergence, symmetry, e_z . R Pi exact, bounded
// energy over a long run at a large step, one torque evaluation per step, and dlm2 == mr2 bit for bit on
// a free body.
#include <catch2/catch.hpp>
#include <cmath>
#include <memory>
#include <string>

#include "core/method.hpp"
#include "core/problem.hpp"
#include "harness/runner.hpp"
#include "problems/common/r33_potential.hpp"

namespace gibench_test_dlm {

namespace {

using gib::Json;
using gib::Mat3;
using gib::RigidBodyModel;
using gib::RigidBodyState;
using gib::Vec3;

// Krysl's fast Lagrange top (spec 7.3): I = diag(5, 5, 1), V = 20 R33, Psi0 = (0.3, 0, 0), Pi0 = (0, 0, 50).
RigidBodyModel fast_top() { return RigidBodyModel(Vec3(5, 5, 1), gib::uniform_gravity_potential(20)); }
RigidBodyState fast_top_start() { return {gib::so3::exp(Vec3(0.3, 0, 0)), Vec3(0, 0, 50)}; }

// Krysl's Coulomb soft-wall body (spec 7.4): I = diag(2, 3, 4.5), R0 = I, Pi0 = (2, 2, 2).
RigidBodyModel coulomb() { return RigidBodyModel(Vec3(2, 3, 4.5), gib::coulomb_wall_potential(1, 0.001, 1.1)); }
RigidBodyState coulomb_start() { return {Mat3::Identity(), Vec3(2, 2, 2)}; }

RigidBodyState run(const std::string& id, const RigidBodyModel& model, const RigidBodyState& x0, double h, std::int64_t n,
                   const Json& params = Json::object()) {
  const gib::MethodInfo& m = gib::find_method(id);
  return gib::integrate_rigid_body(m, model, gib::merge_method_params(m, params), x0, h, n);
}

double distance(const RigidBodyState& a, const RigidBodyState& b) {
  return std::max((a.R - b.R).norm(), (a.Pi - b.Pi).norm() / b.Pi.norm());
}

double vertical_momentum(const RigidBodyState& x) { return (x.R * x.Pi).z(); }

}  // namespace

TEST_CASE("dlm2 is order 2 and dlm4 order 4 on the fast Lagrange top", "[splitting][dlm]") {
  const RigidBodyModel model = fast_top();
  const RigidBodyState x0 = fast_top_start();
  const double T = 0.2;  // two spin periods' worth of precession-nutation coupling
  const RigidBodyState ref = run("dlm4", model, x0, T / 4096, 4096);
  for (const auto& [id, order] : {std::pair<std::string, int>{"dlm2", 2}, {"dlm4", 4}}) {
    INFO(id);
    const double e1 = distance(run(id, model, x0, T / 128, 128), ref);
    const double e2 = distance(run(id, model, x0, T / 256, 256), ref);
    CHECK(std::log2(e1 / e2) == Approx(order).margin(0.1));
  }
}

TEST_CASE("dlm2 and dlm4 are symmetric and keep e_z . R Pi on both torque problems", "[splitting][dlm]") {
  for (const auto& [model, x0] : {std::pair{fast_top(), fast_top_start()}, std::pair{coulomb(), coulomb_start()}}) {
    for (const std::string id : {"dlm2", "dlm4"}) {
      INFO(id);
      const RigidBodyState x1 = run(id, model, x0, 0.05, 40);
      const RigidBodyState back = run(id, model, x1, -0.05, 40);
      CHECK(distance(back, x0) < 1e-12);
      CHECK(std::abs(vertical_momentum(x1) - vertical_momentum(x0)) < 1e-12 * x0.Pi.norm());
    }
  }
}

TEST_CASE("dlm2 keeps the Coulomb body's energy bounded at Krysl's dt = 0.5", "[splitting][dlm]") {
  const RigidBodyModel model = coulomb();
  RigidBodyState x = coulomb_start();
  const double H0 = model.energy(x);
  double worst_first = 0, worst_last = 0;
  for (int block = 0; block < 10; ++block) {
    double worst = 0;
    for (int k = 0; k < 400; ++k) {
      x = run("dlm2", model, x, 0.5, 1);
      worst = std::max(worst, std::abs(model.energy(x) / H0 - 1));
    }
    if (block == 0) worst_first = worst;
    worst_last = worst;
  }
  // A drifting method would grow block by block; a symplectic one oscillates in a fixed band.
  CHECK(worst_last < 0.1);
  CHECK(worst_last < 3 * worst_first + 1e-3);
}

TEST_CASE("dlm2 evaluates the torque once per step and equals mr2 on a free body", "[splitting][dlm]") {
  const gib::MethodInfo& m = gib::find_method("dlm2");
  const RigidBodyModel model = fast_top();
  auto stepper = m.rigid_body(model, gib::merge_method_params(m, Json::object()));
  RigidBodyState x = fast_top_start();
  gib::OpCounters c;
  for (int k = 0; k < 10; ++k) stepper->step(x, 0.01, c);
  CHECK(c.force_evals == 11);  // the first step's opening kick, then one per step
  CHECK(c.exp_evals == 50);

  const RigidBodyModel free(Vec3(5, 4, 1));
  const RigidBodyState y0{Mat3::Identity(), Vec3(0.3, -1, 2)};
  const RigidBodyState a = run("dlm2", free, y0, 0.1, 20, {{"ordering", "123"}});
  const RigidBodyState b = run("mr2", free, y0, 0.1, 20, {{"ordering", "123"}});
  CHECK(a.R == b.R);
  CHECK(a.Pi == b.Pi);
}

}  // namespace gibench_test_dlm
