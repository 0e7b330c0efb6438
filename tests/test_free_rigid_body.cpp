// Presets, overrides and initial conditions of the free rigid body against the numbers the papers
// (and their specs) print.
#include <catch2/catch.hpp>
#include <cmath>

#include "core/errors.hpp"
#include "core/problem.hpp"

namespace gibench_test_free_rigid_body {

namespace {

std::unique_ptr<gib::RigidBodyProblem> make(const std::string& preset, const gib::Json& o = gib::Json::object(),
                                             const std::string& ic = "preset") {
  auto p = gib::find_problem("free_rigid_body").make(preset, o, ic);
  return std::unique_ptr<gib::RigidBodyProblem>(dynamic_cast<gib::RigidBodyProblem*>(p.release()));
}

}  // namespace

TEST_CASE("buss2001 preset reproduces the paper's initial and maximal energy", "[problem][free_rigid_body]") {
  const auto p = make("buss2001");
  const double E0 = p->model().energy(p->initial_state());
  CHECK(E0 == Approx(82.1053).epsilon(1e-6));  // Buss 2001 section 6: "initial energy is 82.1053"
  const double L = p->initial_state().Pi.norm();
  CHECK(L * L / (2 * p->model().inertia().minCoeff()) == Approx(150.0));  // "highest possible energy is 150.0"
  // Mean rotation per step h = 0.004: 16.3 degrees (Figure 4/5 headers, h |omega0|).
  const double w0 = p->model().angular_velocity(p->initial_state().Pi).norm();
  CHECK(0.004 * w0 * 180 / M_PI == Approx(16.3).epsilon(2e-3));
}

TEST_CASE("krysl2006 preset: Pi0 = I Omega0 and K0 as the spec prints", "[problem][free_rigid_body]") {
  const auto p = make("krysl2006");
  const gib::Vec3 Pi = p->initial_state().Pi;
  CHECK(Pi(0) == Approx(0.41650006).epsilon(1e-8));
  CHECK(Pi(1) == Approx(0.90720054).epsilon(1e-8));
  CHECK(Pi(2) == Approx(0.05770160).epsilon(1e-7));
  CHECK(p->model().energy(p->initial_state()) == Approx(0.47063681).epsilon(1e-8));
}

TEST_CASE("kjer2017 preset: unit Gaussian momentum, identity attitude", "[problem][free_rigid_body]") {
  const auto p = make("kjer2017");
  CHECK(p->initial_state().Pi.norm() == Approx(1.0).epsilon(1e-15));
  CHECK(p->initial_state().R.isIdentity());
  CHECK(p->model().inertia()(1) == 1.88);
}

TEST_CASE("overrides set every parameter and reject non-physical values", "[problem][free_rigid_body]") {
  const auto p = make("kjer2017", {{"inertia", {2, 1, 0.5}}, {"Pi0", {0.1, 0.2, 0.3}},
                                   {"R0", {0, -1, 0, 1, 0, 0, 0, 0, 1}}});
  CHECK(p->model().inertia()(2) == 0.5);
  CHECK(p->initial_state().Pi(1) == 0.2);
  CHECK(p->initial_state().R(0, 1) == -1);
  CHECK(make("krysl2006", {{"Omega0", {1, 0, 0}}})->initial_state().Pi(0) == 0.9144);
  using gib::InputError;
  CHECK_THROWS_AS(make("kjer2017", {{"inertia", {1, 0, 1}}}), InputError);
  CHECK_THROWS_AS(make("kjer2017", {{"inertia", {1, -2, 1}}}), InputError);
  CHECK_THROWS_AS(make("kjer2017", {{"inertia", {1, 2}}}), InputError);
  CHECK_THROWS_AS(make("kjer2017", {{"Pi0", {1, "a", 1}}}), InputError);
  CHECK_THROWS_AS(make("kjer2017", {{"R0", {1, 0, 0, 0, 1, 0, 0, 0, 2}}}), InputError);
  CHECK_THROWS_AS(make("kjer2017", {{"R0", {1, 0, 0, 0, 1, 0, 0, 0, -1}}}), InputError);
  CHECK_THROWS_AS(make("kjer2017", {{"mass", 1}}), InputError);
  CHECK_THROWS_AS(make("kjer2017", {{"Pi0", {1, 0, 0}}, {"Omega0", {1, 0, 0}}}), InputError);
  CHECK_THROWS_AS(make("no_such_preset"), InputError);
  CHECK_THROWS_AS(make("kjer2017", gib::Json::object(), "random:0"), InputError);
  CHECK_THROWS_AS(make("kjer2017", gib::Json::object(), "random:x"), InputError);
  CHECK_THROWS_AS(make("kjer2017", gib::Json::object(), "gaussian"), InputError);
}

TEST_CASE("random initial conditions are seeded, distinct and on SO(3)", "[problem][free_rigid_body]") {
  const auto a = make("buss2001", gib::Json::object(), "random:1");
  const auto b = make("buss2001", gib::Json::object(), "random:1");
  const auto c = make("buss2001", gib::Json::object(), "random:2");
  CHECK(a->initial_state().R == b->initial_state().R);
  CHECK(a->initial_state().Pi == b->initial_state().Pi);
  CHECK(a->initial_state().Pi != c->initial_state().Pi);
  CHECK(a->initial_state().Pi.norm() == Approx(3.0));  // keeps the preset's |L|
  CHECK(gib::so3::orthogonality_defect(a->initial_state().R) < 1e-14);
  CHECK(a->initial_state().R.determinant() == Approx(1.0));
  CHECK(a->parameter_hash() != c->parameter_hash());
  CHECK(a->parameter_hash() == b->parameter_hash());
}

TEST_CASE("invariants of the free body: energy, Casimir, spatial momentum", "[problem][free_rigid_body]") {
  const auto p = make("kjer2017");
  const auto inv = p->invariants();
  REQUIRE(inv.size() == 3);
  CHECK(inv[0].metric == "energy_rel_err");
  CHECK(inv[1].metric == "casimir_err");
  CHECK(inv[2].metric == "spatial_momentum_err");
  CHECK(inv[1].value(p->initial_state())(0) == Approx(0.5));
}

}  // namespace gibench_test_free_rigid_body
