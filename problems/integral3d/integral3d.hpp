// The lectures' 3D example with one first integral (McLachlan-Quispel Lecture 6, Fig 6.2, spec 8.3): a field that
// is neither Hamiltonian nor Poisson but has the compact integral I = x^2/2 + y^4/4 + y + z^2/2, written in
// skew-gradient form x' = S(x) grad I(x) for the discrete-gradient methods.
#pragma once

#include "core/problem.hpp"

namespace gib::integral3d {

ProblemInfo info();

}  // namespace gib::integral3d
