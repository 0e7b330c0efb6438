// Discrete-gradient methods (McLachlan-Quispel Lecture 6, spec 8.1-8.5, 12): for a field in the form
// x' = M(x) grad G(x), the step x -> x' solves
//   (x' - x)/h = M((x + x')/2) gbar(x, x'),
// where gbar is a discrete gradient, G(x') - G(x) = gbar . (x' - x) exactly, gbar(x, x') = grad G(x) + O(x' - x).
// Then G(x') - G(x) = h gbar^T M gbar: zero when M = S is skew (G = I a first integral, kept to round-off at any
// step, `dg_*`), <= 0 when v.Mv <= 0 (M = L, G = V a Lyapunov function, never increasing, `ldg_*`).
//
// Discrete gradients:
//   itoh_abe   coordinate increments (Itoh and Abe 1988): gbar_i = (G(x^(i)) - G(x^(i-1))) / (x'_i - x_i),
//              x^(i) = (x'_1..x'_i, x_{i+1}..x_n). Order 1, not symmetric. Where |x'_i - x_i| <= 1e-4 max(1, |x_i|)
//              the quotient cancels (its rounding eps |G| / |x'_i - x_i|), and the mean of dG/dx_i over the same
//              segment by 5-node Gauss-Legendre is used instead: the partial derivative at x'_i == x_i, and equal to
//              the quotient to O(dx^10), far below round-off in G at that size.
//   avf        average vector field (Harten-Lax-van Leer): gbar = int_0^1 grad G(x + s (x' - x)) ds by 4-node
//              Gauss-Legendre, exact when grad G is a polynomial of degree <= 7 along the segment (integral3d's grad I
//              is cubic). For other G (Kepler's 1/|q|, the pendulum's cos) the quadrature's defect
//              d = G(x') - G(x) - gbar . dx is added back along dx, gbar += d dx / |dx|^2 (Gonzalez's
//              construction), so that the identity holds to round-off at any step; d is dropped when it is itself
//              round-off (|d| <= 8 eps (|G(x)| + |G(x')| + |gbar . dx|)), where dividing it by |dx| would only
//              amplify rounding near an equilibrium. Symmetric in (x, x'), so with M at the midpoint the method is
//              self-adjoint: order 2.
//   gonzalez   Gonzalez 1996, the midpoint discrete gradient: grad G((x + x')/2) + d dx / |dx|^2 with the same d and
//              the same round-off rule. Symmetric, order 2.
//
// Solver: Newton on x' from the explicit Euler predictor, with the Jacobian of the residual
// x' - x - h M(mid) gbar(x, x') by forward differences (the model gives neither dM/dx nor the Hessian of G, and
// the residual is n-dimensional, n <= 4 here: n + 1 residuals per iteration). Converged when the Newton increment
// is below 1e-14 max(1, |x'|), or, once below 1e-11 max(1, |x'|), has stopped shrinking (the residual's own
// rounding, not a slow iteration: Newton at that distance from a simple root shrinks it by orders of magnitude).
// A step fails with StepStatus::solver_failed, never accepting the last iterate, when the iteration does not
// converge in 30 iterations, produces a non-finite iterate, or when an increment above the noise floor grows: a
// growing Newton increment means the iterate has left the basin of the root nearest the predictor, and the root
// it might reach later is another branch of the implicit equation (spec 8.3: the triple jump's backward substep at
// tau = 0.2 must fail loudly, not jump roots).
#pragma once

#include "core/method.hpp"

namespace gib::discrete_gradient {

enum class Gradient { itoh_abe, avf, gonzalez };
// Which form of the field the method uses: skew-gradient (first integral) or linear-gradient (Lyapunov function).
enum class Form { skew, lyapunov };

// "dg_" (Form::skew) or "ldg_" (Form::lyapunov) followed by "itoh_abe", "avf" or "gonzalez".
MethodInfo method(Form form, Gradient gradient);

}  // namespace gib::discrete_gradient
