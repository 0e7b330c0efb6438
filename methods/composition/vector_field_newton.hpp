// Newton's method on R^n for the implicit vector-field methods of the McLachlan-Quispel lectures (implicit Euler,
// the inverse and adjoint steps of the projections, spec 2.3, 2.7). A step that does not converge is reported, never
// accepted with its last iterate (spec M14).
#pragma once

#include <Eigen/Core>
#include <Eigen/LU>
#include <algorithm>

#include "core/counters.hpp"

namespace gib::composition {

// Solves F(y) = 0 from the predictor in y; eval(y, F, J) sets F(y) and its Jacobian J. Converged when a correction
// is at most 1e-14 max(1, |y|): Newton converges quadratically, so the iterate is then exact to round-off. Returns
// false after 50 iterations or on a non-finite iterate; y is then not a solution and the caller reports
// StepStatus::solver_failed. Counts the linear solves and records the iterations (failures are the caller's).
template <class Eval> bool newton_solve(Eigen::VectorXd& y, Eval&& eval, OpCounters& c) {
  constexpr int kMaxIterations = 50;
  constexpr double kTolerance = 1e-14;
  Eigen::VectorXd F, dy;
  Eigen::MatrixXd J;
  for (int iter = 1; iter <= kMaxIterations; ++iter) {
    eval(y, F, J);
    dy = J.partialPivLu().solve(F);
    ++c.linear_solves;
    y -= dy;
    if (!y.allFinite()) {
      c.record_nonlinear_step(iter);
      return false;
    }
    if (dy.norm() <= kTolerance * std::max(1.0, y.norm())) {
      c.record_nonlinear_step(iter);
      return true;
    }
  }
  c.record_nonlinear_step(kMaxIterations);
  return false;
}

}  // namespace gib::composition
