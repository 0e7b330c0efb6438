// Counted, deterministic cost of a run (GUIDE 3). Methods increment them inside step(); the harness
// reports totals and per-step averages. Counting costs a few integer adds per step, so the same code
// path serves the accuracy and the timing passes.
//
// The components are what each method counts; function_evals() and work() turn them into one currency that
// compares methods across model kinds. Readers of files written before the currency existed derive it from the
// components through the same two functions (harness/json_util.hpp cost_value), so there is one formula.
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

  // The cost currency (issue 19 item 4), defined in core/counters.cpp: every method includes this header, and
  // the definition is a reporting matter that must not rebuild them all when it changes.
  //
  // function_evals(): evaluations of the model's function, its vector field or its force/torque, whichever the
  // kind's methods evaluate, each stage once. The two counters overlap rather than add up: a stage on a body
  // under torque (RKMK, CG3, classical RK, Krysl's residuals) evaluates the vector field with the torque inside
  // it and counts one of each, and a stage on N particles (RKMK, IMIDM, classical RK) counts one rhs_evals and
  // one force_evals for its one forces_and_torques call; their sum would charge RKMK4 eight evaluations per
  // step instead of four. The larger of the two charges each stage once on every kind:
  //   - torque-free bodies: force_evals = 0, so it is rhs_evals (a splitting such as MR2 evaluates neither);
  //   - Newtonian systems (Zhang-Skeel family, Verlet, RATTLE, Newmark): rhs_evals = 0, so it is force_evals;
  //   - a model with a potential: force_evals >= rhs_evals, the excess being evaluations of the torque alone
  //     (a DLM kick, the start torque of Krysl's trapezoidal and predictor forms), which are real and counted.
  // A method that evaluated the velocities alone at some points and the forces alone at others would be
  // undercharged by this rule. IMIDM on particles comes closest: its finish counts rhs_evals for velocities
  // from cached forces, its predictor a force alone; with its default start both counters are iterations + 1.
  //
  // work(): function_evals + exp_evals + log_evals + cayley_evals + linear_solves + nonlinear_iters, each
  // primitive weighing one. Unit weights keep the currency a machine-independent count; measured time is the
  // other axis of every comparison.
  //   - a function evaluation is the unit classical work-precision diagrams count;
  //   - an exponential (a sin/cos pair and 3x3 products), a logarithm (its inverse) and a Cayley map (a 3x3
  //     rational map) are what a Lie-group method pays that a classical one does not, each about the size of a
  //     rigid body's vector field; logarithms are included although no method counts one yet, so a method built
  //     on logarithms cannot look cheaper than one built on exponentials;
  //   - a linear solve (3x3 or banded) and a Newton iteration are the price of implicitness; the iteration
  //     counts one on top of the evaluations and solves it makes, for its Jacobian and convergence test.
  // The weights are not times: on N particles one force evaluation is O(N^2) while exp_evals and linear_solves
  // count one per particle.
  std::int64_t function_evals() const;
  std::int64_t work() const;
};

}  // namespace gib
