// Euler's equations of the free rigid body as a general vector field x = pi in R^3 (McLachlan-Quispel lectures,
// Example 5 and Lecture 6; spec 4.2, 5.1, 5.6): the body momentum alone, without the attitude, in the Lie-Poisson
// form pi' = J(pi) grad H(pi). Named for the Euler top, the torque-free body whose momentum these equations move;
// `free_rigid_body` is the rigid-body kind's (R, Pi) problem, which the vector-field methods cannot step.
#pragma once

#include "core/problem.hpp"

namespace gib::euler_top {

ProblemInfo info();

}  // namespace gib::euler_top
