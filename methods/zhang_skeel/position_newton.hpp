// The nonlinear solve shared by the fully implicit Newtonian methods. Each of them is one equation for a position y,
//   F(y) = M (y - y_tilde) + c grad V(y) = 0,   Newton Jacobian M + c Hess V(y):
//   * Newmark (spec 2.2 "Nonlinear solve"):  y = q_{k+1},  y_tilde = q_k + h qdot_k + h^2/2 (1 - 2 beta) a_k, c = beta h^2;
//   * push-forward Newmark (spec 2.3):       y = x_{k+1} + beta h^2 a_{k+1}, y_tilde = x_{k+1}, c = beta h^2;
//   * implicit midpoint (spec 2.9 table):    y = (q_k + q_{k+1}) / 2, y_tilde = q_k + h v_k / 2, c = h^2 / 4.
// Newton stops when the update is below tol * max(1, |y|) (Krysl's rule, methods/implicit/): it converges
// quadratically, so the last iterate is exact to round-off, which the symmetry check Phi_{-h} o Phi_h = id needs.
// At most max_iter iterations, then a failure: never a hang, never a throw.
#pragma once

#include <Eigen/Core>

#include "core/counters.hpp"
#include "core/model.hpp"
#include "methods/zhang_skeel/symmetric_solver.hpp"

namespace gib::zhang_skeel {

class PositionNewton {
 public:
  static constexpr double kTolerance = 1e-12;
  static constexpr int kMaxIterations = 50;

  explicit PositionNewton(const NewtonianModel& model) : model_(model), solver_(model, Curvature::full_hessian) {}

  // y: the starting guess on entry, the root on success (unspecified on failure).
  // grad: grad V(y) at the root. Records the iterations in counters (also on failure).
  bool solve(const Eigen::VectorXd& y_tilde, double c, Eigen::VectorXd& y, Eigen::VectorXd& grad, OpCounters& counters);

 private:
  const NewtonianModel& model_;  // owned by the problem; outlives the stepper
  SymmetricSolver solver_;
  Eigen::VectorXd residual_, dy_;
};

}  // namespace gib::zhang_skeel
