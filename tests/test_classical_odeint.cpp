// Tests of the Boost.Odeint baseline methods (methods/classical/odeint_embedded.cpp).
// Every expected value comes from outside the code under test: stage counts from the Butcher tableaux,
// exact solutions (sphere), a long double RK4 reference written here, or energy conservation.
#include <array>
#include <catch2/catch.hpp>
#include <cmath>
#include <iomanip>
#include <memory>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/method.hpp"
#include "core/model.hpp"
#include "core/so3.hpp"
#include "problems/free_rigid_body/exact_solution.hpp"
#include "support/heavy_top.hpp"

namespace gibench_test_classical_odeint {

namespace {

using gib::Json;
using gib::Mat3;
using gib::OpCounters;
using gib::RigidBodyModel;
using gib::RigidBodyState;
using gib::Vec3;

struct SchemeCase {
  const char* stem;  // method id without the embedding suffix
  int order;
  int rhs_per_step;        // stages of the tableau
  int rhs_first_step;      // dopri5 computes the FSAL derivative once more at the start
};

const std::vector<SchemeCase>& schemes() {
  static const std::vector<SchemeCase> s = {
      {"odeint_euler", 1, 1, 1},
      {"odeint_rk4", 4, 4, 4},
      {"odeint_dopri5", 5, 6, 7},
      {"odeint_rkf78", 8, 13, 13},
  };
  return s;
}

const char* const kEmbeddings[] = {"_matrix", "_quat"};

std::unique_ptr<gib::RigidBodyStepper> make(const std::string& id, const RigidBodyModel& model) {
  const gib::MethodInfo& m = gib::find_method(id);
  REQUIRE(m.supports(gib::ModelKind::rigid_body));
  return m.rigid_body(model, m.default_params);
}

// An asymmetric body away from the separatrix, with a non-trivial initial attitude.
RigidBodyModel free_body() { return RigidBodyModel(Vec3(1.0, 1.88, 2.88)); }
RigidBodyState initial_state() {
  RigidBodyState x;
  x.R = gib::so3::exp(Vec3(0.3, -0.5, 0.7));
  x.Pi = Vec3(0.6, -0.7, 0.4);  // |omega| ~ 0.7
  return x;
}

RigidBodyState run(gib::RigidBodyStepper& s, RigidBodyState x, double h, int n, OpCounters& c) {
  for (int i = 0; i < n; ++i) s.step(x, h, c);
  return x;
}

double state_distance(const RigidBodyState& a, const RigidBodyState& b) {
  return std::max((a.R - b.R).norm(), (a.Pi - b.Pi).norm());
}

// Least-squares slope of log(err) against log(h).
double fitted_slope(const std::vector<double>& h, const std::vector<double>& err) {
  const double n = static_cast<double>(h.size());
  double sx = 0, sy = 0, sxx = 0, sxy = 0;
  for (std::size_t i = 0; i < h.size(); ++i) {
    const double lx = std::log(h[i]), ly = std::log(err[i]);
    sx += lx;
    sy += ly;
    sxx += lx * lx;
    sxy += lx * ly;
  }
  return (n * sxy - sx * sy) / (n * sxx - sx * sx);
}

using TestHeavyTop = gib::test::HeavyTop;

// Reference: classical RK4 in long double on the matrix form Rdot = R hat(omega), Pidot = Pi x omega + T,
// written independently of the code under test. torque_c = 0 is the free body; otherwise the heavy top.
RigidBodyState reference_solution(const Vec3& inertia, const RigidBodyState& x0, double T, int n,
                                  long double torque_c = 0.0L) {
  using LD = long double;
  using M = gib::so3::Mat3T<LD>;
  using V = gib::so3::Vec3T<LD>;
  const V inv(1.0L / LD(inertia(0)), 1.0L / LD(inertia(1)), 1.0L / LD(inertia(2)));
  struct Y {
    M R;
    V Pi;
  };
  auto f = [&](const Y& y) {
    const V w = inv.cwiseProduct(y.Pi);
    Y d;
    d.R = y.R * gib::so3::hat<LD>(w);
    d.Pi = y.Pi.cross(w) + torque_c * V(y.R(2, 1), -y.R(2, 0), 0.0L);
    return d;
  };
  auto axpy = [](const Y& y, LD a, const Y& k) { return Y{y.R + a * k.R, y.Pi + a * k.Pi}; };
  Y y{x0.R.cast<LD>(), x0.Pi.cast<LD>()};
  const LD h = LD(T) / LD(n);
  for (int i = 0; i < n; ++i) {
    const Y k1 = f(y);
    const Y k2 = f(axpy(y, h / 2, k1));
    const Y k3 = f(axpy(y, h / 2, k2));
    const Y k4 = f(axpy(y, h, k3));
    y.R += (h / 6) * (k1.R + 2 * k2.R + 2 * k3.R + k4.R);
    y.Pi += (h / 6) * (k1.Pi + 2 * k2.Pi + 2 * k3.Pi + k4.Pi);
  }
  return {y.R.cast<double>(), y.Pi.cast<double>()};
}

}  // namespace

TEST_CASE("odeint methods: registry metadata", "[classical]") {
  for (const auto& s : schemes())
    for (const char* e : kEmbeddings) {
      const std::string id = std::string(s.stem) + e;
      INFO(id);
      const gib::MethodInfo& m = gib::find_method(id);
      CHECK(m.family == "classical");
      CHECK(m.claims.order == s.order);
      CHECK_FALSE(m.claims.implicit);
      CHECK_FALSE(m.claims.symmetric);
      CHECK_FALSE(m.claims.symplectic);
      CHECK_FALSE(m.claims.stays_on_group);
      // The matrix embedding also runs rigid particles (tests/test_particle_methods.cpp), where it keeps sum p_i:
      // its only claim; the quaternion embedding is rigid-body only and claims nothing.
      const bool matrix = std::string(e) == "_matrix";
      if (matrix) {
        REQUIRE(m.claims.invariants.size() == 1);
        CHECK(m.claims.invariants[0].invariant == gib::Invariant::linear_momentum);
      } else {
        CHECK(m.claims.invariants.empty());
      }
      CHECK(*m.default_params == Json::object());
      CHECK(m.citation.find("Boost.Odeint") != std::string::npos);
      CHECK(m.supports(gib::ModelKind::rigid_body));
      CHECK(m.supports(gib::ModelKind::rigid_particles) == matrix);
      CHECK_FALSE(m.supports(gib::ModelKind::newtonian));
      CHECK(m.display_name.find(std::string(e) == "_quat" ? "(quaternion)" : "(matrix)") != std::string::npos);
    }
}

TEST_CASE("odeint methods: RHS evaluations per step (FSAL counted honestly)", "[classical]") {
  const RigidBodyModel free = free_body();
  const RigidBodyModel top(Vec3(1.0, 1.88, 2.88), std::make_shared<TestHeavyTop>(0.5));
  for (const auto& s : schemes())
    for (const char* e : kEmbeddings)
      for (const RigidBodyModel* model : {&free, &top}) {
        const std::string id = std::string(s.stem) + e;
        INFO(id << (model->torque_free() ? " free" : " heavy top"));
        auto st = make(id, *model);
        OpCounters c;
        RigidBodyState x = initial_state();
        st->step(x, 0.01, c);
        CHECK(c.rhs_evals == s.rhs_first_step);
        for (int i = 0; i < 10; ++i) st->step(x, 0.01, c);
        CHECK(c.rhs_evals == s.rhs_first_step + 10 * s.rhs_per_step);
        CHECK(c.force_evals == (model->torque_free() ? 0 : c.rhs_evals));
        CHECK(c.exp_evals == 0);
        CHECK(c.log_evals == 0);
        CHECK(c.cayley_evals == 0);

        // reset(): the next step starts afresh (dopri5 recomputes its first derivative).
        st->reset();
        OpCounters c2;
        st->step(x, 0.01, c2);
        CHECK(c2.rhs_evals == s.rhs_first_step);

        // A state the stepper did not produce (the caller edited it) also restarts the FSAL chain.
        x.Pi *= 1.01;
        OpCounters c3;
        st->step(x, 0.01, c3);
        st->step(x, 0.01, c3);
        CHECK(c3.rhs_evals == s.rhs_first_step + s.rhs_per_step);
      }
}

TEST_CASE("odeint methods: FSAL derivative belongs to the state being stepped", "[classical]") {
  // A run interrupted by an edited state must equal a fresh stepper started from the edited state: a
  // stale first-same-as-last derivative (or a stale internal quaternion) would make them differ.
  const RigidBodyModel model = free_body();
  for (const char* e : kEmbeddings) {
    const std::string id = std::string("odeint_dopri5") + e;
    INFO(id);
    auto a = make(id, model);
    auto b = make(id, model);
    OpCounters c;
    RigidBodyState xa = run(*a, initial_state(), 0.05, 5, c);
    xa.Pi = Vec3(-0.2, 0.9, 0.3);
    xa.R = gib::so3::exp(Vec3(-0.4, 0.1, 0.2));
    RigidBodyState xb = xa;
    xa = run(*a, xa, 0.05, 7, c);
    xb = run(*b, xb, 0.05, 7, c);
    CHECK(state_distance(xa, xb) == 0.0);
  }
}

TEST_CASE("odeint methods: body-frame convention against the exact spherical-top rotation", "[classical]") {
  // For a sphere omega = Pi / I is constant and R(t) = R0 exp(t omega) exactly. A space-frame
  // quaternion convention (q' = (0, omega) (x) q / 2) would give exp(t omega) R0 instead.
  const double I = 1.3;
  const RigidBodyModel sphere(Vec3(I, I, I));
  RigidBodyState x0 = initial_state();
  x0.Pi = Vec3(0.9, -0.4, 1.1);
  const double T = 2.0;
  const int n = 40;
  const Mat3 exact = x0.R * gib::so3::exp<double>(T * x0.Pi / I);
  REQUIRE((exact - gib::so3::exp<double>(T * x0.Pi / I) * x0.R).norm() > 0.5);  // the test can tell them apart
  for (const char* e : kEmbeddings) {
    const std::string id = std::string("odeint_rkf78") + e;
    INFO(id);
    auto st = make(id, sphere);
    OpCounters c;
    const RigidBodyState x = run(*st, x0, T / n, n, c);
    CHECK((x.R - exact).norm() < 1e-11);
    CHECK((x.Pi - x0.Pi).norm() < 1e-15);
  }
}

TEST_CASE("odeint methods: quaternion and matrix embeddings agree", "[classical]") {
  // The two embeddings are different ODEs for the same flow: their numerical solutions differ by
  // O(h^p). At a step where h^p is tiny they agree to ~1e-12; halving h shrinks the gap by ~2^p.
  const RigidBodyModel model = free_body();
  const RigidBodyState x0 = initial_state();
  struct Case {
    const char* stem;
    int order;
    double h;      // small step
    double T;
    double tol;    // agreement at h
  };
  const Case cases[] = {
      {"odeint_euler", 1, 1e-4, 1.0, 1e-4},  // Euler only agrees to O(h)
      {"odeint_rk4", 4, 2e-3, 2.0, 1e-12},
      {"odeint_dopri5", 5, 5e-3, 2.0, 1e-12},
      {"odeint_rkf78", 8, 2e-2, 2.0, 1e-12},
  };
  for (const auto& k : cases) {
    INFO(k.stem);
    auto gap = [&](double h) {
      const int n = static_cast<int>(std::lround(k.T / h));
      auto m = make(std::string(k.stem) + "_matrix", model);
      auto q = make(std::string(k.stem) + "_quat", model);
      OpCounters c;
      const RigidBodyState xm = run(*m, x0, h, n, c);
      const RigidBodyState xq = run(*q, x0, h, n, c);
      CHECK(xm.Pi == xq.Pi);  // the free-body Pi equation does not see R: bit-identical
      return (xm.R - xq.R).norm();
    };
    const double g = gap(k.h);
    CHECK(g < k.tol);
    // Scaling with h (at a coarser step, where the gap is well above round-off).
    const double hc = k.order == 1 ? 1e-2 : (k.order == 8 ? 0.5 : 0.05);
    const double g1 = gap(hc), g2 = gap(hc / 2);
    INFO("gap(" << hc << ") = " << g1 << ", gap(" << hc / 2 << ") = " << g2 << ", gap(" << k.h << ") = " << g);
    CHECK(std::log2(g1 / g2) == Approx(k.order).margin(0.5));
    CHECK(g1 > 1e-13);
  }
}

TEST_CASE("odeint methods: nothing renormalises", "[classical]") {
  const RigidBodyModel model = free_body();
  const RigidBodyState x0 = initial_state();
  auto defect = [](const RigidBodyState& x) { return gib::so3::orthogonality_defect(x.R); };

  SECTION("Euler leaves SO(3) visibly and the defect grows") {
    for (const char* e : kEmbeddings) {
      INFO(e);
      auto st = make(std::string("odeint_euler") + e, model);
      OpCounters c;
      RigidBodyState x = x0;
      x = run(*st, x, 0.1, 10, c);
      const double d10 = defect(x);
      x = run(*st, x, 0.1, 90, c);
      const double d100 = defect(x);
      x = run(*st, x, 0.1, 900, c);
      const double d1000 = defect(x);
      INFO(d10 << " " << d100 << " " << d1000);
      CHECK(d10 > 1e-3);
      CHECK(d100 > 2 * d10);
      CHECK(d1000 > 2 * d100);
      CHECK(d1000 > 0.5);
      // Explicit Euler also inflates |Pi| for the free body: |Pi_{n+1}|^2 = |Pi_n|^2 + h^2 |Pi x omega|^2.
      CHECK(x.Pi.norm() > x0.Pi.norm() * (1 + 1e-3));
    }
  }

  SECTION("RK4 quaternion: |q| drifts (R(q) = |q|^2 times a rotation)") {
    auto st = make("odeint_rk4_quat", model);
    OpCounters c;
    const RigidBodyState x = run(*st, x0, 0.25, 4000, c);
    // For a quaternion drifted to norm s, R^T R = s^4 I; recover s^2 from the trace.
    const double q2 = std::sqrt((x.R.transpose() * x.R).trace() / 3.0);
    const double d = defect(x);
    INFO("|q|^2 - 1 = " << q2 - 1 << ", defect = " << d);
    CHECK(std::abs(q2 - 1) > 1e-9);
    CHECK(q2 < 1);  // RK4's stability function has |R(iy)| < 1 for small y: q shrinks
    CHECK(d > 1e-9);
    // The drift is a pure scaling: R / |q|^2 is still a rotation to round-off.
    CHECK(gib::so3::orthogonality_defect<double>(x.R / q2) < 1e-12);
  }

  SECTION("RK4 matrix: R^T R - I drifts") {
    auto st = make("odeint_rk4_matrix", model);
    OpCounters c;
    const RigidBodyState x = run(*st, x0, 0.25, 4000, c);
    INFO(defect(x));
    CHECK(defect(x) > 1e-9);
  }
}

TEST_CASE("odeint methods: observed order on the free rigid body", "[classical]") {
  const Vec3 inertia(1.0, 1.88, 2.88);
  const RigidBodyModel model(inertia);
  const RigidBodyState x0 = initial_state();
  // |omega| ~ 0.72, so T = 8 is about one revolution. Step ranges: errors between ~1e-2 and ~1e-11,
  // in the asymptotic regime (checked by the fit) and far above round-off and the reference error.
  const double T = 8.0;
  const RigidBodyState ref = reference_solution(inertia, x0, T, 80000);
  // Cross-check the reference against the elliptic-function solution when that is available (it is
  // written in parallel; a placeholder throws std::logic_error, and then only the long double RK4
  // reference is used).
  try {
    const gib::free_rigid_body::ExactSolution exact(inertia, x0);
    const RigidBodyState xe = exact.state(T);
    INFO("long double RK4 reference vs exact solution at T = " << T);
    CHECK(state_distance(xe, ref) < 1e-12);
  } catch (const std::logic_error& e) {
    WARN("exact solution unavailable (" << e.what() << "): using the long double RK4 reference alone");
  }
  struct Case {
    const char* stem;
    int order;
    std::vector<int> steps;
  };
  const Case cases[] = {
      {"odeint_euler", 1, {800, 1600, 3200, 6400}},    // h = 0.01 .. 0.00125
      {"odeint_rk4", 4, {40, 80, 160, 320}},           // h = 0.2 .. 0.025
      {"odeint_dopri5", 5, {20, 40, 80, 160}},         // h = 0.4 .. 0.05
      {"odeint_rkf78", 8, {8, 10, 12, 16}},            // h = 1 .. 0.5
  };
  for (const auto& k : cases)
    for (const char* e : kEmbeddings) {
      const std::string id = std::string(k.stem) + e;
      std::vector<double> hs, errs;
      std::ostringstream log;
      log << std::setprecision(3);
      for (int n : k.steps) {
        auto st = make(id, model);
        OpCounters c;
        const double h = T / n;
        const RigidBodyState x = run(*st, x0, h, n, c);
        hs.push_back(h);
        errs.push_back(state_distance(x, ref));
        log << " h=" << h << " err=" << errs.back();
      }
      const double slope = fitted_slope(hs, errs);
      INFO(id << " slope " << slope << log.str());
      CHECK(slope == Approx(k.order).margin(0.3));
      CHECK(errs.back() > 1e-12);  // above round-off and the reference's own error
    }
}

TEST_CASE("odeint methods: heavy top (torque handling)", "[classical]") {
  const Vec3 inertia(1.0, 1.88, 2.88);
  const double cpot = 0.5;
  const RigidBodyModel model(inertia, std::make_shared<TestHeavyTop>(cpot));
  const RigidBodyState x0 = initial_state();
  const double T = 3.0;
  const double E0 = model.energy(x0);
  const RigidBodyState ref = reference_solution(inertia, x0, T, 30000, cpot);
  // The torque matters over this interval (a free-body run ends far from the heavy-top reference).
  REQUIRE(state_distance(reference_solution(inertia, x0, T, 3000), ref) > 0.05);
  struct Case {
    const char* stem;
    int order;
    std::vector<int> steps;
  };
  const Case cases[] = {
      {"odeint_euler", 1, {1500, 3000, 6000, 12000}},
      {"odeint_rk4", 4, {30, 60, 120, 240}},
      {"odeint_dopri5", 5, {20, 40, 80, 160}},
      {"odeint_rkf78", 8, {4, 6, 8, 12}},
  };
  for (const auto& k : cases)
    for (const char* e : kEmbeddings) {
      const std::string id = std::string(k.stem) + e;
      std::vector<double> hs, energy, state;
      std::ostringstream log;
      log << std::setprecision(3);
      OpCounters c;
      for (int n : k.steps) {
        // Max relative energy error along the run, and the final state error against the reference.
        auto st = make(id, model);
        RigidBodyState x = x0;
        double emax = 0;
        for (int i = 0; i < n; ++i) {
          st->step(x, T / n, c);
          emax = std::max(emax, std::abs(model.energy(x) - E0) / std::abs(E0));
        }
        hs.push_back(T / n);
        energy.push_back(emax);
        state.push_back(state_distance(x, ref));
        log << " h=" << T / n << " dE=" << emax << " err=" << state.back();
      }
      const double energy_slope = fitted_slope(hs, energy);
      const double state_slope = fitted_slope(hs, state);
      INFO(id << ": energy slope " << energy_slope << ", state slope " << state_slope << log.str());
      CHECK(c.force_evals == c.rhs_evals);
      CHECK(c.force_evals > 0);
      CHECK(energy.back() > 5e-14);  // above round-off (~1e-15 here), so the slope means something
      CHECK(energy.back() < (k.order == 1 ? 1e-3 : 1e-9));
      // The energy error is O(h^p), but its leading coefficient is small for some scheme/embedding pairs
      // (dopri5 quaternion shows local rates from 3.6 to 7.5 over this range), so only a lower bound is
      // fair for the energy. The state error against the reference shows the order itself.
      CHECK(energy_slope > k.order - 0.75);
      CHECK(state_slope == Approx(k.order).margin(0.4));
    }
}

}  // namespace gibench_test_classical_odeint
