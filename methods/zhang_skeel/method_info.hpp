// What every method of the family shares in its MethodInfo: the family string and the invariant claims.
//
// Invariant claims, for problems whose V is translation (rotation) invariant with isotropic per-particle masses:
//   * linear momentum is exact for every method here: the translation t is in the kernel of Hess V (and of the
//     stiff part's Hessian), and t . grad V = 0, so t^T M a = 0 for a = -(M + c K)^-1 grad V, and for every
//     Newton iterate of the Newmark equations, whatever the starting guess (spec 6 item 6);
//   * angular momentum is exact for the variational methods (discrete Noether): Z&S (M f = -grad W with W the
//     rotation-invariant modified potential obtained by eliminating a from the discrete Lagrangian (2)), velocity
//     Verlet, push-forward Newmark, implicit midpoint (a quadratic invariant) and RATTLE with rotation-invariant
//     constraints. Z&Ss and Integrator 5 are not variational: (Jx)^T M a = beta h^2 grad V^T J a != 0 in general.
//   * energy: bounded for the symplectic (and conjugate-symplectic) ones, which the battery checks through the
//     symplectic claim.
#pragma once

#include <string>
#include <utility>

#include "core/method.hpp"

namespace gib::zhang_skeel {

inline constexpr const char* kFamily = "zhang_skeel";

inline InvariantClaim exact_linear_momentum() { return {Invariant::linear_momentum, Preservation::exact}; }
inline InvariantClaim exact_angular_momentum() { return {Invariant::angular_momentum, Preservation::exact}; }
inline InvariantClaim bounded_energy() { return {Invariant::energy, Preservation::bounded}; }

inline MethodInfo family_method(std::string id, std::string display_name, std::string citation, MethodClaims claims) {
  MethodInfo m;
  m.id = std::move(id);
  m.display_name = std::move(display_name);
  m.citation = std::move(citation);
  m.family = kFamily;
  m.claims = std::move(claims);
  return m;
}

inline MethodClaims second_order(bool implicit, bool symmetric, bool symplectic) {
  MethodClaims c;
  c.order = 2;
  c.implicit = implicit;
  c.symmetric = symmetric;
  c.symplectic = symplectic;
  c.invariants.push_back(exact_linear_momentum());
  if (symplectic) c.invariants.push_back(bounded_energy());
  return c;
}

}  // namespace gib::zhang_skeel
