// A numerical reference solution for Newtonian problems (Tao-Owhadi spec 4, 7): any NewtonianModel, v' = -M^-1
// grad V, or any second-order system q'' = a(q, q') whose state maps to the problem's (the pendula's constrained
// solution in generalised coordinates, problems/common/planar_chain.hpp).
//
// Two integrations of (q, q') with Boost.Odeint's Runge-Kutta-Fehlberg 7(8) stepper under a standard step-size
// controller (a step is accepted when |err_i| <= tol (1 + |y_i|), the next step is 0.9 err^(-1/8) times this one,
// within [0.2, 5]):
//   primary  tolerance 1e-13; state(t) is this one;
//   check    10 times looser, integrated only when error_estimate is asked for.
// error_estimate(t) is the largest Euclidean distance between the two, over (q, v) in the problem's coordinates,
// at the checkpoints k * interval <= t and at t, plus a round-off floor 1e-15 (1 + |y|): the looser run's own
// error dominates the difference, so it overestimates the primary's error (by ~10x when the error scales with
// the tolerance), and it grows with t as the error does, including exponentially on chaotic orbits.
//
// Determinism and cost: each integration follows one step sequence fixed by the initial state and the
// controller alone (no step is cut short to land on a requested time). state(t) finishes from the last accepted
// step at or before t with a separate short controlled integration, so it depends on t alone, whatever was
// asked before or by which thread. Increasing times continue from where the last request stopped; an earlier
// time restarts from the last checkpoint of the sequence at or before it. Building a reference integrates
// nothing.
//
// Thread safety: every member may be called concurrently (one mutex guards the integrations and the memo).
#pragma once

#include <Eigen/Core>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "core/problem.hpp"

namespace gib {

// q'' = a(q, q') in some coordinates, and the map of (q, q') to the problem's Newtonian state.
struct SecondOrderOde {
  Eigen::VectorXd q0, v0;
  std::function<void(const Eigen::VectorXd& q, const Eigen::VectorXd& v, Eigen::VectorXd& a)> acceleration;
  // Null: the coordinates are the problem's own.
  std::function<NewtonianState(const Eigen::VectorXd& q, const Eigen::VectorXd& v)> output;
  // Reported as state(0), bit for bit (the problem's initial state, which output(q0, v0) reproduces only up to
  // rounding); empty: output(q0, v0).
  NewtonianState initial;
};

struct NewtonianReferenceSettings {
  double checkpoint_interval = 10.0;  // > 0, in the problem's time unit
  double tolerance = 1e-13;           // primary: |err_i| <= tolerance (1 + |y_i|) per step
  double check_factor = 10.0;         // the check integration runs at tolerance * check_factor (> 1)
};

class NewtonianNumericalReference final : public NewtonianReference {
 public:
  explicit NewtonianNumericalReference(SecondOrderOde ode, NewtonianReferenceSettings settings = {});
  ~NewtonianNumericalReference() override;
  NewtonianNumericalReference(const NewtonianNumericalReference&) = delete;
  NewtonianNumericalReference& operator=(const NewtonianNumericalReference&) = delete;

  // t >= 0 and finite (throws std::domain_error otherwise); std::runtime_error when the step-size control fails
  // (a solution that blows up).
  NewtonianState state(double t) const override;
  std::string kind() const override { return "numerical"; }
  double error_estimate(double t) const override;

  // Step attempts so far (both integrations, the finishing ones included): tests of laziness and reuse.
  std::int64_t step_attempts() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// The equations of motion of a Newtonian model: q'' = -M^-1 grad V(q) (a Cholesky factor of a non-diagonal M).
SecondOrderOde newtonian_ode(std::shared_ptr<const NewtonianModel> model, const NewtonianState& x0);

// One reference per distinct key in the process, built by `build` on first use: every cell of a sweep builds its
// own problem object, and the integration is the expensive part. The key must identify the trajectory (the
// problem's canonical parameters, initial state included, and which reference). Bounded (64 entries).
std::shared_ptr<const NewtonianReference> shared_newtonian_reference(
    const std::string& key, const std::function<std::shared_ptr<const NewtonianReference>()>& build);

}  // namespace gib
