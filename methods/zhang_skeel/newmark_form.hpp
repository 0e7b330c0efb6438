// Newmark with gamma = 1/2 in its own variables (q, qdot), Tao-Owhadi Integrator 2, eq. (12) (spec 2.2):
//   q+ = y_tilde + beta h^2 a+,   y_tilde = q + h qdot + h^2/2 (1 - 2 beta) a,   qdot+ = qdot + h/2 (a + a+),
// with a+ the (full or partial) solution of M a+ + grad V(y_tilde + beta h^2 a+) = 0. A Solve provides
//   bool next(const NewtonianState& s, const Eigen::VectorXd& a, const Eigen::VectorXd& y_tilde, double h,
//             Eigen::VectorXd& a_next, Eigen::VectorXd& q_next, OpCounters& c);
// The acceleration a is carried from step to step, keyed on the bits of q: a caller that moves q (or the first step)
// gets a = -M^-1 grad V(q), the converged Newmark value. With a partial solve the carried a is the method's own,
// not -M^-1 grad V(q), which is why the steppers expose it (CarriedAcceleration) for the eta-map checks.
#pragma once

#include <Eigen/Core>
#include <utility>

#include "core/method.hpp"
#include "methods/zhang_skeel/mass_inverse.hpp"

namespace gib::zhang_skeel {

class CarriedAcceleration {
 public:
  virtual ~CarriedAcceleration() = default;
  // The acceleration a_k belonging to the current state (after a step: a_{k+1}); empty before the first step.
  virtual const Eigen::VectorXd& carried_acceleration() const = 0;
};

template <class Solve> class NewmarkStepper final : public NewtonianStepper, public CarriedAcceleration {
 public:
  template <class... Args>
  NewmarkStepper(const NewtonianModel& model, double beta, Args&&... args)
      : model_(model), beta_(beta), mass_inverse_(model), solve_(model, beta, std::forward<Args>(args)...) {}

  StepStatus step(NewtonianState& s, double h, OpCounters& c) override {
    if (!have_a_ || s.q.size() != key_q_.size() || s.q != key_q_) {
      model_.gradient(s.q, grad_);
      ++c.force_evals;
      mass_inverse_.apply(-grad_, a_);
    }
    y_tilde_ = s.q + h * s.v + (0.5 * h * h * (1.0 - 2.0 * beta_)) * a_;
    if (!solve_.next(s, a_, y_tilde_, h, a_next_, q_next_, c)) {
      have_a_ = false;
      ++c.solver_failures;
      return StepStatus::solver_failed;
    }
    s.v += (0.5 * h) * (a_ + a_next_);
    s.q = q_next_;
    a_.swap(a_next_);
    key_q_ = s.q;
    have_a_ = true;
    return StepStatus::ok;
  }

  void reset() override { have_a_ = false; }
  const Eigen::VectorXd& carried_acceleration() const override { return a_; }

 private:
  const NewtonianModel& model_;  // owned by the problem; outlives the stepper
  double beta_;
  MassInverse mass_inverse_;
  Solve solve_;
  Eigen::VectorXd a_, a_next_, grad_, y_tilde_, q_next_, key_q_;
  bool have_a_ = false;
};

}  // namespace gib::zhang_skeel
