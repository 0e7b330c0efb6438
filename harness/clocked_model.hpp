// The timing pass's split of a run into time inside the model and the rest (results/SCHEMA.md "Timing"; Tao-Owhadi
// spec 4.3 "Timings": "SHAKE 42234 s, of which 14272 s are nonlinear solves and ~28000 s are V, grad V").
//
// ClockedNewtonianModel forwards every virtual of NewtonianModel to the model it wraps and adds the steady_clock time
// of the calls that evaluate the potential (V, grad V, the Hessian in every form, V''') to a ModelClock. Its
// unpenalized() is the unpenalised model clocked into the same ModelClock, so RATTLE's forces are timed too; its
// constraint_set() is the wrapped one, not clocked: constraint values and Jacobians belong to the multiplier
// solves, as they did in the paper's fsolve. The mass matrix and the structure queries are not clocked (a
// reference or a flag, read once when a stepper is built).
//
// A clock reading costs tens of nanoseconds (49 ns measured on the 2-core AMD EPYC VM under load, tsc clock source):
// noise against a water cluster's force evaluation (microseconds), but a pendulum's gradient costs less than the
// clock, so the timing pass runs the clocked model in repetitions of its own (harness/timing.cpp) and the reported
// median_s stays the unclocked one.
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>

#include "core/method.hpp"
#include "core/model.hpp"

namespace gib {

struct ModelClock {
  std::chrono::steady_clock::duration inside{};  // summed over the clocked calls
  std::int64_t calls = 0;
  double seconds() const { return std::chrono::duration<double>(inside).count(); }
};

class ClockedNewtonianModel final : public NewtonianModel {
 public:
  // inner and clock outlive this model.
  ClockedNewtonianModel(const NewtonianModel& inner, ModelClock& clock);

  int dim() const override { return inner_.dim(); }
  const Eigen::MatrixXd& mass_matrix() const override { return inner_.mass_matrix(); }
  bool diagonal_mass() const override { return inner_.diagonal_mass(); }
  double potential(const Eigen::VectorXd& q) const override;
  void gradient(const Eigen::VectorXd& q, Eigen::VectorXd& g) const override;
  void hessian(const Eigen::VectorXd& q, Eigen::MatrixXd& H) const override;
  bool sparse_hessian() const override { return inner_.sparse_hessian(); }
  void hessian_sparse(const Eigen::VectorXd& q, Eigen::SparseMatrix<double, Eigen::ColMajor, int>& H) const override;
  void third_derivative_contracted(const Eigen::VectorXd& q, const Eigen::VectorXd& a,
                                   Eigen::VectorXd& out) const override;
  bool has_stiff_part() const override { return inner_.has_stiff_part(); }
  void stiff_hessian(const Eigen::VectorXd& q, Eigen::MatrixXd& H) const override;
  int stiff_block_size() const override { return inner_.stiff_block_size(); }
  void stiff_hessian_blocks(const Eigen::VectorXd& q, std::vector<Eigen::MatrixXd>& blocks) const override;
  const ConstraintSet* constraint_set() const override { return inner_.constraint_set(); }
  const NewtonianModel* unpenalized() const override { return unpenalized_.get(); }

 private:
  const NewtonianModel& inner_;
  ModelClock& clock_;
  std::unique_ptr<ClockedNewtonianModel> unpenalized_;  // null when the inner model has none
};

// A stepper built on a clocked model, with the model it refers to: members are destroyed in reverse order, so the
// stepper goes before its model.
template <class State> struct ClockedStepper {
  std::shared_ptr<const void> model;
  std::unique_ptr<Stepper<State>> stepper;
};

}  // namespace gib
