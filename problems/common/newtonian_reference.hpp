// A numerical reference solution for Newtonian problems (Tao-Owhadi spec 4, 7): any NewtonianModel, v' = -M^-1
// grad V, or any second-order system q'' = a(q, q') whose state maps to the problem's (the pendula's constrained
// solution in generalised coordinates, problems/common/planar_chain.hpp).
//
// The integration, its error estimate, determinism and cost are those of problems/common/ode_reference.hpp, on
// the flat state (q, q'); the estimate is the Euclidean distance over (q, v) in the problem's coordinates.
//
// Thread safety: every member may be called concurrently (one mutex guards the integrations and the memo).
#pragma once

#include <Eigen/Core>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "core/problem.hpp"
#include "problems/common/ode_reference.hpp"

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

using NewtonianReferenceSettings = OdeReferenceSettings;

class NewtonianNumericalReference final : public NewtonianReference {
 public:
  explicit NewtonianNumericalReference(SecondOrderOde ode, NewtonianReferenceSettings settings = {});

  // t >= 0 and finite (throws std::domain_error otherwise); std::runtime_error when the step-size control fails
  // (a solution that blows up).
  NewtonianState state(double t) const override;
  std::string kind() const override { return "numerical"; }
  double error_estimate(double t) const override;

  // Step attempts so far (both integrations, the finishing ones included): tests of laziness and reuse.
  std::int64_t step_attempts() const;

 private:
  std::unique_ptr<OdeReference<NewtonianState>> ref_;
};

// The equations of motion of a Newtonian model: q'' = -M^-1 grad V(q) (a Cholesky factor of a non-diagonal M).
SecondOrderOde newtonian_ode(std::shared_ptr<const NewtonianModel> model, const NewtonianState& x0);

// The constrained equations of motion (index-1 form) of an unconstrained model V0 under holonomic constraints g:
//   q'' = M^-1 (-grad V0 - G^T lambda),  (G M^-1 G^T) lambda = -G M^-1 grad V0 + (v^T Hess g_i v)_i,
// so that g'' = G q'' + (v^T Hess g_i v)_i = 0. Starting on g = 0 with G v = 0, the solution stays on the constraints up
// to the integration's error (the rigid-water cluster's constrained reference). Diagonal M only.
SecondOrderOde constrained_newtonian_ode(std::shared_ptr<const NewtonianModel> model,
                                         std::shared_ptr<const ConstraintSet> constraints, const NewtonianState& x0);

// One reference per distinct key in the process, built by `build` on first use: every cell of a sweep builds its
// own problem object, and the integration is the expensive part. The key must identify the trajectory (the
// problem's canonical parameters, initial state included, and which reference). Bounded (64 entries).
std::shared_ptr<const NewtonianReference> shared_newtonian_reference(
    const std::string& key, const std::function<std::shared_ptr<const NewtonianReference>()>& build);

}  // namespace gib
