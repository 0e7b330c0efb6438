// The Toda-type matrix flow of the McLachlan-Quispel lectures, Example 9 (spec 10): X in R^{n x n},
//   X' = B(X L0 X^-1) X,   B(L) = L_+ - L_-   (strictly upper minus strictly lower part, erratum E13),
// on the general-vector-field kind, X flattened column by column into R^{n^2}. L = X L0 X^-1 follows the
// isospectral Toda flow L' = [B(L), L]. For symmetric L0 the field has the symmetry h(X) = X^-T, whose fixed set
// is O(n): a method that keeps h keeps X orthogonal from X0 = I. Observable orthogonality_err = |X X^T - I|_F
// (spec M3); Fig 4.1 plots it for Euler and its Thue-Morse words.
#pragma once

#include "core/problem.hpp"

namespace gib::toda {

ProblemInfo info();

}  // namespace gib::toda
