// The Lie-group benchmark of Tao & Owhadi 2014 section 4.5: the Hamilton-Pontryagin variational Euler integrator with
// the Cayley map (Bou-Rabee & Marsden 2009; Tao-Owhadi eqs (34), (35); spec 2.10, fixes A22). Discrete Lagrangian
//   L_d(R_k, R_k+1) = h [1/2 Omega^T I Omega - V(R_k)],   h Omega = cay^-1(R_k^T R_k+1),
// whose reduced discrete Euler-Lagrange equation, with the right-trivialised tangent of the Cayley map
// dcay^-1_xi = 1 - xi^/2 + xi xi^T/4, is
//   (1 + h/2 Omega_+^ + h^2/4 Omega_+ Omega_+^T) I Omega_+ = (1 - h/2 Omega_k^ + h^2/4 Omega_k Omega_k^T) I Omega_k + h T(R_k),
//   R_+ = R_k cay(h Omega_+),   Pi_+ = I Omega_+,
// with T the body torque. (Its h -> 0 limit is I Omega' + Omega x I Omega = T, Euler's equation; tests check that the
// equation makes the action sum stationary.) The state (R, Pi) carries Omega_k = I^-1 Pi_k, so the step is a one-step
// map on T*SO(3). For I = 1 the spec's vector form (1 + h^2/4 |Omega_+|^2) Omega_+ = (1 + h^2/4 |Omega_k|^2) Omega_k
// + h B mu (R_k^T e3) x e3 is the special case.
//
// Solves: general inertia, Newton in 3D on the left-hand side (analytic Jacobian, predictor I^-1 b, at most max_iter
// iterations; failure -> solver_failed); isotropic inertia I = c 1, the scalar cubic h^2/4 s^3 + s - |b|/c = 0 for
// Omega_+ = s b/|b| (Newton from s = |b|/c, monotone since the cubic is convex and increasing for s > 0).
//
// Claims: order 1, symplectic (variational), stays on SO(3) (Cayley), implicit. Counts one torque and one Cayley
// evaluation per step, the Newton iterations and their linear solves.
// Parameters: "tol" (relative, default 1e-14), "max_iter" (default 50).
#pragma once

#include "core/method.hpp"

namespace gib::lie_variational {

MethodInfo hp_cayley_euler();

namespace hp_cayley {

struct Solve {
  Vec3 omega = Vec3::Zero();
  int iterations = 0;
  bool converged = false;
};

// b = (1 - h/2 Omega_k^ + h^2/4 Omega_k Omega_k^T) I Omega_k + h torque.
Vec3 right_side(const Vec3& inertia, const Vec3& omega_k, const Vec3& torque, double h);
// (1 + h/2 Omega^ + h^2/4 Omega Omega^T) I Omega for a given Omega (the left-hand side).
Vec3 left_side(const Vec3& inertia, const Vec3& omega, double h);
// Omega_+ from b by Newton in 3D (any inertia).
Solve solve_general(const Vec3& inertia, const Vec3& b, double h, double tol, int max_iter);
// Omega_+ from b by the scalar cubic (I = c 1).
Solve solve_isotropic(double c, const Vec3& b, double h, double tol, int max_iter);

}  // namespace hp_cayley
}  // namespace gib::lie_variational
