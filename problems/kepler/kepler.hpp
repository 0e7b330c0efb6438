// The Kepler two-body problem in the plane (McLachlan-Quispel Lecture 6, Fig 6.1, spec 8.4): x = (q, p) in R^4,
// H = |p|^2/2 - 1/|q|, given both as a separable Hamiltonian (for the splittings) and in skew-gradient form with the
// canonical J (for the discrete gradients). Its angular momentum q1 p2 - q2 p1 is a second first integral.
#pragma once

#include "core/problem.hpp"

namespace gib::kepler {

ProblemInfo info();

}  // namespace gib::kepler
