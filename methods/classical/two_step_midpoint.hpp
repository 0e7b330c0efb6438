// The two-step explicit midpoint rule x_{n+1} = x_{n-1} + 2 h f(x_n) (McLachlan-Quispel lectures 2.7, Fig 2.12;
// spec 3.2): the lectures' negative example. It is symplectic as a map on the product space (x_{n-1}, x_n), so its
// tori there are 2-dimensional, and the projected orbit of a pendulum fills a band instead of a curve; how wide
// depends on the starter, which the lectures do not give (parameter `starter`: one RK4 step, the spec's choice, or
// one Euler step, which the spec shows widening the band ~20x).
//
// The history x_{n-1} is kept inside the stepper and used only when the caller hands back, bit for bit, the state
// this stepper wrote with the same h; any other state (a first step, an edit, a new h) restarts with the starter.
// Cost: one right-hand side per step; the starter's 4 (RK4) or 1 (Euler) on a restart.
#pragma once

#include "core/method.hpp"

namespace gib::classical {

MethodInfo two_step_midpoint();

}  // namespace gib::classical
