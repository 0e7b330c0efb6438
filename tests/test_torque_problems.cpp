// The problems with torque (Krysl 2006 sections 5.2-5.4): the R33 potentials against finite differences
// of V, the presets against the numbers the spec prints, invariants, time scales, overrides and bad input.
#include <catch2/catch.hpp>
#include <cmath>
#include <string>

#include "core/errors.hpp"
#include "core/problem.hpp"
#include "core/random.hpp"
#include "problems/common/r33_potential.hpp"

namespace gibench_test_torque_problems {

namespace {

using gib::Json;
using gib::Mat3;
using gib::Vec3;

std::unique_ptr<gib::RigidBodyProblem> make(const std::string& problem, const std::string& preset,
                                            const Json& o = Json::object(), const std::string& ic = "preset") {
  auto p = gib::find_problem(problem).make(preset, o, ic);
  return std::unique_ptr<gib::RigidBodyProblem>(dynamic_cast<gib::RigidBodyProblem*>(p.release()));
}

double energy0(const gib::RigidBodyProblem& p) { return p.model().energy(p.initial_state()); }

// Central differences of V along R exp(eps e_j) (torque) and of T (Jacobian), relative to their size.
void check_against_finite_differences(const gib::RigidBodyPotential& v, const Mat3& R) {
  const double e = 1e-6;
  Vec3 fd_torque;
  Mat3 fd_jacobian;
  for (int j = 0; j < 3; ++j) {
    const Vec3 d = Vec3::Unit(j) * e;
    const Mat3 Rp = R * gib::so3::exp(d), Rm = R * gib::so3::exp(Vec3(-d));
    fd_torque(j) = -(v.energy(Rp) - v.energy(Rm)) / (2 * e);
    fd_jacobian.col(j) = (v.body_torque(Rp) - v.body_torque(Rm)) / (2 * e);
  }
  const Vec3 T = v.body_torque(R);
  const Mat3 J = v.body_torque_jacobian(R);
  INFO("R33 = " << R(2, 2) << ", T = " << T.transpose());
  CHECK((fd_torque - T).norm() <= 1e-7 * std::max(1.0, T.norm()));
  CHECK((fd_jacobian - J).norm() <= 1e-6 * std::max(1.0, J.norm()));
}

bool has_invariant(const gib::RigidBodyProblem& p, gib::Invariant id, const std::string& metric) {
  for (const auto& inv : p.invariants())
    if (inv.id == id) return inv.metric == metric && inv.kind != gib::InvariantErrorKind::relative;
  return false;
}

}  // namespace

TEST_CASE("R33 potentials: torque and Jacobian match finite differences of V", "[torque_problems]") {
  gib::random::Stream rng(2006);
  const auto gravity = gib::uniform_gravity_potential(20.0);
  const auto printed = gib::coulomb_wall_potential(1.0, 0.001, 1.1, 1.0);
  const auto flipped = gib::coulomb_wall_potential(1.0, 0.001, 1.1, -1.0);
  for (int k = 0; k < 20; ++k) {
    const Mat3 R = rng.rotation();
    check_against_finite_differences(*gravity, R);
    check_against_finite_differences(*printed, R);
    check_against_finite_differences(*flipped, R);
  }
  // The printed torque of the spec: t_sp = (-(1.1 + R33)^-2 + 0.01 (1.1 + R33)^-11) (-R23, R13, 0).
  const Mat3 R = rng.rotation();
  const double r = 1.1 + R(2, 2);
  const Vec3 t_sp = (-1 / (r * r) + 0.01 / std::pow(r, 11)) * Vec3(-R(1, 2), R(0, 2), 0);
  CHECK((R * printed->body_torque(R) - t_sp).norm() <= 1e-14 * t_sp.norm());
  // The top's: t = -20 R(:,3) x e3.
  CHECK((R * gravity->body_torque(R) + 20 * Vec3(R.col(2)).cross(Vec3::UnitZ())).norm() <= 1e-13);
}

TEST_CASE("lagrange_top presets: R0, Pi0 and H0 as the Krysl spec prints", "[torque_problems]") {
  const auto slow = make("lagrange_top", "slow");
  CHECK(energy0(*slow) == Approx(32.47500521).epsilon(1e-10));
  CHECK(slow->initial_state().Pi == Vec3(0, 0, 5));
  const Vec3 d0 = slow->initial_state().R.col(2);  // the symmetry axis in space
  CHECK(d0(1) == Approx(-0.04997917).margin(5e-9));  // 8 printed decimals
  CHECK(d0(2) == Approx(0.99875026).margin(5e-9));
  const auto fast = make("lagrange_top", "fast");
  CHECK(energy0(*fast) == Approx(1269.10672978).epsilon(1e-11));
  CHECK(fast->initial_state().Pi == Vec3(0, 0, 50));
  CHECK_FALSE(fast->model().torque_free());
  CHECK(fast->model().uniform_field());
  CHECK_FALSE(gib::find_problem("lagrange_top").torque_free);
}

TEST_CASE("coulomb_wall presets: K0, V0 and H0 as the Krysl spec prints", "[torque_problems]") {
  const auto p = make("coulomb_wall", "krysl2006");
  const gib::RigidBodyState& x0 = p->initial_state();
  CHECK(x0.R.isIdentity());
  CHECK(x0.Pi == Vec3(2, 2, 2));
  CHECK(p->model().kinetic_energy(x0.Pi) == Approx(2.1111111111).epsilon(1e-10));
  CHECK(p->model().potential_energy(x0.R) == Approx(0.4761898767).epsilon(1e-10));
  CHECK(energy0(*p) == Approx(2.5873009878).epsilon(1e-10));
  CHECK_FALSE(p->model().uniform_field());
  const auto f = make("coulomb_wall", "flipped");
  CHECK(f->model().potential_energy(x0.R) == Approx(-0.4761898767).epsilon(1e-10));
  CHECK(f->parameter_hash() != p->parameter_hash());  // the potential is part of the parameters
  const auto& info = gib::find_problem("coulomb_wall");
  CHECK_FALSE(info.torque_free);
  REQUIRE(info.presets.size() == 2);
  CHECK(info.presets[0].name == "krysl2006");
  CHECK(info.presets[1].name == "flipped");
  CHECK(info.presets[1].description.find("stress case") != std::string::npos);
  CHECK(info.presets[1].description.find("not compared with the paper") != std::string::npos);
}

TEST_CASE("torque problems list energy, vertical and (for I1 = I2) axial momentum", "[torque_problems]") {
  using gib::Invariant;
  const auto top = make("lagrange_top", "slow");
  CHECK(has_invariant(*top, Invariant::vertical_momentum, "vertical_momentum_err"));
  CHECK(has_invariant(*top, Invariant::axial_momentum, "axial_momentum_err"));
  CHECK_FALSE(has_invariant(*top, Invariant::casimir, "casimir_err"));
  CHECK_FALSE(has_invariant(*top, Invariant::spatial_momentum, "spatial_momentum_err"));
  for (const auto& inv : top->invariants()) {
    const double v = inv.value(top->initial_state())(0);
    if (inv.id == Invariant::energy) CHECK(v == Approx(32.47500521));
    if (inv.id == Invariant::vertical_momentum) CHECK(v == Approx(5 * std::cos(0.05)).epsilon(1e-15));
    if (inv.id == Invariant::axial_momentum) CHECK(v == 5);
  }
  CHECK_FALSE(has_invariant(*make("lagrange_top", "slow", {{"inertia", {5, 5.000001, 1}}}), Invariant::axial_momentum,
                            "axial_momentum_err"));
  const auto body = make("coulomb_wall", "krysl2006");
  CHECK(body->invariants().size() == 2);
  CHECK(has_invariant(*body, Invariant::vertical_momentum, "vertical_momentum_err"));
  CHECK(has_invariant(*make("coulomb_wall", "krysl2006", {{"inertia", {2, 2, 3}}}), Invariant::axial_momentum,
                      "axial_momentum_err"));
}

TEST_CASE("torque problems: time scales from the spin and the potential's stiffness", "[torque_problems]") {
  CHECK(make("lagrange_top", "slow")->time_scale() == Approx(0.2));
  CHECK(make("lagrange_top", "fast")->time_scale() == Approx(0.02));
  CHECK(make("coulomb_wall", "krysl2006")->time_scale() == Approx(1 / Vec3(1, 2.0 / 3, 2 / 4.5).norm()));
  // A top released from rest: the pendulum scale sqrt(min I / |dT/deta|) = sqrt(1 / 20).
  CHECK(make("lagrange_top", "slow", {{"Pi0", {0, 0, 0}}})->time_scale() == Approx(std::sqrt(1 / 20.0)));
}

TEST_CASE("torque problems: overrides set the parameters", "[torque_problems]") {
  const auto top = make("lagrange_top", "fast", {{"inertia", {4, 4, 2}}, {"weight", -3}, {"psi0", {0, 0.2, 0}},
                                                 {"Omega0", {0, 0, 10}}});
  CHECK(top->model().inertia() == Vec3(4, 4, 2));
  CHECK(top->initial_state().Pi == Vec3(0, 0, 20));
  CHECK(top->initial_state().R(0, 2) == Approx(std::sin(0.2)));
  CHECK(top->model().potential_energy(Mat3::Identity()) == -3);
  CHECK(top->parameters()["potential"]["weight"] == -3);
  const auto body = make("coulomb_wall", "krysl2006", {{"k", 2}, {"eps", 0}, {"offset", 3},
                                                       {"R0", {0, -1, 0, 1, 0, 0, 0, 0, 1}}, {"pi0", {1, 0, 0}}});
  CHECK(body->initial_state().Pi.isApprox(Vec3(0, -1, 0)));  // Pi0 = R0^T pi0
  CHECK(body->model().potential_energy(Mat3::Identity()) == Approx(0.5));
  CHECK(make("coulomb_wall", "flipped", {{"Pi0", {1, 2, 3}}})->initial_state().Pi == Vec3(1, 2, 3));
}

TEST_CASE("torque problems: bad input throws InputError with a clear message", "[torque_problems]") {
  auto message = [](auto&& f) {
    try {
      f();
    } catch (const gib::InputError& e) {
      return std::string(e.what());
    }
    return std::string("no InputError");
  };
  auto contains = [](const std::string& s, const std::string& part) {
    INFO(s);
    CHECK(s.find(part) != std::string::npos);
    CHECK(s.find('\n') == std::string::npos);
  };
  contains(message([&] { make("lagrange_top", "slow", {{"inertia", {1, 1, 3}}}); }), "I3 exceeds the sum");
  contains(message([&] { make("coulomb_wall", "krysl2006", {{"inertia", {5, 1, 1}}}); }), "I1 exceeds the sum");
  contains(message([&] { make("lagrange_top", "slow", {{"inertia", {1, 0, 1}}}); }), "positive");
  contains(message([&] { make("lagrange_top", "slow", {{"inertia", {1, -1, 1}}}); }), "positive");
  contains(message([&] { make("lagrange_top", "slow", {{"weight", NAN}}); }), "finite");
  contains(message([&] { make("lagrange_top", "slow", {{"psi0", {0, "x", 0}}}); }), "psi0[1]");
  contains(message([&] { make("lagrange_top", "slow", {{"psi0", {0, 0, 0}}, {"R0", {1, 0, 0, 0, 1, 0, 0, 0, 1}}}); }),
           "at most one");
  contains(message([&] { make("lagrange_top", "slow", {{"Pi0", {0, 0, 1}}, {"Omega0", {0, 0, 1}}}); }), "at most one");
  contains(message([&] { make("lagrange_top", "slow", {{"mass", 1}}); }), "unknown parameter 'mass'");
  contains(message([&] { make("lagrange_top", "medium"); }), "unknown preset 'medium' for problem lagrange_top");
  contains(message([&] { make("coulomb_wall", "coulomb_wall_flipped"); }), "valid: krysl2006 flipped");
  contains(message([&] { make("coulomb_wall", "krysl2006", {{"offset", 1}}); }), "offset must be > 1");
  contains(message([&] { make("coulomb_wall", "krysl2006", {{"offset", 0.5}}); }), "offset must be > 1");
  contains(message([&] { make("coulomb_wall", "krysl2006", {{"eps", -1e-3}}); }), "eps");
  contains(message([&] { make("coulomb_wall", "krysl2006", {{"k", NAN}}); }), "finite");
  contains(message([&] { make("coulomb_wall", "krysl2006", {{"pi0", {1, 1, 1}}, {"Pi0", {1, 1, 1}}}); }), "at most one");
  contains(message([&] { make("coulomb_wall", "krysl2006", Json::object(), "random:0"); }), "random:K");
  contains(message([&] { make("lagrange_top", "fast", Json::object(), "gaussian"); }), "random:K");
}

TEST_CASE("torque problems: random initial conditions are seeded and physical", "[torque_problems]") {
  for (const std::string problem : {"lagrange_top", "coulomb_wall"}) {
    const std::string preset = problem == "lagrange_top" ? "fast" : "krysl2006";
    const auto a = make(problem, preset, Json::object(), "random:1");
    const auto b = make(problem, preset, Json::object(), "random:1");
    const auto c = make(problem, preset, Json::object(), "random:2");
    CHECK(a->initial_state().R == b->initial_state().R);
    CHECK(a->initial_state().Pi == b->initial_state().Pi);
    CHECK(a->initial_state().Pi != c->initial_state().Pi);
    CHECK(a->initial_state().Pi.norm() == Approx(make(problem, preset)->initial_state().Pi.norm()));
    CHECK(gib::so3::orthogonality_defect(a->initial_state().R) < 1e-14);
    CHECK(a->parameter_hash() != c->parameter_hash());
  }
  // The Coulomb body's random starts are above the barrier R33* = 0.01^(1/9) - 1.1 (and, for the printed
  // sign, certain to stay there); the top's are the free body's draws.
  const double barrier = std::pow(0.01, 1.0 / 9) - 1.1;
  for (int k = 1; k <= 10; ++k)
    for (const char* preset : {"krysl2006", "flipped"})
      CHECK(make("coulomb_wall", preset, Json::object(), "random:" + std::to_string(k))->initial_state().R(2, 2) > barrier);
  const Mat3 R_top = make("lagrange_top", "slow", Json::object(), "random:3")->initial_state().R;
  const Json R_free = gib::find_problem("free_rigid_body").make("krysl2006", Json::object(), "random:3")->parameters()["R0"];
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) CHECK(R_top(i, j) == R_free[3 * i + j].get<double>());
}

TEST_CASE("torque-free-only methods are incompatible with the torque problems everywhere the registry is read",
          "[torque_problems]") {
  const auto& top = gib::find_problem("lagrange_top");
  const auto& coulomb = gib::find_problem("coulomb_wall");
  const auto& free_body = gib::find_problem("free_rigid_body");
  CHECK_FALSE(top.torque_free);
  CHECK_FALSE(coulomb.torque_free);
  CHECK(free_body.torque_free);
  int torque_free_only = 0;
  for (const auto& m : gib::method_registry()) {
    if (!m.supports(gib::ModelKind::rigid_body)) continue;
    INFO(m.id);
    CHECK(gib::compatible(m, free_body));
    CHECK(gib::compatible(m, top) == !m.torque_free_only);
    CHECK(gib::compatible(m, coulomb) == !m.torque_free_only);
    torque_free_only += m.torque_free_only;
  }
  CHECK(torque_free_only > 0);  // Buss's Taylor methods and the free-rotor splittings
  CHECK_FALSE(gib::compatible(gib::find_method("buss3"), top));
  CHECK_FALSE(gib::compatible(gib::find_method("mr2"), coulomb));
  CHECK(gib::compatible(gib::find_method("dlm2"), top));
  CHECK(gib::compatible(gib::find_method("imidm"), coulomb));
}

}  // namespace gibench_test_torque_problems
