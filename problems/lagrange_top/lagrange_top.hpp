// Problem: the Lagrange (heavy symmetric) top about a fixed point, V = weight * R33 (weight = m g l, the
// centre of mass on body axis 3; Krysl spec 7.2, 7.3: the spatial torque -20 R(:,3) x e3 integrates to
// V = 20 R33).
//   slow  I = diag(5, 5, 1), weight 20, R0 = exp(hat(0.05, 0, 0)), Omega0 = (0, 0, 5);  H0 = 32.47500521
//   fast  the same with R0 = exp(hat(0.3, 0, 0)), Omega0 = (0, 0, 50);                 H0 = 1269.10672978
// Invariants: energy, vertical momentum e_z . R Pi, axial momentum Pi_3 (while I1 == I2).
// Reference: numerical (problems/common/numerical_reference.hpp).
#pragma once

#include "core/problem.hpp"

namespace gib::lagrange_top {

ProblemInfo info();

}  // namespace gib::lagrange_top
