// The pendulum q' = p, p' = -sin q (McLachlan-Quispel lectures 2.1, spec 3.1), q on the covering space R:
// a separable Hamiltonian H = p^2/2 - cos q, the first system of the general-vector-field kind.
#pragma once

#include "core/problem.hpp"

namespace gib::pendulum {

ProblemInfo info();

}  // namespace gib::pendulum
