// Quispel's volume-preserving correction method (`vp_correction`; Quispel 1995, McLachlan-Quispel lectures section 5,
// spec 7.3) for any divergence-free field x' = f(x) on R^m, from f and its Jacobian alone. With x~ = (x_<m, x'_m):
//   x'_i = x_i + h f_i(x~),  i < m;
//   x_m  = int_0^{x'_m} J(s) ds - h f_m(x_<m, 0),  J(s) = det(I + h d f_<m / d x_<m (x_<m, s)),
// the last line an equation for the new x'_m (scalar Newton from x'_m = x_m, dG/dx'_m = J). Since dx_m/dx'_m = J,
// det(dx'/dx) = J / J = 1 for any f; the constant of integration -h f_m(x_<m, 0) (spec 7.3 [INFERENCE], E10) makes it
// consistent with f exactly when div f = 0, so the method needs a divergence-free model. Order 1, not symmetric.
// The integral is Gauss-Legendre with two nodes, exact for J of degree <= 3 in s: Volterra's J is quadratic (spec
// Example 25) and the ABC flow's does not depend on s, so on both the map is volume-preserving to round-off. On a
// field whose J is not a polynomial of degree <= 3 in x_m, volume is kept only to the quadrature's accuracy.
// The base point 0 of the integral makes the map depend on where x_m = 0 is, not only on f: on the ABC flow, whose J
// does not depend on s, x'_m = (x_m + h f_m(x_<m, 0)) / J, which scales the unwrapped z it winds along; from (2, 5, 0)
// at h = 0.1 z grows until the run diverges at t = 354.5 (VP and first order all the same: the battery's 10 time units
// see order 1).
// No exact tangent map: implicit differentiation of the scalar equation needs d J / d x_<m, second derivatives of f
// that the model does not give; volume_err falls back to central differences.
#pragma once

#include "core/method.hpp"

namespace gib::volume {

MethodInfo vp_correction();

}  // namespace gib::volume
