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
//
// Parameter "multiplier_solve" (Tao-Owhadi spec 4.3, "Timings"):
//   "block" (default): when the constraints come in independent blocks (ConstraintSet::block_size() > 0: a water's
//     three bonds touch only its own nine coordinates) and M is diagonal, G(q+) M^-1 G(q)^T and G M^-1 G^T are block
//     diagonal, and steps 2 and 3 are solved molecule by molecule: per Newton iteration one c x c LU per block, per
//     step one c x c Cholesky per block (c = 3 for water), O(m) work and no dense G. Other models keep the dense
//     solve (it is the block solve with one block).
//   "global": the dense Newton on all m multipliers at once (an m x m LU per iteration and the dense m x n G), what
//     the paper's Matlab fsolve on the whole system did; kept to reproduce its timing statements as ratios.
// Both take the same iterations: the convergence test is the global one above in both (every block is updated in
// every iteration until the whole update is small), so the two differ only by round-off in the small solves, and
// the counters agree (one linear solve per Newton iteration and one for mu, whether dense or block diagonal).
#include "methods/zhang_skeel/rattle.hpp"

#include <Eigen/Cholesky>
#include <Eigen/LU>
#include <algorithm>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

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

// The linear algebra of the multipliers: G and W = M^-1 G^T at the start q of a step and at its end q+, the Newton
// update of lambda and the solve for mu. The stepper owns the iteration and its convergence test.
class MultiplierAlgebra {
 public:
  virtual ~MultiplierAlgebra() = default;
  // G and W at q, the start of a step.
  virtual void start_at(const Eigen::VectorXd& q) = 0;
  // The end of this step is the start of the next: its G and W become the start's.
  virtual void end_becomes_start() = 0;
  // out = W(q) lambda, an n-vector.
  virtual void apply_start_w(const Eigen::VectorXd& lambda, Eigen::VectorXd& out) const = 0;
  // out = W(q+) mu.
  virtual void apply_end_w(const Eigen::VectorXd& mu, Eigen::VectorXd& out) const = 0;
  // dlambda with (half_h2 G(q+) W(q)) dlambda = -residual, residual = g(q+).
  virtual void newton_update(const Eigen::VectorXd& q_next, const Eigen::VectorXd& residual, double half_h2,
                             Eigen::VectorXd& dlambda) = 0;
  // G and W at q+, and mu with G(q+) W(q+) mu = -(2/h) G(q+) v; false when G W is not positive definite.
  virtual bool velocity_multipliers(const Eigen::VectorXd& q_next, const Eigen::VectorXd& v, double h,
                                    Eigen::VectorXd& mu) = 0;
};

// All m multipliers at once: the dense m x n G and m x m factorisations.
class DenseAlgebra final : public MultiplierAlgebra {
 public:
  DenseAlgebra(const ConstraintSet& g, const MassInverse& mass_inverse) : g_(g), mass_inverse_(mass_inverse) {}

  void start_at(const Eigen::VectorXd& q) override {
    g_.jacobian(q, G_);
    W_ = mass_inverse_.apply_columns(G_.transpose());
  }
  void end_becomes_start() override {
    G_.swap(G_next_);
    W_.swap(W_next_);
  }
  void apply_start_w(const Eigen::VectorXd& lambda, Eigen::VectorXd& out) const override { out.noalias() = W_ * lambda; }
  void apply_end_w(const Eigen::VectorXd& mu, Eigen::VectorXd& out) const override { out.noalias() = W_next_ * mu; }
  void newton_update(const Eigen::VectorXd& q_next, const Eigen::VectorXd& residual, double half_h2,
                     Eigen::VectorXd& dlambda) override {
    g_.jacobian(q_next, G_next_);
    const Eigen::PartialPivLU<Eigen::MatrixXd> lu(half_h2 * (G_next_ * W_));
    dlambda = lu.solve(-residual);
  }
  bool velocity_multipliers(const Eigen::VectorXd& q_next, const Eigen::VectorXd& v, double h,
                            Eigen::VectorXd& mu) override {
    g_.jacobian(q_next, G_next_);
    W_next_ = mass_inverse_.apply_columns(G_next_.transpose());
    const Eigen::LLT<Eigen::MatrixXd> llt(G_next_ * W_next_);
    if (llt.info() != Eigen::Success) return false;
    mu = llt.solve(-(2.0 / h) * (G_next_ * v));
    return true;
  }

 private:
  const ConstraintSet& g_;
  const MassInverse& mass_inverse_;
  Eigen::MatrixXd G_, W_, G_next_, W_next_;
};

// Block by block (ConstraintSet::jacobian_blocks): block k's multipliers move only block k's coordinates (M is
// diagonal), and its constraints depend only on them, so every matrix above is block diagonal. Scratch storage is
// kept per block so that a step allocates nothing once the sizes are known.
class BlockAlgebra final : public MultiplierAlgebra {
 public:
  BlockAlgebra(const ConstraintSet& g, const Eigen::VectorXd& inverse_mass)
      : g_(g), inverse_mass_(inverse_mass), b_(g.block_size()) {}

  void start_at(const Eigen::VectorXd& q) override {
    g_.jacobian_blocks(q, start_);
    weights(start_, W_);
  }
  void end_becomes_start() override {
    start_.swap(end_);
    W_.swap(W_next_);
  }
  void apply_start_w(const Eigen::VectorXd& lambda, Eigen::VectorXd& out) const override { apply(start_, W_, lambda, out); }
  void apply_end_w(const Eigen::VectorXd& mu, Eigen::VectorXd& out) const override { apply(end_, W_next_, mu, out); }

  void newton_update(const Eigen::VectorXd& q_next, const Eigen::VectorXd& residual, double half_h2,
                     Eigen::VectorXd& dlambda) override {
    g_.jacobian_blocks(q_next, end_);
    dlambda.resize(residual.size());
    reserve_scratch();
    for (std::size_t k = 0; k < start_.size(); ++k) {
      const std::vector<int>& rows = start_[k].constraints;
      if (rows.empty()) continue;
      Scratch& s = scratch_[k];
      s.J.noalias() = end_[k].G * W_[k];
      s.J *= half_h2;
      s.lu.compute(s.J);
      gather(residual, rows, s.rhs);
      s.rhs = -s.rhs;
      s.x.noalias() = s.lu.solve(s.rhs);
      scatter(s.x, rows, dlambda);
    }
  }

  bool velocity_multipliers(const Eigen::VectorXd& q_next, const Eigen::VectorXd& v, double h,
                            Eigen::VectorXd& mu) override {
    g_.jacobian_blocks(q_next, end_);
    weights(end_, W_next_);
    mu.resize(g_.size());
    reserve_scratch();
    for (std::size_t k = 0; k < end_.size(); ++k) {
      const std::vector<int>& rows = end_[k].constraints;
      if (rows.empty()) continue;
      Scratch& s = scratch_[k];
      s.J.noalias() = end_[k].G * W_next_[k];
      s.llt.compute(s.J);
      if (s.llt.info() != Eigen::Success) return false;
      s.rhs.noalias() = end_[k].G * v.segment(static_cast<Eigen::Index>(k) * b_, b_);
      s.rhs *= -(2.0 / h);
      s.x.noalias() = s.llt.solve(s.rhs);
      scatter(s.x, rows, mu);
    }
    return true;
  }

 private:
  struct Scratch {
    Eigen::MatrixXd J;
    Eigen::VectorXd rhs, x;
    Eigen::PartialPivLU<Eigen::MatrixXd> lu;
    Eigen::LLT<Eigen::MatrixXd> llt;
  };

  static void gather(const Eigen::VectorXd& from, const std::vector<int>& rows, Eigen::VectorXd& to) {
    to.resize(static_cast<Eigen::Index>(rows.size()));
    for (std::size_t j = 0; j < rows.size(); ++j) to(static_cast<Eigen::Index>(j)) = from(rows[j]);
  }
  static void scatter(const Eigen::VectorXd& from, const std::vector<int>& rows, Eigen::VectorXd& to) {
    for (std::size_t j = 0; j < rows.size(); ++j) to(rows[j]) = from(static_cast<Eigen::Index>(j));
  }

  // W_k = M_k^-1 G_k^T (b x c_k) for every block.
  void weights(const std::vector<ConstraintSet::JacobianBlock>& blocks, std::vector<Eigen::MatrixXd>& W) const {
    W.resize(blocks.size());
    for (std::size_t k = 0; k < blocks.size(); ++k)
      W[k].noalias() = inverse_mass_.segment(static_cast<Eigen::Index>(k) * b_, b_).asDiagonal() * blocks[k].G.transpose();
  }

  // out = W lambda: block k's coordinates move by W_k lambda_k.
  void apply(const std::vector<ConstraintSet::JacobianBlock>& blocks, const std::vector<Eigen::MatrixXd>& W,
             const Eigen::VectorXd& lambda, Eigen::VectorXd& out) const {
    out.resize(inverse_mass_.size());
    for (std::size_t k = 0; k < blocks.size(); ++k) {
      auto segment = out.segment(static_cast<Eigen::Index>(k) * b_, b_);
      const std::vector<int>& rows = blocks[k].constraints;
      segment.setZero();
      for (std::size_t j = 0; j < rows.size(); ++j) segment += lambda(rows[j]) * W[k].col(static_cast<Eigen::Index>(j));
    }
  }

  void reserve_scratch() {
    if (scratch_.size() != start_.size()) scratch_.resize(start_.size());
  }

  const ConstraintSet& g_;
  const Eigen::VectorXd& inverse_mass_;
  const int b_;
  std::vector<ConstraintSet::JacobianBlock> start_, end_;
  std::vector<Eigen::MatrixXd> W_, W_next_;
  std::vector<Scratch> scratch_;
};

enum class MultiplierSolve { block, global };

MultiplierSolve multiplier_solve_from(const Json& params) {
  if (!params.is_object() || !params.contains("multiplier_solve")) return MultiplierSolve::block;
  const Json& v = params.at("multiplier_solve");
  if (v == "block") return MultiplierSolve::block;
  if (v == "global") return MultiplierSolve::global;
  throw InputError("method rattle: parameter multiplier_solve must be \"block\" or \"global\", got " + v.dump());
}

// The block solve needs constraints in blocks that tile q and a diagonal M (a full M would couple the blocks'
// coordinates through M^-1).
bool block_structure(const NewtonianModel& base, const ConstraintSet& g) {
  const int b = g.block_size();
  return b > 0 && base.diagonal_mass() && base.dim() % b == 0;
}

class RattleStepper final : public NewtonianStepper, public ConstraintMultipliers {
 public:
  RattleStepper(const NewtonianModel& model, MultiplierSolve solve)
      : base_(unconstrained_part(model)), g_(*model.constraint_set()), mass_inverse_(base_) {
    if (solve == MultiplierSolve::block && block_structure(base_, g_)) {
      inverse_mass_ = base_.mass_matrix().diagonal().cwiseInverse();
      algebra_ = std::make_unique<BlockAlgebra>(g_, inverse_mass_);
      by_block_ = true;
    } else {
      algebra_ = std::make_unique<DenseAlgebra>(g_, mass_inverse_);
    }
  }

  StepStatus step(NewtonianState& s, double h, OpCounters& c) override {
    const bool continuing = have_start_ && s.q.size() == key_q_.size() && s.q == key_q_;
    if (!continuing) start_at(s.q, c);
    if (!solve_position_multipliers(s, h, c) || !solve_velocity_multipliers(h, c)) {
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
    algebra_->end_becomes_start();
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
  bool solves_by_block() const override { return by_block_; }

  // "lambda_i": the SHAKE-equivalent multiplier Lambda_k of constraint i, which belongs to the START of the latest
  // step (one step before the state the runner records it with; Tao-Owhadi Fig 2b averages over 20 steps).
  void method_observables(std::vector<std::pair<std::string, double>>& out) const override {
    out.clear();
    for (Eigen::Index i = 0; i < shake_multipliers_.size(); ++i)
      out.emplace_back("lambda_" + std::to_string(i + 1), shake_multipliers_(i));
  }

 private:
  // M^-1 F, G and W = M^-1 G^T at q.
  void start_at(const Eigen::VectorXd& q, OpCounters& c) {
    force_at(q, minv_force_, c);
    algebra_->start_at(q);
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
      algebra_->apply_start_w(lambda_, w_lambda_);
      q_next_ = q_free_ + half_h2 * w_lambda_;
      g_.values(q_next_, residual_);
      algebra_->newton_update(q_next_, residual_, half_h2, dlambda_);
      ++c.linear_solves;
      lambda_ += dlambda_;
      if (!lambda_.allFinite()) break;
      // Converged when the update moves q+ by less than tol: a tolerance on lambda itself cannot be met at small h,
      // where round-off in g(q+) ~ eps |q|^2 makes lambda uncertain by eps |q|^2 / (h^2 |G W|). The test is on the
      // whole update, also for the block solve (file comment).
      algebra_->apply_start_w(dlambda_, w_lambda_);
      if ((half_h2 * w_lambda_).norm() <= kTolerance * std::max(1.0, q_next_.norm())) {
        c.record_nonlinear_step(iteration);
        algebra_->apply_start_w(lambda_, w_lambda_);
        q_next_ = q_free_ + half_h2 * w_lambda_;
        v_half_ = s.v + (0.5 * h) * (minv_force_ + w_lambda_);
        return q_next_.allFinite();
      }
    }
    c.record_nonlinear_step(std::min(iteration, kMaxIterations));
    lambda_.resize(0);
    return false;
  }

  // Step 3: mu with G(q+) v+ = 0.
  bool solve_velocity_multipliers(double h, OpCounters& c) {
    force_at(q_next_, minv_force_next_, c);
    v_next_ = v_half_ + (0.5 * h) * minv_force_next_;
    const bool spd = algebra_->velocity_multipliers(q_next_, v_next_, h, mu_next_);
    ++c.linear_solves;
    if (!spd) return false;
    algebra_->apply_end_w(mu_next_, w_lambda_);
    v_next_ += (0.5 * h) * w_lambda_;
    return v_next_.allFinite();
  }

  const NewtonianModel& base_;  // owned by the problem; outlive the stepper
  const ConstraintSet& g_;
  MassInverse mass_inverse_;
  Eigen::VectorXd inverse_mass_;  // M^-1's diagonal, for the block solve
  std::unique_ptr<MultiplierAlgebra> algebra_;
  bool by_block_ = false;
  bool have_start_ = false;
  Eigen::VectorXd key_q_, grad_, minv_force_, minv_force_next_, q_free_, q_next_, v_half_, v_next_, residual_;
  Eigen::VectorXd w_lambda_, dlambda_;
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
  m.default_params = Json{{"multiplier_solve", "block"}};
  m.newtonian = [](const NewtonianModel& model, const Json& params) -> std::unique_ptr<NewtonianStepper> {
    const MultiplierSolve solve = multiplier_solve_from(params);
    if (model.constraint_set() == nullptr || model.constraint_set()->size() == 0)
      throw InputError("method rattle enforces holonomic constraints, but this model has none");
    return std::make_unique<RattleStepper>(model, solve);
  };
  return m;
}

}  // namespace gib::zhang_skeel
