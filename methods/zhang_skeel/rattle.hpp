// The multipliers of the RATTLE stepper (`rattle`, rattle.cpp), for the lambda-estimator comparison of Tao-Owhadi
// 3 item 3 and Figs 2b/5: the harness dynamic_casts the NewtonianStepper to ConstraintMultipliers.
//
// Sign convention (eq. 6): M qdd = -grad V + G^T lambda, so that lambda ~ -omega^2 g of a penalised run.
// Timing: a RATTLE step from t_k to t_{k+1} applies h/2 G(q_k)^T lambda_k at its start (the SHAKE multiplier) and
// h/2 G(q_{k+1})^T mu_k at its end (the velocity projection). The total impulse at t_k is h G(q_k)^T Lambda_k with
// Lambda_k = (lambda_k + mu_{k-1}) / 2 (spec 2.9, A6), the SHAKE-equivalent multiplier at t_k.
#pragma once

#include <Eigen/Core>

namespace gib::zhang_skeel {

class ConstraintMultipliers {
 public:
  virtual ~ConstraintMultipliers() = default;
  // Lambda_k at t_k, the START of the latest step (not its end): (lambda_k + mu_{k-1}) / 2 when the previous step
  // of this stepper ended at the same q, else lambda_k alone (first step, or the caller moved the state). Empty
  // before the first step.
  virtual const Eigen::VectorXd& last_multipliers() const = 0;
  // lambda_k (at t_k) and mu_k (at t_{k+1}) of the latest step.
  virtual const Eigen::VectorXd& last_position_multipliers() const = 0;
  virtual const Eigen::VectorXd& last_velocity_multipliers() const = 0;
  // True when the multipliers are solved block by block (one small Newton and one small SPD solve per molecule,
  // rattle.cpp), false when by the dense solve on all of them; decided when the stepper is built.
  virtual bool solves_by_block() const = 0;
};

}  // namespace gib::zhang_skeel
