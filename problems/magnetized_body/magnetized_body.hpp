// Problem: the magnetized rigid body of Tao & Owhadi 2014 section 4.5 (Figs 9, 10; spec 2.11, 4.5): identity inertia
// in a constant field, V(R) = B mu e3^T R^-1 e3 = B mu R33 (for R in SO(3), R^-1 = R^T), R(0) = I,
// Omega(0) = (1, 0.2, 0.1).
//   taoowhadi2014  B mu = 1 [ASSUMPTION A15: the paper does not give it]. As printed, R = I is a maximum of V
//                  (A21: the physical dipole energy is -mu . B); kept as printed.
// V = B mu R33 is exactly a heavy top's potential with weight B mu and I = 1, so the problem is built like the tops
// (problems/common/r33_problem.hpp): the same numerical reference, "random:K" draws and invariants (energy,
// vertical momentum e_z . R Pi, axial momentum Pi_3 while I1 == I2).
#pragma once

#include "core/problem.hpp"

namespace gib::magnetized_body {

ProblemInfo info();

}  // namespace gib::magnetized_body
