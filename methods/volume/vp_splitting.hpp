// Volume-preserving splitting (`vp_splitting`; Feng-Shang, McLachlan-Quispel lectures section 5, spec 7.2, 7.4) on a
// divergence-free field given as a sum of source-free pieces (core/vector_field.hpp DivergenceFreeSplitting):
//   a shear piece (moves one coordinate by a function of the others) by its exact flow x + s g(x);
//   any other piece, a 2D Hamiltonian system in two coordinates, by the implicit midpoint rule on the piece, which is
//   symplectic in those two coordinates and leaves the others fixed, hence volume-preserving in R^n.
// Param `ordering`: "lie" applies the pieces 1, ..., k in turn with the full step (order 1; the order of spec
// Example 24, which applies f~1 first); "strang" the palindrome 1(h/2) ... k-1(h/2) k(h) k-1(h/2) ... 1(h/2) of
// self-adjoint maps (order 2, symmetric; spec 7.2 Strang f~1(h/2) f~2(h) f~1(h/2), spec 7.4's X Y Z Y X for ABC).
// Midpoint pieces are solved by Newton with the piece's Jacobian, never by fixed-point iteration: a Volterra piece's
// x3 equation is a Riccati equation with finite-time blow-up, and plain iteration failed at h = 0.1 (spec 7.2
// caution). A step whose Newton iteration does not converge returns StepStatus::solver_failed.
// The stepper implements TangentMap: the product of the pieces' exact tangents, I + s G(x) for a shear (its g does
// not depend on the coordinate it moves) and (I - s/2 G(m))^-1 (I + s/2 G(m)) for a midpoint piece (implicit
// differentiation of x' = x + s g((x + x') / 2)).
#pragma once

#include "core/method.hpp"

namespace gib::volume {

// `vp_splitting` (Strang: order 2, symmetric) or `vp_splitting_lie` (order 1). Both take the parameter; each id's
// claims are those of its own default ordering, so the battery checks both orderings.
MethodInfo vp_splitting(bool strang);

}  // namespace gib::volume
