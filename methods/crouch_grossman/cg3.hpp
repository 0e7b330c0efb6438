// Crouch-Grossman method of order 3 on T*SO(3) (the method lives in cg3.cpp).
// This header exists only because two other files must see declarations from cg3.cpp: the registry
// (methods/registry.cpp) calls cg3(), and tests/test_crouch_grossman.cpp checks the order conditions
// on the very coefficients the stepper uses, in exact rational arithmetic.
#pragma once

#include "core/method.hpp"

namespace gib::crouch_grossman {

MethodInfo cg3();

// The tableau as exact fractions (Crouch & Grossman 1993; Hairer, Lubich & Wanner, GNI IV.8).
struct Fraction {
  long long num, den;
  constexpr double value() const { return static_cast<double>(num) / static_cast<double>(den); }
};
struct Cg3Tableau {
  Fraction c[3];
  Fraction a[3][3];  // strictly lower triangular
  Fraction b[3];
};
inline constexpr Cg3Tableau kCg3Tableau{
    {{0, 1}, {3, 4}, {17, 24}},
    {{{0, 1}, {0, 1}, {0, 1}}, {{3, 4}, {0, 1}, {0, 1}}, {{119, 216}, {17, 108}, {0, 1}}},
    {{13, 51}, {-2, 3}, {24, 17}},
};

}  // namespace gib::crouch_grossman
