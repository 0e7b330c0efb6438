// The ABC (Arnold-Beltrami-Childress) flow x' = A sin z + C cos y, y' = B sin x + A cos z, z' = C sin y + B cos x
// (McLachlan-Quispel lectures Figs 5.1-5.3, spec 7.4): source-free, and each component is independent of its own
// coordinate, so the field is the sum of three shears with explicit exact flows. The lectures print
// x' = A sin z + C sin y (erratum E4); the preset mq1998_printed keeps that typo to show what it does.
// Coordinates live on the covering space R^3 and are never wrapped, so z's winding is (z - z0) / 2 pi.
#pragma once

#include "core/problem.hpp"

namespace gib::abc_flow {

ProblemInfo info();

}  // namespace gib::abc_flow
