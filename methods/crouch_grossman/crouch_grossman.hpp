// Crouch-Grossman methods of any explicit tableau on T*SO(3) (Crouch & Grossman 1993; methods/tableaus/cg3.json and
// the other crouch_grossman files define them).
//
// A Crouch-Grossman method is an explicit Runge-Kutta method whose stages and update are products of exponentials,
// one factor per earlier stage, instead of one exponential of a sum (RKMK): no dexp^-1 is needed, at the price of
// more exponentials per step. Hairer, Lubich & Wanner (GNI IV.8) state it for Y' = A(Y) Y, where the factors
// multiply from the left, the newest leftmost:
//   Y_i = exp(h a_{i,i-1} F_{i-1}) ... exp(h a_{i1} F_1) y_n,   y_{n+1} = exp(h b_s F_s) ... exp(h b_1 F_1) y_n.
// gibench's rigid body is in the left trivialisation, y' = y f(y) with y = (R, Pi) in T*SO(3) and
// f(y) = (omega, T_body(R)), omega = I^-1 Pi. Inverting y turns one form into the other, which mirrors the products:
// the factors multiply from the right, the oldest stage nearest y_n,
//   Y_i = y_n exp(h a_{i1} F_1) ... exp(h a_{i,i-1} F_{i-1}),   y_{n+1} = y_n exp(h b_1 F_1) ... exp(h b_s F_s),
// with the same coefficients and the same order conditions. The order of the update's factors matters: taken the
// other way round they break the order-3 condition that comes from the non-commutativity of the group, and the
// battery measures order 2. (The order of a stage's factors only matters at order 4.)
//
// Each factor is the group action y exp(sigma) of core/tso3.hpp: R <- R exp(xi), Pi <- exp(xi)^T Pi + J_r(xi) zeta.
// Without torque zeta = 0, so every factor rotates Pi by an orthogonal matrix and R Pi is unchanged: the Casimir |Pi|
// and the spatial momentum R Pi are kept to round-off, and R stays on SO(3).
//
// The stepper is the commutator-free one (commutator_free.hpp) with one non-zero coefficient per factor; a zero
// coefficient's factor is the identity and is skipped (neither computed nor counted).
#pragma once

#include <string>

#include "core/method.hpp"
#include "methods/rkmk/tableau.hpp"

namespace gib::crouch_grossman {

MethodInfo method(std::string id, std::string display_name, std::string citation, const rkmk::Tableau& tableau);

}  // namespace gib::crouch_grossman
