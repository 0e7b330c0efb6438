// Implicit midpoint rule (`implicit_midpoint`), Tao-Owhadi spec 2.9 table (mentioned for omega = 2000):
//   q+ = q + h/2 (v + v+),   v+ = v - h M^-1 grad V((q + q+)/2).
// Unknown: the midpoint y = (q + q+)/2, root of M (y - (q + h v/2)) + h^2/4 grad V(y) = 0 (full Newton, shared with
// Newmark: position_newton.hpp); then q+ = 2 y - q and v+ = v - h M^-1 grad V(y). Symplectic, symmetric, second
// order, A-stable on oscillators; it keeps every quadratic invariant (angular momentum) to solver accuracy.
// On a general vector field (McLachlan-Quispel spec 12) the same rule, x+ = x + h f((x + x+)/2): Newton with the
// field's analytic Jacobian on the midpoint m = x + h/2 f(m), then x+ = 2 m - x.
#include <Eigen/LU>
#include <memory>

#include "methods/implicit/nonlinear_solver.hpp"
#include "methods/zhang_skeel/mass_inverse.hpp"
#include "methods/zhang_skeel/method_info.hpp"
#include "methods/zhang_skeel/position_newton.hpp"
#include "methods/zhang_skeel/zhang_skeel.hpp"

namespace gib::zhang_skeel {
namespace {

class ImplicitMidpointStepper final : public NewtonianStepper {
 public:
  explicit ImplicitMidpointStepper(const NewtonianModel& model) : newton_(model), mass_inverse_(model) {}

  StepStatus step(NewtonianState& s, double h, OpCounters& c) override {
    y_tilde_ = s.q + (0.5 * h) * s.v;
    y_ = y_tilde_;
    if (!newton_.solve(y_tilde_, 0.25 * h * h, y_, grad_, c)) {
      ++c.solver_failures;
      return StepStatus::solver_failed;
    }
    mass_inverse_.apply(grad_, minv_grad_);
    s.q = 2.0 * y_ - s.q;
    s.v -= h * minv_grad_;
    return StepStatus::ok;
  }

 private:
  PositionNewton newton_;
  MassInverse mass_inverse_;
  Eigen::VectorXd y_tilde_, y_, grad_, minv_grad_;
};

// Newton on F(m) = m - x - h/2 f(m), J_F = I - h/2 df/dx(m), from the explicit predictor m0 = x + h/2 f(x), with
// the solver's defaults (50 iterations, |dm| <= 1e-14 max(1, |m|)).
class VectorFieldImplicitMidpoint final : public VectorFieldStepper {
 public:
  explicit VectorFieldImplicitMidpoint(const VectorFieldModel& model) : model_(model) {}

  StepStatus step(VectorFieldState& s, double h, OpCounters& c) override {
    model_.rhs(s.x, f_);
    ++c.rhs_evals;
    m_ = s.x + (0.5 * h) * f_;
    const Eigen::Index n = m_.size();
    auto eval = [&](const Eigen::VectorXd& m, Eigen::VectorXd& F, Eigen::MatrixXd& J) {
      model_.rhs(m, f_);
      model_.jacobian(m, J);
      ++c.rhs_evals;
      F = m - (s.x + (0.5 * h) * f_);
      J = Eigen::MatrixXd::Identity(n, n) - (0.5 * h) * J;
    };
    const implicit::NewtonResult r = implicit::newton_root(eval, m_, implicit::SolverOptions{}, c, newton_);
    if (const StepStatus st = implicit::record_solve(r, c); st != StepStatus::ok) return st;
    s.x = 2.0 * m_ - s.x;
    return StepStatus::ok;
  }

 private:
  const VectorFieldModel& model_;
  Eigen::VectorXd f_, m_;
  implicit::NewtonWorkspace<Eigen::Dynamic> newton_;
};

}  // namespace

MethodInfo implicit_midpoint() {
  MethodClaims claims = second_order(/*implicit=*/true, /*symmetric=*/true, /*symplectic=*/true);
  claims.invariants.push_back(exact_angular_momentum());
  MethodInfo m = family_method("implicit_midpoint", "Implicit midpoint",
                               "Hairer, Lubich & Wanner 2006 (implicit midpoint rule); Tao and Owhadi 2014 sec. 4.1",
                               claims);
  m.newtonian = [](const NewtonianModel& model, const Json& /*params*/) -> std::unique_ptr<NewtonianStepper> {
    return std::make_unique<ImplicitMidpointStepper>(model);
  };
  m.vector_field = [](const VectorFieldModel& model, const Json& /*params*/) -> std::unique_ptr<VectorFieldStepper> {
    return std::make_unique<VectorFieldImplicitMidpoint>(model);
  };
  return m;
}

}  // namespace gib::zhang_skeel
