#include "methods/zhang_skeel/zhang_skeel_force.hpp"

namespace gib::zhang_skeel {

bool ZhangSkeelForce::evaluate(const Eigen::VectorXd& x, double h, Eigen::VectorXd& f, OpCounters& c) {
  const double h2 = h * h;
  model_.gradient(x, minus_grad_);
  minus_grad_ = -minus_grad_;  // in place: -grad as an argument would be a fresh vector per evaluation
  ++c.force_evals;
  if (!solver_.solve(x, beta_ * h2, minus_grad_, a_, c)) return false;
  if (!correction_) {
    f = a_;
    return true;
  }
  model_.third_derivative_contracted(x, a_, third_);
  mass_inverse_.apply(third_, correction_term_);
  f = a_ - (0.5 * beta_ * beta_ * h2 * h2) * correction_term_;
  return f.allFinite();
}

}  // namespace gib::zhang_skeel
