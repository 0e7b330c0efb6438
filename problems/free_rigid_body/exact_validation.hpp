// An independent check of ExactSolution: the free rigid body integrated numerically in long double by
// Boost.Odeint's Runge-Kutta-Fehlberg 7(8) with a fixed step, on the unit quaternion
// q' = q (x) (0, omega)/2 together with Euler's equations Pi' = Pi x omega (omega = I^{-1} Pi).
// Nothing here shares code with the closed form, so agreement validates its formulas.
#pragma once

#include <vector>

#include "core/so3.hpp"
#include "core/state.hpp"
#include "problems/free_rigid_body/exact_solution.hpp"

namespace gib::free_rigid_body {

struct RigidBodyStateLD {
  so3::Mat3T<long double> R;
  so3::Vec3T<long double> Pi;
};

// States at the given non-decreasing times >= 0, each reached exactly: the interval between two output
// times is split into ceil(dt/h) equal steps.
std::vector<RigidBodyStateLD> integrate_free_body_trajectory(const Vec3& inertia, const RigidBodyState& x0,
                                                             const std::vector<double>& times, double h);

// The same integration carried in 50 significant digits (Boost.Multiprecision), about 100 times slower:
// for the near-separatrix study, where the rounding of the long double integration is amplified by
// ~1/k'^2 and swamps the comparison.
std::vector<RigidBodyStateLD> integrate_free_body_trajectory_digits50(const Vec3& inertia, const RigidBodyState& x0,
                                                                      const std::vector<double>& times, double h);

RigidBodyStateLD integrate_free_body_long_double(const Vec3& inertia, const RigidBodyState& x0, double t, double h);

struct StateDistance {
  long double rotation = 0;  // geodesic angle of R_ref^T R
  long double momentum = 0;  // |Pi - Pi_ref| / |Pi_ref|
};

StateDistance distance(const RigidBodyStateLD& reference, const RigidBodyStateLD& x);
StateDistance distance(const RigidBodyStateLD& reference, const RigidBodyState& x);

// Maximum over the times of the distance between ExactSolution and the numerical integration.
StateDistance compare_with_numerical(const ExactSolution& exact, const Vec3& inertia, const RigidBodyState& x0,
                                     const std::vector<double>& times, double h);

}  // namespace gib::free_rigid_body
