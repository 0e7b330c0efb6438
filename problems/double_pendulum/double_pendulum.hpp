// Problem: the penalised planar double pendulum in Cartesian coordinates (Tao-Owhadi spec 4.1, Figs 1, 2): 4 DOF,
// M = diag(m1, m1, m2, m2), V = V0 + 1/2 omega^2 g^T g with gravity V0 = s g (m1 y1 + m2 y2) and the rods
// g = (x1^2 + y1^2 - L1^2, (x2 - x1)^2 + (y2 - y1)^2 - L2^2).
//   taoowhadi2014           m1 = m2 = g = 1, L1 = 1, L2 = sqrt 2, omega = 20, q0 = (0, -1, 1, -2), v0 = 0
//                           (theta0 = 0, phi0 = pi/4)
//   taoowhadi2014_omega2000 the same with omega = 2000 (stiffness 4e6; the paper's "too large" omega): a stress case
// Gravity sign s = +1 [FIX, spec 0 item 1, A2]; gravity_sign = -1 is the printed sign, an inverted pendulum.
// "random:K": seeded angles theta, phi within 0.5 rad of hanging and rates within 0.5 rad per time unit, on the rods.
// References, observables (omega2_g1, omega2_g2, omega2_g_norm, x2, y2), tip (x2, y2) and time scale:
// problems/pendulum_chain/chain_problem.hpp.
#pragma once

#include "core/problem.hpp"

namespace gib::double_pendulum {

ProblemInfo info();

}  // namespace gib::double_pendulum
