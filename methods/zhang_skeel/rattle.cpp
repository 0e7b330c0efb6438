// SHAKE/RATTLE (`rattle`) for the constrained, unpenalised system M qdd = -grad V0 + G^T lambda, g(q) = 0
// (Tao-Owhadi spec 2.9 "SHAKE / RATTLE step"; Ryckaert, Ciccotti & Berendsen 1977; Andersen 1983). On a penalised
// model it takes V0 = model.unpenalized() and g = model.constraint_set(); models without constraints are refused.
//   1. v_half = v + h/2 M^-1 (F(q) + G(q)^T lambda),  q+ = q + h v_half,  F = -grad V0;
//   2. g(q+) = 0 for lambda (m unknowns): Newton with Jacobian h^2/2 G(q+) M^-1 G(q)^T, stopping when the update
//      moves q+ by less than 1e-12 max(1, |q+|) (quadratic convergence leaves g(q+) at round-off), at most 50
//      iterations;
//   3. v+ = v_half + h/2 M^-1 (F(q+) + G(q+)^T mu) with G(q+) v+ = 0: one SPD m x m solve for mu.
// Symplectic on T*{g = 0}, symmetric, second order; it keeps the momenta of translation- and rotation-invariant V0 and
// g (rigid water). The multipliers are exposed through ConstraintMultipliers (rattle.hpp).
#include "methods/zhang_skeel/rattle.hpp"

#include <Eigen/Cholesky>
#include <Eigen/LU>
#include <algorithm>
#include <memory>

#include "core/errors.hpp"
#include "methods/zhang_skeel/mass_inverse.hpp"
#include "methods/zhang_skeel/method_info.hpp"
#include "methods/zhang_skeel/zhang_skeel.hpp"

namespace gib::zhang_skeel {
namespace {

constexpr double kTolerance = 1e-12;
constexpr int kMaxIterations = 50;

const NewtonianModel& unconstrained_part(const NewtonianModel& model) {
  return model.unpenalized() != nullptr ? *model.unpenalized() : model;
}

class RattleStepper final : public NewtonianStepper, public ConstraintMultipliers {
 public:
  explicit RattleStepper(const NewtonianModel& model)
      : base_(unconstrained_part(model)), g_(*model.constraint_set()), mass_inverse_(base_) {}

  StepStatus step(NewtonianState& s, double h, OpCounters& c) override {
    const bool continuing = have_start_ && s.q.size() == key_q_.size() && s.q == key_q_;
    if (!continuing) start_at(s.q, c);
    if (!solve_position_multipliers(s, h, c) || !solve_velocity_multipliers(s, h, c)) {
      have_start_ = false;
      ++c.solver_failures;
      return StepStatus::solver_failed;
    }
    shake_multipliers_ = continuing && mu_.size() == lambda_.size() ? Eigen::VectorXd(0.5 * (lambda_ + mu_)) : lambda_;
    mu_ = mu_next_;
    s.q = q_next_;
    s.v = v_next_;
    // The end of this step is the start of the next: its force and Jacobian are already known.
    minv_force_.swap(minv_force_next_);
    G_.swap(G_next_);
    W_ = W_next_;
    key_q_ = s.q;
    have_start_ = true;
    return StepStatus::ok;
  }

  void reset() override {
    have_start_ = false;
    lambda_.resize(0);
    mu_.resize(0);
  }

  const Eigen::VectorXd& last_multipliers() const override { return shake_multipliers_; }
  const Eigen::VectorXd& last_position_multipliers() const override { return lambda_; }
  const Eigen::VectorXd& last_velocity_multipliers() const override { return mu_; }

  // "lambda_i": the SHAKE-equivalent multiplier Lambda_k of constraint i, which belongs to the START of the latest
  // step (one step before the state the runner records it with; Tao-Owhadi Fig 2b averages over 20 steps).
  void method_observables(std::vector<std::pair<std::string, double>>& out) const override {
    out.clear();
    for (Eigen::Index i = 0; i < shake_multipliers_.size(); ++i)
      out.emplace_back("lambda_" + std::to_string(i + 1), shake_multipliers_(i));
  }

 private:
  // M^-1 F and G at q, with W = M^-1 G^T.
  void start_at(const Eigen::VectorXd& q, OpCounters& c) {
    force_at(q, minv_force_, c);
    g_.jacobian(q, G_);
    W_ = mass_inverse_.apply_columns(G_.transpose());
    mu_.resize(0);  // no velocity multiplier belongs to this q
  }
  void force_at(const Eigen::VectorXd& q, Eigen::VectorXd& minv_force, OpCounters& c) {
    base_.gradient(q, grad_);
    ++c.force_evals;
    mass_inverse_.apply(-grad_, minv_force);
  }

  // Step 2: lambda with g(q_free + h^2/2 W lambda) = 0.
  bool solve_position_multipliers(const NewtonianState& s, double h, OpCounters& c) {
    const double half_h2 = 0.5 * h * h;
    q_free_ = s.q + h * s.v + half_h2 * minv_force_;
    if (lambda_.size() != g_.size()) lambda_.setZero(g_.size());  // else warm start from the last step's lambda
    int iteration = 1;
    for (; iteration <= kMaxIterations; ++iteration) {
      q_next_ = q_free_ + half_h2 * (W_ * lambda_);
      g_.values(q_next_, residual_);
      g_.jacobian(q_next_, G_next_);
      const Eigen::PartialPivLU<Eigen::MatrixXd> lu(half_h2 * (G_next_ * W_));
      ++c.linear_solves;
      const Eigen::VectorXd dlambda = lu.solve(-residual_);
      lambda_ += dlambda;
      if (!lambda_.allFinite()) break;
      // Converged when the update moves q+ by less than tol: a tolerance on lambda itself cannot be met at small h,
      // where round-off in g(q+) ~ eps |q|^2 makes lambda uncertain by eps |q|^2 / (h^2 |G W|).
      if ((half_h2 * (W_ * dlambda)).norm() <= kTolerance * std::max(1.0, q_next_.norm())) {
        c.record_nonlinear_step(iteration);
        q_next_ = q_free_ + half_h2 * (W_ * lambda_);
        v_half_ = s.v + (0.5 * h) * (minv_force_ + W_ * lambda_);
        return q_next_.allFinite();
      }
    }
    c.record_nonlinear_step(std::min(iteration, kMaxIterations));
    lambda_.resize(0);
    return false;
  }

  // Step 3: mu with G(q+) v+ = 0.
  bool solve_velocity_multipliers(const NewtonianState& /*s*/, double h, OpCounters& c) {
    force_at(q_next_, minv_force_next_, c);
    g_.jacobian(q_next_, G_next_);
    W_next_ = mass_inverse_.apply_columns(G_next_.transpose());
    v_next_ = v_half_ + (0.5 * h) * minv_force_next_;
    const Eigen::LLT<Eigen::MatrixXd> llt(G_next_ * W_next_);
    ++c.linear_solves;
    if (llt.info() != Eigen::Success) return false;
    mu_next_ = llt.solve(-(2.0 / h) * (G_next_ * v_next_));
    v_next_ += (0.5 * h) * (W_next_ * mu_next_);
    return v_next_.allFinite();
  }

  const NewtonianModel& base_;  // owned by the problem; outlive the stepper
  const ConstraintSet& g_;
  MassInverse mass_inverse_;
  bool have_start_ = false;
  Eigen::VectorXd key_q_, grad_, minv_force_, minv_force_next_, q_free_, q_next_, v_half_, v_next_, residual_;
  Eigen::MatrixXd G_, W_, G_next_, W_next_;
  Eigen::VectorXd lambda_, mu_, mu_next_, shake_multipliers_;
};

}  // namespace

MethodInfo rattle() {
  MethodClaims claims = second_order(/*implicit=*/true, /*symmetric=*/true, /*symplectic=*/true);
  claims.invariants.push_back(exact_angular_momentum());
  MethodInfo m = family_method("rattle", "SHAKE/RATTLE (constrained)",
                               "Ryckaert, Ciccotti & Berendsen 1977 (SHAKE); Andersen 1983 (RATTLE); Tao and Owhadi 2014 sec. 4",
                               claims);
  m.enforces_constraints = true;
  m.newtonian = [](const NewtonianModel& model, const Json& /*params*/) -> std::unique_ptr<NewtonianStepper> {
    if (model.constraint_set() == nullptr || model.constraint_set()->size() == 0)
      throw InputError("method rattle enforces holonomic constraints, but this model has none");
    return std::make_unique<RattleStepper>(model);
  };
  return m;
}

}  // namespace gib::zhang_skeel
