// Explicit Runge-Kutta with a tableau given as data (methods/from_file/, family classical_rk) on a general vector
// field x' = f(x), the embedding of the McLachlan-Quispel problems: the classical baseline for any scheme a user
// writes down, next to Boost.Odeint's compiled Euler, midpoint and RK4 (odeint_vector_field.hpp).
//   k_i = f(x + h sum_{j<i} a_ij k_j),   x <- x + h sum_i b_i k_i,
// one right-hand side per stage; a zero a_ij or b_i is skipped. The stage buffers are sized on the first step.
#pragma once

#include <string>

#include "core/method.hpp"
#include "methods/rkmk/tableau.hpp"

namespace gib::classical {

MethodInfo tableau_rk_method(std::string id, std::string display_name, std::string citation, const rkmk::Tableau& tableau);

}  // namespace gib::classical
