#include "methods/zhang_skeel/position_newton.hpp"

#include <algorithm>

namespace gib::zhang_skeel {

bool PositionNewton::solve(const Eigen::VectorXd& y_tilde, double c, Eigen::VectorXd& y, Eigen::VectorXd& grad,
                           OpCounters& counters) {
  const Eigen::MatrixXd& M = model_.mass_matrix();
  int iteration = 1;
  for (; iteration <= kMaxIterations; ++iteration) {
    model_.gradient(y, grad);
    ++counters.force_evals;
    residual_.noalias() = M * (y - y_tilde);
    residual_ += c * grad;
    if (!solver_.assemble(y, c) || !solver_.solve(-residual_, dy_, counters)) break;
    y += dy_;
    if (!y.allFinite()) break;
    if (dy_.norm() <= kTolerance * std::max(1.0, y.norm())) {
      counters.record_nonlinear_step(iteration);
      // grad is already at y when the last update was exactly zero (beta = 0: y = y_tilde from the start).
      if (!dy_.isZero(0.0)) {
        model_.gradient(y, grad);
        ++counters.force_evals;
      }
      return grad.allFinite();
    }
  }
  counters.record_nonlinear_step(std::min(iteration, kMaxIterations));
  return false;
}

}  // namespace gib::zhang_skeel
