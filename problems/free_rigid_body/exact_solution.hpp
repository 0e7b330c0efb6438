// Exact solution of the free (torque-free) rigid body: Pi(t) by Jacobi elliptic functions and R(t) by
// the construction of Celledoni, Fasso, Safstrom and Zanna (2008): R(t) = G^T R_z(psi(t)) A(Pi(t)) S,
// where the precession angle psi(t) is an elliptic integral of the third kind.
//
// Every regime is handled: either side of the separatrix (circulation about the largest- or the
// smallest-moment axis), exactly on the separatrix (hyperbolic functions), any ordering of the moments,
// symmetric bodies (k = 0), spheres and steady rotation about a principal axis. The evaluation runs in
// long double throughout (sn, cn, dn by the descending Landen transformation seeded with k', the
// integrals by Boost.Math's Carlson R_F and R_J), and returns double. The constructor does the set-up;
// state(t) costs a few microseconds and is safe to call concurrently.
#pragma once

#include <memory>
#include <string>

#include "core/problem.hpp"

namespace gib::free_rigid_body {

class ExactSolution final : public RigidBodyReference {
 public:
  ExactSolution(const Vec3& inertia, const RigidBodyState& initial);
  ~ExactSolution() override;
  ExactSolution(const ExactSolution&) = delete;
  ExactSolution& operator=(const ExactSolution&) = delete;

  RigidBodyState state(double t) const override;
  std::string kind() const override { return "exact"; }
  // 4e-16 + 16 eps_ld (1 + |Pi| |t| / min I): the rounding to double plus the long double evaluation,
  // whose error grows with the phases (bound set from measurements, see exact_solution.cpp).
  double error_estimate(double t) const override;

  // Diagnostics, for reports and tests.
  std::string regime() const;   // "steady", "circulating", "separatrix"
  double modulus() const;       // elliptic modulus k (0 for symmetric bodies, 1 on the separatrix)
  double period() const;        // period of Pi(t); +inf on the separatrix, 0 for steady rotation
  double complementary_modulus() const;  // k' = sqrt(1 - k^2), computed without cancellation
  // Distance from the separatrix, D = sum_i Pi_i^2 (I_mid/I_i - 1), from an exact evaluation of its sign
  // and long double relative accuracy (D < 0: circulation about the largest-moment axis).
  double separatrix_distance() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// Error of ExactSolution(inertia, initial).state(t), as returned (in double), against the same formulas
// evaluated with 50 significant digits (max of rotation angle and relative momentum error): the
// evaluation error, which error_estimate bounds; the formulas themselves are validated against
// numerical integration (exact_validation.hpp). Slow (a few milliseconds), for tests and studies.
double evaluation_error(const Vec3& inertia, const RigidBodyState& initial, double t);

// The elliptic building blocks, exposed for tests. kc = sqrt(1 - k^2) is passed separately so that
// moduli close to 1 keep their full relative accuracy.
namespace elliptic {
// Jacobi amplitude am(u, k) for any real u (continuous, am(u + 2K) = am(u) + pi), by the
// arithmetic-geometric mean (descending Landen transformation).
long double amplitude(long double u, long double k, long double kc);
struct JacobiFunctions {
  long double sn, cn, dn;
};
// sn, cn, dn for |u| <= K, each with full relative accuracy (cn and dn too, near u = +-K as k -> 1).
JacobiFunctions jacobi_functions(long double u, long double k, long double kc);
// Incomplete integral of the third kind, int_0^phi dtheta / ((1 - n sin^2) sqrt(1 - k^2 sin^2)),
// for |phi| <= pi/2 and n < 1, from Carlson's R_F and R_J.
long double third_kind(long double n, long double phi, long double kc);
}  // namespace elliptic

}  // namespace gib::free_rigid_body
