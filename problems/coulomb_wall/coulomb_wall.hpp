// Problem: Krysl's pinned body "in a Coulombic potential with soft-wall contact" (Krysl spec 7.4, after
// Holder, Leimkuhler and Reich 2001): I = diag(2, 3, 4.5), R0 = I, spatial pi0 = (2, 2, 2) = Pi0, and
//   V = sign (k / r - eps / r^10),  r = offset + R33,  k = 1, eps = 0.001, offset = 1.1,
// the potential that integrates the printed torque (sign = +1; H0 = 2.5873009878).
//   krysl2006  sign = +1, the paper's runs (Figures 4 and 5): the body stays above the barrier at
//              R33* = (10 eps / k)^(1/9) - offset = -0.5005
//   flipped    sign = -1, the "attractive Coulomb + repulsive wall" the paper's words describe (the issue's
//              coulomb_wall_flipped): a hard-impact stress case, not compared with the paper
// Invariants: energy, vertical momentum e_z . R Pi (and Pi_3 if the inertia is overridden to I1 == I2).
// Reference: numerical (problems/common/numerical_reference.hpp).
#pragma once

#include "core/problem.hpp"

namespace gib::coulomb_wall {

ProblemInfo info();

}  // namespace gib::coulomb_wall
