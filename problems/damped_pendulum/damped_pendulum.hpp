// The damped pendulum x1' = x2, x2' = -sin x1 - alpha x2 (McLachlan-Quispel Lecture 6, Fig 6.3, spec 8.6) with its
// Lyapunov function V = x2^2/2 - cos x1 in linear-gradient form x' = L grad V, L = [[0, 1], [-1, -alpha]]: the
// problem the Lyapunov discrete gradients and Euler's spurious periodic orbits are shown on.
#pragma once

#include "core/problem.hpp"

namespace gib::damped_pendulum {

ProblemInfo info();

}  // namespace gib::damped_pendulum
