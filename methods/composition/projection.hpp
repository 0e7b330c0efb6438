// Symmetrising constructions of the McLachlan-Quispel lectures on any one-step vector-field method psi (the base,
// parameter `base`, a registered method id; see base_map.hpp for what a base must be):
//
//   projection_adjoint     chi_h = psi_{h/2} o psi*_{h/2}, psi*_s = psi_{-s}^-1 the adjoint (lectures 1.6, spec 2.3):
//                          self-adjoint for any psi, so of even order >= 2. With explicit Euler (the default base)
//                          psi* is implicit Euler and chi the implicit midpoint rule; with symplectic Euler (drift,
//                          then kick) chi is KDK leapfrog (spec 2.3 [VERIFIED]).
//   reversible_projection  chi_h = psi_{h/2} o R o psi_{h/2}^-1 o R (lectures Example 19 with the step sizes of
//                          erratum E9, spec 2.7), R the model's reversing involution: R chi_h R = chi_h^-1 for any
//                          psi. For a base with R psi_s R = psi_{-s} (every Runge-Kutta method for a linear R, and
//                          the Hamiltonian splittings for R(q, p) = (q, -p)) R psi_{h/2}^-1 R = psi*_{h/2}, so chi is
//                          the projection above: symmetric, order 2. The claims below are for such bases (the
//                          default, explicit Euler, is one).
//
// psi^-1 is Newton on psi(y) = z with the base's exact tangent map, else central differences of the base; a step
// whose Newton iteration does not converge is StepStatus::solver_failed. The general psi/psi* palindrome of spec 2.4
// (alpha_n ... alpha_1 alpha_1 ... alpha_n) is not a separate method: with n = 1 it is projection_adjoint, and the
// text gives no other alpha values.
#pragma once

#include "core/method.hpp"

namespace gib::composition {

MethodInfo projection_adjoint();
MethodInfo reversible_projection();

}  // namespace gib::composition
