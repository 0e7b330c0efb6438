// Crouch-Grossman method of order 3 (Crouch & Grossman 1993) on T*SO(3) for the rigid body, with torque: its tableau,
// run by the Crouch-Grossman stepper of crouch_grossman.cpp (which any tableau from a method file also uses).
//
// A Crouch-Grossman method is an explicit Runge-Kutta method whose stages and update are products of
// exponentials, one factor per earlier stage, instead of one exponential of a sum (RKMK): no dexp^-1 is
// needed, at the price of more exponentials per step. Hairer, Lubich & Wanner (GNI IV.8) state it for
// Y' = A(Y) Y, where the factors multiply from the left, the newest leftmost:
//   Y_i = exp(h a_{i,i-1} F_{i-1}) ... exp(h a_{i1} F_1) y_n,   y_{n+1} = exp(h b_s F_s) ... exp(h b_1 F_1) y_n.
// gibench's rigid body is in the left trivialisation, y' = y f(y) with y = (R, Pi) in T*SO(3) and
// f(y) = (omega, T_body(R)), omega = I^-1 Pi. Inverting y turns one form into the other, which mirrors
// the products: the factors multiply from the right, the oldest stage nearest y_n,
//   Y_i = y_n exp(h a_{i1} F_1) ... exp(h a_{i,i-1} F_{i-1}),   y_{n+1} = y_n exp(h b_1 F_1) ... exp(h b_s F_s),
// with the same coefficients and the same order conditions. The order of the update's factors matters:
// taken the other way round they break the order-3 condition that comes from the non-commutativity of
// the group, and the battery measures order 2. (The order of a stage's factors only matters at order 4.)
//
// Each factor is the group action y exp(sigma) of core/tso3.hpp: R <- R exp(xi), Pi <- exp(xi)^T Pi + J_r(xi) zeta.
// Without torque zeta = 0, so every factor rotates Pi by an orthogonal matrix and R Pi is unchanged:
// the Casimir |Pi| and the spatial momentum R Pi are kept to round-off, and R stays on SO(3).
#include "methods/crouch_grossman/cg3.hpp"

#include "methods/crouch_grossman/crouch_grossman.hpp"

namespace gib::crouch_grossman {

MethodInfo cg3() {
  rkmk::Tableau t;
  t.name = "Crouch-Grossman 3";
  t.order = 3;
  // The exact fractions of cg3.hpp, which tests/test_crouch_grossman.cpp checks against the order conditions.
  for (int i = 0; i < 3; ++i) {
    t.a.emplace_back();
    for (int j = 0; j < i; ++j)
      t.a.back().push_back({static_cast<int>(kCg3Tableau.a[i][j].num), static_cast<int>(kCg3Tableau.a[i][j].den)});
    t.b.push_back({static_cast<int>(kCg3Tableau.b[i].num), static_cast<int>(kCg3Tableau.b[i].den)});
  }
  return method("cg3", "Crouch-Grossman 3", "Crouch & Grossman 1993; coefficients as in Hairer, Lubich & Wanner, GNI IV.8",
                t);
}

}  // namespace gib::crouch_grossman
