#include "core/counters.hpp"

#include <algorithm>

namespace gib {

std::int64_t OpCounters::function_evals() const { return std::max(rhs_evals, force_evals); }

std::int64_t OpCounters::work() const {
  return function_evals() + exp_evals + log_evals + cayley_evals + linear_solves + nonlinear_iters;
}

}  // namespace gib
