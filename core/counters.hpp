// Counted, deterministic cost of a run (GUIDE 3). Methods increment them inside step(); the harness
// reports totals and per-step averages. Counting costs a few integer adds per step, so the same code
// path serves the accuracy and the timing passes.
#pragma once

#include <algorithm>
#include <cstdint>

namespace gib {

struct OpCounters {
  std::int64_t steps = 0;
  std::int64_t rhs_evals = 0;         // vector-field evaluations (one per RK stage, say)
  std::int64_t force_evals = 0;       // potential force/torque evaluations (0 for torque-free bodies)
  std::int64_t exp_evals = 0;         // exp (Rodrigues) evaluations, including the one inside the group action
  std::int64_t log_evals = 0;
  std::int64_t cayley_evals = 0;
  std::int64_t linear_solves = 0;
  std::int64_t nonlinear_iters = 0;   // total nonlinear iterations of implicit methods
  std::int64_t nonlinear_iters_max = 0;  // max iterations in one step
  std::int64_t solver_failures = 0;

  void record_nonlinear_step(std::int64_t iters) {
    nonlinear_iters += iters;
    nonlinear_iters_max = std::max(nonlinear_iters_max, iters);
  }
};

}  // namespace gib
