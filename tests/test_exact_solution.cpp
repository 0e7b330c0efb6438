// The exact free-rigid-body solution against things it does not compute itself: the Euler equations
// (finite differences), the invariants, an independent long double RKF78 integration, a 50-digit RKF78
// integration near the separatrix, quadrature for the elliptic integrals, Boost's Jacobi functions and
// an independent prototype's values.
#include <boost/math/quadrature/gauss_kronrod.hpp>
#include <boost/math/special_functions/ellint_1.hpp>
#include <boost/math/special_functions/ellint_3.hpp>
#include <boost/math/special_functions/ellint_rf.hpp>
#include <boost/math/special_functions/jacobi_elliptic.hpp>
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdio>
#include <numbers>
#include <string>
#include <type_traits>
#include <vector>

#include "core/random.hpp"
#include "problems/free_rigid_body/exact_solution.hpp"
#include "problems/free_rigid_body/exact_validation.hpp"

namespace gibench_test_exact_solution {

namespace {

using namespace gib;
using namespace gib::free_rigid_body;
using LD = long double;

struct Case {
  std::string name;
  Vec3 inertia;
  RigidBodyState x0;
  double horizon = 100;  // how far a 50-digit integration stays a reference on the separatrix
};

Case make_case(std::string name, const Vec3& inertia, const Vec3& pi, std::uint64_t seed) {
  random::Stream rng(seed);
  RigidBodyState x;
  x.R = rng.rotation();
  x.Pi = pi;
  return {std::move(name), inertia, x};
}

double omega_bound(const Case& c) { return c.x0.Pi.norm() / c.inertia.minCoeff(); }

// RKF78 step: 0.05 rad of the fastest rotation. Halving it changes the long double result by < 1e-13
// at t = 1000 (rounding-dominated), see "step halving" below.
double rk_step(const Case& c) { return 0.05 / omega_bound(c); }

Case random_case(std::uint64_t seed) {
  random::Stream rng(seed);
  const Vec3 inertia(rng.uniform(0.3, 3.0), rng.uniform(0.3, 3.0), rng.uniform(0.3, 3.0));
  RigidBodyState x;
  x.R = rng.rotation();
  x.Pi = rng.normal3();
  return {"random seed " + std::to_string(seed), inertia, x};
}

Vec3 permuted(const Vec3& v, const std::array<int, 3>& p) { return {v(p[0]), v(p[1]), v(p[2])}; }

// Every regime away from the separatrix: the long double integration resolves these to t = 1000.
std::vector<Case> regime_cases() {
  std::vector<Case> cases;
  const Vec3 inertia(1.0, 2.0, 3.5);
  const Vec3 about_largest(0.7, -0.4, 0.9), about_smallest(1.2, -0.4, 0.3);
  const std::array<std::array<int, 3>, 6> perms{{{0, 1, 2}, {0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0}}};
  for (const auto& p : perms) {
    const std::string tag = std::to_string(p[0]) + std::to_string(p[1]) + std::to_string(p[2]);
    cases.push_back(make_case("order " + tag + " D<0", permuted(inertia, p), permuted(about_largest, p), 11));
    cases.push_back(make_case("order " + tag + " D>0", permuted(inertia, p), permuted(about_smallest, p), 12));
  }
  cases.push_back(make_case("oblate I1=I2<I3", {1.5, 1.5, 2.5}, about_largest, 13));
  cases.push_back(make_case("prolate I1<I2=I3", {1.5, 2.5, 2.5}, about_largest, 14));
  cases.push_back(make_case("symmetric I1=I3>I2", {2.5, 1.5, 2.5}, about_largest, 15));
  cases.push_back(make_case("near-symmetric I3-I2=1e-6", {1.0, 2.0, 2.000001}, about_smallest, 16));
  cases.push_back(make_case("near-symmetric I2-I1=1e-6", {1.0, 1.000001, 2.0}, about_largest, 17));
  cases.push_back(make_case("sphere", {2.0, 2.0, 2.0}, about_largest, 18));
  cases.push_back(make_case("symmetric-plane equilibrium", {1.5, 1.5, 2.5}, {0.6, -0.8, 0.0}, 19));
  for (int axis : {0, 2}) {
    Vec3 e = Vec3::Zero();
    e(axis) = 1.3;
    const std::string a = std::to_string(axis + 1);
    cases.push_back(make_case("about axis " + a, inertia, e, 20));
    cases.push_back(make_case("axis " + a + " + 1e-9", inertia, e + Vec3(1e-9, -2e-9, 1.5e-9), 21));
  }
  cases.push_back(make_case("about middle axis", inertia, {0.0, 1.3, 0.0}, 22));
  return cases;
}

// Pi = (1, 4, 1 + delta) on I = (2, 3, 6): D = -(delta + delta^2/2) and k'^2 ~ 0.22 delta.
Case near_separatrix_case(double kc, int side, std::uint64_t seed) {
  char name[64];
  std::snprintf(name, sizeof name, "k' ~ %g, D %s 0", kc, side > 0 ? "<" : ">");
  return make_case(name, {2.0, 3.0, 6.0}, {1.0, 4.0, 1.0 + side * 4.5 * kc * kc}, seed);
}

// On the separatrix, Pi(t) tends to the saddle and any rounding error of an integration grows like
// exp(lambda t): with lambda = 0.9 the 50-digit integration's own step-halving difference reaches 1e-18
// at t = 85 and 8e-13 at t = 100, while the exact solution stays within 1e-16 of it up to t = 85.
Case with_horizon(Case c, double horizon) {
  c.horizon = horizon;
  return c;
}

// Exactly on the separatrix (D == 0 in binary), and the middle axis perturbed by 1e-9 (k' ~ 1.6e-10).
std::vector<Case> separatrix_cases() {
  return {make_case("separatrix I=(2,3,6) Pi=(1,1,1)", {2.0, 3.0, 6.0}, {1.0, 1.0, 1.0}, 31),
          with_horizon(make_case("separatrix I=(1,2.5,4) Pi=(1,-2,-2)", {1.0, 2.5, 4.0}, {1.0, -2.0, -2.0}, 32), 80),
          make_case("separatrix I=(6,3,2) Pi=(-1,0.3,1)", {6.0, 3.0, 2.0}, {-1.0, 0.3, 1.0}, 33),
          make_case("middle axis + 1e-9", {1.0, 2.0, 3.5}, Vec3(0.0, 1.3, 0.0) + Vec3(1e-9, -2e-9, 1.5e-9), 34)};
}

std::vector<Case> all_cases() {
  std::vector<Case> cases = regime_cases();
  for (const auto& c : separatrix_cases()) cases.push_back(c);
  cases.push_back(near_separatrix_case(1e-4, 1, 35));
  for (std::uint64_t seed = 1; seed <= 3; ++seed) cases.push_back(random_case(seed));
  return cases;
}

std::vector<double> uniform_times(double t_end, int n) {
  std::vector<double> times;
  for (int i = 1; i <= n; ++i) times.push_back(t_end * i / n);
  return times;
}

// Five-point central difference, error O(d^4). (An explicit return type: `auto` would return an Eigen
// expression referring to destroyed temporaries.)
template <class F> std::invoke_result_t<F, double> derivative(F f, double t, double d) {
  return (f(t - 2 * d) - 8 * f(t - d) + 8 * f(t + d) - f(t + 2 * d)) / (12 * d);
}

void check_euler_equations(const Case& c) {
  INFO(c.name);
  const ExactSolution exact(c.inertia, c.x0);
  // A power of two, so that t +- d is exact (an error of ulp(t) in the step is 1e-10 relative at t = 613).
  const double w = omega_bound(c), d = std::ldexp(1.0, std::ilogb(1e-3 / w)), mu = c.x0.Pi.norm();
  for (double t : {0.0, 0.37, 5.3, 77.7, 613.1}) {
    INFO("t = " << t);
    const RigidBodyState x = exact.state(t);
    const Vec3 omega = x.Pi.cwiseQuotient(c.inertia);
    const Vec3 pi_dot = derivative([&](double s) -> Vec3 { return exact.state(s).Pi; }, t, d);
    const Mat3 r_dot = derivative([&](double s) -> Mat3 { return exact.state(s).R; }, t, d);
    CHECK((pi_dot - x.Pi.cross(omega)).norm() <= 1e-10 * mu * w);
    CHECK((x.R.transpose() * r_dot - so3::hat(omega)).norm() <= 1e-10 * w);
  }
}

void check_invariants(const Case& c) {
  INFO(c.name);
  const ExactSolution exact(c.inertia, c.x0);
  const double mu = c.x0.Pi.norm();
  const double energy = c.x0.Pi.dot(c.x0.Pi.cwiseQuotient(c.inertia));
  const Vec3 spatial = c.x0.R * c.x0.Pi;
  double worst = 0;
  for (double t : uniform_times(1000.0, 64)) {
    const RigidBodyState x = exact.state(t);
    worst = std::max(worst, std::abs(x.Pi.norm() - mu) / mu);
    worst = std::max(worst, std::abs(x.Pi.dot(x.Pi.cwiseQuotient(c.inertia)) - energy) / energy);
    worst = std::max(worst, (x.R * x.Pi - spatial).norm() / mu);
    worst = std::max(worst, so3::orthogonality_defect(x.R));
  }
  CHECK(worst <= 1e-14);
}

StateDistance agreement(const Case& c, double t_end, int samples) {
  const ExactSolution exact(c.inertia, c.x0);
  return compare_with_numerical(exact, c.inertia, c.x0, uniform_times(t_end, samples), rk_step(c));
}

}  // namespace

TEST_CASE("Boost's elliptic integral of the third kind uses 1 - n sin^2, as the exact solution needs", "[exact]") {
  using boost::math::quadrature::gauss_kronrod;
  for (LD k : {0.3L, 0.9L}) {
    for (LD n : {-2.5L, -0.3L, 0.4L}) {
      for (LD phi : {0.4L, 1.2L, std::numbers::pi_v<LD> / 2}) {
        auto integrand = [&](LD th) {
          const LD s = std::sin(th);
          return 1 / ((1 - n * s * s) * std::sqrt(1 - k * k * s * s));
        };
        const LD quadrature = gauss_kronrod<LD, 61>::integrate(integrand, 0.0L, phi, 15, 1e-19L);
        INFO("k = " << double(k) << " n = " << double(n) << " phi = " << double(phi));
        CHECK(std::abs(boost::math::ellint_3(k, n, phi) - quadrature) <= 1e-17L * quadrature);
        if (std::abs(n) < 1) CHECK(std::abs(boost::math::ellint_3(k, -n, phi) - quadrature) > 1e-3L * quadrature);
        const LD kc = std::sqrt((1 - k) * (1 + k));
        CHECK(std::abs(elliptic::third_kind(n, phi, kc) - quadrature) <= 1e-17L * quadrature);
      }
    }
  }
}

TEST_CASE("The Landen amplitude agrees with Boost's Jacobi functions and inverts F", "[exact]") {
  for (LD k : {0.2L, 0.7L, 0.95L}) {
    const LD kc = std::sqrt((1 - k) * (1 + k));
    const LD quarter = boost::math::ellint_rf(0.0L, kc * kc, 1.0L);
    for (int i = -30; i <= 30; ++i) {
      const LD u = quarter * i / 10;
      LD cn = 0, dn = 0;
      const LD sn = boost::math::jacobi_elliptic(k, u, &cn, &dn);
      const LD am = elliptic::amplitude(u, k, kc);
      INFO("k = " << double(k) << " u = " << double(u));
      CHECK(std::abs(std::sin(am) - sn) <= 1e-17L);
      CHECK(std::abs(std::cos(am) - cn) <= 1e-17L);
      CHECK(std::abs(boost::math::ellint_1(k, am) - u) <= 1e-17L * (1 + std::abs(u)));
    }
  }
  // Near k = 1 (k' down to 1e-12) sn, cn and dn keep their relative accuracy, so F(am u) = u through
  // Carlson's R_F, which takes cn^2 and dn^2, holds to rounding even where dF/dphi = 1/dn ~ 1/k'.
  for (LD kc : {1e-4L, 1e-8L, 1e-12L}) {
    const LD k = std::sqrt((1 - kc) * (1 + kc));
    const LD quarter = boost::math::ellint_rf(0.0L, kc * kc, 1.0L);
    for (LD fraction : {0.1L, 0.5L, 0.9L, 0.999L, 1.0L}) {
      const LD u = fraction * quarter;
      const elliptic::JacobiFunctions f = elliptic::jacobi_functions(u, k, kc);
      INFO("k' = " << double(kc) << " u/K = " << double(fraction));
      CHECK(std::abs(f.sn * boost::math::ellint_rf(f.cn * f.cn, f.dn * f.dn, 1.0L) - u) <= 1e-17L * quarter);
      CHECK(std::abs(f.dn * f.dn - (f.cn * f.cn + kc * kc * f.sn * f.sn)) <= 4e-19L * f.dn * f.dn);
      CHECK(std::abs(f.sn * f.sn + f.cn * f.cn - 1) <= 4e-19L);
    }
    // cn(K - x) = k' sd(x) relates the two ends of the quarter period.
    for (LD x : {1e-3L, 0.5L, 3.0L}) {
      const elliptic::JacobiFunctions near_k = elliptic::jacobi_functions(quarter - x, k, kc);
      const elliptic::JacobiFunctions at_x = elliptic::jacobi_functions(x, k, kc);
      INFO("k' = " << double(kc) << " x = " << double(x));
      // K - x is rounded to ~eps K / 2, a relative change of ~eps K / (2x) in cn(K - x).
      CHECK(std::abs(near_k.cn / (kc * at_x.sn / at_x.dn) - 1) <= 1e-17L + 1e-19L * quarter / x);
    }
  }
}

TEST_CASE("The exact solution classifies the regimes", "[exact]") {
  const auto regime = [](const Vec3& inertia, const Vec3& pi) {
    RigidBodyState x;
    x.Pi = pi;
    return ExactSolution(inertia, x).regime();
  };
  CHECK(regime({2, 2, 2}, {0.3, -1, 2}) == "steady");
  CHECK(regime({1, 2, 3.5}, {0, 1.3, 0}) == "steady");
  CHECK(regime({1, 2, 3.5}, {0, 0, -1.3}) == "steady");
  CHECK(regime({1.5, 1.5, 2.5}, {0.6, -0.8, 0}) == "steady");
  CHECK(regime({1, 2, 3.5}, {0, 0, 0}) == "steady");
  CHECK(regime({2, 3, 6}, {1, 1, 1}) == "separatrix");
  CHECK(regime({1, 2.5, 4}, {1, -2, -2}) == "separatrix");
  CHECK(regime({2, 3, 6}, {1, 1, std::nextafter(1.0, 2.0)}) == "circulating");
  CHECK(regime({1.5, 1.5, 2.5}, {0.6, -0.8, 1e-300}) == "circulating");

  RigidBodyState x;
  x.Pi = {1, 1, 1};
  const ExactSolution on(Vec3(2, 3, 6), x);
  CHECK(on.separatrix_distance() == 0);
  CHECK(on.modulus() == 1);
  CHECK(std::isinf(on.period()));
  x.Pi = {1, 1, std::nextafter(1.0, 2.0)};
  const ExactSolution below(Vec3(2, 3, 6), x);
  CHECK(below.separatrix_distance() < 0);
  CHECK(below.complementary_modulus() > 0);
  CHECK(below.complementary_modulus() < 1e-7);
  x.Pi = {0.7, -0.4, 0.9};
  const ExactSolution symmetric(Vec3(1.5, 1.5, 2.5), x);
  CHECK(symmetric.modulus() == 0);
  // Symmetric body: Pi precesses about the symmetry axis at (1/I1 - 1/I3) Pi3.
  CHECK(symmetric.period() == Approx(2 * std::numbers::pi / ((1 / 1.5 - 1 / 2.5) * 0.9)).epsilon(1e-14));
}

TEST_CASE("The exact solution satisfies the Euler equations in every regime", "[exact]") {
  for (const Case& c : all_cases()) check_euler_equations(c);
}

TEST_CASE("The exact solution keeps |Pi|, the energy and R Pi to rounding", "[exact]") {
  for (const Case& c : all_cases()) check_invariants(c);
}

TEST_CASE("The exact solution starts at the initial state", "[exact]") {
  for (const Case& c : all_cases()) {
    INFO(c.name);
    const RigidBodyState x = ExactSolution(c.inertia, c.x0).state(0.0);
    CHECK(so3::rotation_angle<double>(c.x0.R.transpose() * x.R) <= 1e-15);
    CHECK((x.Pi - c.x0.Pi).norm() <= 1e-15 * c.x0.Pi.norm());
  }
}

TEST_CASE("The long double RKF78 reference: step halving changes it by less than 1e-13", "[exact]") {
  const Case c = random_case(1);
  const std::vector<double> times = uniform_times(1000.0, 10);
  const auto coarse = integrate_free_body_trajectory(c.inertia, c.x0, times, rk_step(c));
  const auto fine = integrate_free_body_trajectory(c.inertia, c.x0, times, rk_step(c) / 2);
  for (std::size_t i = 0; i < times.size(); ++i) {
    const StateDistance d = distance(fine[i], coarse[i]);
    CHECK(d.rotation <= 1e-13L);
    CHECK(d.momentum <= 1e-13L);
  }
}

TEST_CASE("The exact solution agrees with long double RKF78 to 1e-12 on random bodies up to t = 1000", "[exact]") {
  for (std::uint64_t seed = 1; seed <= 6; ++seed) {
    const Case c = random_case(seed);
    const StateDistance d = agreement(c, 1000.0, 25);
    INFO(c.name << ": rotation " << double(d.rotation) << ", momentum " << double(d.momentum));
    CHECK(d.rotation <= 1e-12L);
    CHECK(d.momentum <= 1e-12L);
  }
}

TEST_CASE("The exact solution agrees with long double RKF78 to 1e-12 in every regime up to t = 1000", "[exact]") {
  for (const Case& c : regime_cases()) {
    const StateDistance d = agreement(c, 1000.0, 25);
    INFO(c.name << ": rotation " << double(d.rotation) << ", momentum " << double(d.momentum));
    CHECK(d.rotation <= 1e-12L);
    CHECK(d.momentum <= 1e-12L);
  }
}

TEST_CASE("Krysl 2006 free body at t = 100 matches an independent prototype", "[exact]") {
  const Vec3 inertia(0.9144, 1.098, 1.66);
  RigidBodyState x0;
  x0.Pi = inertia.cwiseProduct(Vec3(0.45549, 0.82623, 0.03476));
  const RigidBodyState x = ExactSolution(inertia, x0).state(100.0);
  const Vec3 pi(0.661568603853, 0.634130709039, 0.400024770880);
  Mat3 r;
  r << 0.937982391275, -0.115578181224, -0.326849686679,
       0.286162107044, 0.790329174729, 0.541748137112,
       0.195704578765, -0.601682208144, 0.774388945074;
  // 12 printed digits (5e-13) plus the prototype's own ~4e-13.
  CHECK((x.Pi - pi).cwiseAbs().maxCoeff() <= 1e-12);
  CHECK((x.R - r).cwiseAbs().maxCoeff() <= 1e-12);
}

TEST_CASE("error_estimate bounds the evaluation error measured against 50 digits", "[exact]") {
  std::vector<Case> cases = all_cases();
  cases.push_back(near_separatrix_case(1e-8, -1, 41));
  cases.push_back(make_case("middle axis + 1e-12", {1.0, 2.0, 3.5},
                            Vec3(0.0, 1.5, 0.0) + 1e-12 * Vec3(0.3, -0.7, 0.5), 42));
  for (const Case& c : cases) {
    const ExactSolution exact(c.inertia, c.x0);
    for (double t : {0.0, 3.7, 141.0, 1000.0, 1e4}) {
      INFO(c.name << " t = " << t);
      CHECK(evaluation_error(c.inertia, c.x0, t) <= exact.error_estimate(t));
    }
  }
  CHECK(ExactSolution(Vec3(1, 2, 3), RigidBodyState{Mat3::Identity(), Vec3(1, 0, 0.5)}).error_estimate(1000.0) < 1e-14);
}

// Near the separatrix a relative change of 1e-16 in Pi0 moves R(t) by ~1e-16 t / k'^2 (the period goes
// like log(1/k')), so the long double integration, whose rounding acts as such a change at every step,
// stops being a reference there. A 50-digit integration of the same equations still is one: the exact
// solution is checked against it, and the long double discrepancy is recorded (see the table in
// exact_solution.cpp).
TEST_CASE("Near and on the separatrix the exact solution agrees with a 50-digit RKF78 to 1e-15", "[exact]") {
  std::vector<Case> cases = {near_separatrix_case(1e-2, 1, 51), near_separatrix_case(1e-4, -1, 52),
                             near_separatrix_case(1e-6, 1, 53), near_separatrix_case(1e-8, -1, 54)};
  for (const Case& c : separatrix_cases()) cases.push_back(c);
  for (const Case& c : cases) {
    const std::vector<double> times = uniform_times(c.horizon, 10);
    const ExactSolution exact(c.inertia, c.x0);
    const auto precise = integrate_free_body_trajectory_digits50(c.inertia, c.x0, times, 0.4 * rk_step(c));
    const auto ordinary = integrate_free_body_trajectory(c.inertia, c.x0, times, rk_step(c));
    LD exact_error = 0, ordinary_error = 0, ordinary_error_to_10 = 0;
    for (std::size_t i = 0; i < times.size(); ++i) {
      const StateDistance d = distance(precise[i], exact.state(times[i]));
      const StateDistance o = distance(precise[i], ordinary[i]);
      exact_error = std::max({exact_error, d.rotation, d.momentum});
      ordinary_error = std::max({ordinary_error, o.rotation, o.momentum});
      if (times[i] <= 10) ordinary_error_to_10 = std::max({ordinary_error_to_10, o.rotation, o.momentum});
    }
    WARN(c.name << " (k' = " << exact.complementary_modulus() << "), max over t <= " << c.horizon
                << ": exact vs 50-digit "
                << double(exact_error) << ", long double RKF78 vs 50-digit " << double(ordinary_error));
    CHECK(exact_error <= 1e-15L);
    CHECK(ordinary_error_to_10 <= 1e-12L);
  }
}

}  // namespace gibench_test_exact_solution
