// The Zhang-Skeel force of eq. (3) (spec 2.4) and its simplifications, for VerletFormStepper and zs_euler:
//   (M + beta h^2 K(x)) a = -grad V(x),   f = a - 1/2 beta^2 h^4 M^-1 V'''(x)[a, a]   (with the correction),
// K = Hess V (Z&S, Z&Ss) or Hess V1 of the stiff part (Integrator 5, spec 2.6); Z&Ss and Integrator 5 take f = a.
// The correction is what makes M Df symmetric: M f = -grad W(x) with W the value of the discrete Lagrangian's
// a-dependent part at its stationary a (spec 2.4, eq. (16)), so the scheme is variational.
// Cost per evaluation: one gradient, one Hessian, one symmetric solve, and one V''' contraction with the correction.
#pragma once

#include <Eigen/Core>

#include "core/counters.hpp"
#include "core/model.hpp"
#include "methods/zhang_skeel/mass_inverse.hpp"
#include "methods/zhang_skeel/symmetric_solver.hpp"

namespace gib::zhang_skeel {

class ZhangSkeelForce {
 public:
  static constexpr bool kDependsOnStep = true;

  ZhangSkeelForce(const NewtonianModel& model, double beta, Curvature curvature, bool third_derivative_correction)
      : model_(model),
        beta_(beta),
        correction_(third_derivative_correction),
        solver_(model, curvature),
        mass_inverse_(model) {}

  bool evaluate(const Eigen::VectorXd& x, double h, Eigen::VectorXd& f, OpCounters& c);

 private:
  const NewtonianModel& model_;  // owned by the problem; outlives the stepper
  double beta_;
  bool correction_;
  SymmetricSolver solver_;
  MassInverse mass_inverse_;
  Eigen::VectorXd minus_grad_, a_, third_, correction_term_;
};

}  // namespace gib::zhang_skeel
