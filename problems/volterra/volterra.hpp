// The 3D Volterra system x1' = x1 (x2 - x3), x2' = x2 (x3 - x1), x3' = x3 (x1 - x2) (McLachlan-Quispel lectures
// Example 24, spec 7.2): source-free, split into two source-free pieces (spec 7.2's f~1, f~2), each a 2D Hamiltonian
// system in (x_j, x3). It keeps x1 + x2 + x3 and x1 x2 x3 (spec 7.2 [DERIVED]), the diagnostics of its long runs.
#pragma once

#include "core/problem.hpp"

namespace gib::volterra {

ProblemInfo info();

}  // namespace gib::volterra
