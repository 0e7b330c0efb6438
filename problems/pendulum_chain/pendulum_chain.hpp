// Problem: a chain of n penalised planar pendula, the "rope" (Tao-Owhadi spec 4.2, Fig 3): M = I (2n DOF),
// V = s sum y_i + 1/2 omega^2 g^T g, g_1 = x_1^2 + y_1^2 - L_1^2, g_i = |x_i - x_{i-1}|^2 - L_i^2.
//   taoowhadi2014_n10  n = 10, L_i = sqrt 5, x_i(0) = i, y_i(0) = -2i (a straight chain 26.6 degrees from the
//                      vertical), v0 = 0, omega = 20
// Gravity sign s = +1 [FIX, spec 4.2 and A2]; gravity_sign = -1 is the printed sign (the chain starts inverted).
// "random:K": the straight chain with each rod turned by up to 0.1 rad and rates up to 0.05 rad per time unit.
// References, observables (omega2_g_norm; x, y of bobs 1, 5 and the last), tip (the last bob) and time scale:
// problems/pendulum_chain/chain_problem.hpp.
#pragma once

#include "core/problem.hpp"

namespace gib::pendulum_chain {

ProblemInfo info();

}  // namespace gib::pendulum_chain
