// The step shared by every Krysl method: explicit set-up, one nonlinear solve (methods/implicit/), the explicit
// post-processing. A method is a System:
//   static constexpr int N;                                             unknowns of the solve
//   Start<N> prepare(const RigidBodyState& x, double h, OpCounters& c); explicit parts, predictor; keeps &c
//   void operator()(const VecN<N>& z, VecN<N>& g, MatN<N>* dg);         the fixed-point map and its Jacobian
//   RigidBodyState finish(const VecN<N>& z);                            the new state from the root
// Besides the solver's own safeguard (a root far from the predictor), the step rejects a root whose energy
// jumps by more than half the initial energy scale (spec 6 item 4) and re-solves it by fixed-point iteration.
#pragma once

#include <cmath>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

#include "core/method.hpp"
#include "methods/implicit/nonlinear_solver.hpp"

namespace gib::krysl {

template <int N>
struct Start {
  implicit::VecN<N> predictor;  // the explicit guess of spec 5.x
  implicit::VecN<N> previous;   // the unknowns at the state's own values (start "previous")
};

// Tests reach a stepper's fixed-point map through this (to check the analytic Jacobian against differences).
class StepMapProbe {
 public:
  virtual ~StepMapProbe() = default;
  // Sets up a step of size h from x; returns the predictor (the size of the unknowns).
  virtual Eigen::VectorXd probe_prepare(const RigidBodyState& x, double h) = 0;
  // G(z) and, when dg is not null, dG/dz for the step last prepared.
  virtual void probe_map(const Eigen::VectorXd& z, Eigen::VectorXd& g, Eigen::MatrixXd* dg) = 0;
};

template <class System>
class ImplicitStepper final : public RigidBodyStepper, public implicit::SolverStatsSource, public StepMapProbe {
 public:
  static constexpr int N = System::N;

  ImplicitStepper(const RigidBodyModel& model, const implicit::SolverOptions& o, System sys)
      : model_(model), opts_(o), sys_(std::move(sys)) {}

  StepStatus step(RigidBodyState& x, double h, OpCounters& c) override {
    const Start<N> start = sys_.prepare(x, h, c);
    implicit::Solution<N> s = implicit::solve(sys_, start.predictor, start.previous, opts_, c, stats_);
    RigidBodyState next = s.converged ? sys_.finish(s.x) : x;
    if (s.converged && !s.by_fixed_point_from_predictor && energy_jumps(x, next)) {
      ++stats_.root_rejections;
      s = implicit::resolve_from_predictor(sys_, start.predictor, opts_, s.iterations);
      if (s.converged) next = sys_.finish(s.x);
    }
    c.record_nonlinear_step(s.iterations);
    if (!s.converged) {
      ++c.solver_failures;
      return StepStatus::solver_failed;
    }
    x = next;
    return StepStatus::ok;
  }

  void reset() override { have_scale_ = false; }
  const implicit::SolverStats& solver_stats() const override { return stats_; }

  Eigen::VectorXd probe_prepare(const RigidBodyState& x, double h) override {
    return sys_.prepare(x, h, probe_counters_).predictor;
  }
  void probe_map(const Eigen::VectorXd& z, Eigen::VectorXd& g, Eigen::MatrixXd* dg) override {
    implicit::VecN<N> gz;
    implicit::MatN<N> dgz;
    sys_(implicit::VecN<N>(z), gz, dg != nullptr ? &dgz : nullptr);
    g = gz;
    if (dg != nullptr) *dg = dgz;
  }

 private:
  // Energy scale K0 + |V0| of the first state after reset(): |H0| in spec 6, but never zero when K0 and V0 cancel.
  bool energy_jumps(const RigidBodyState& before, const RigidBodyState& after) {
    if (!opts_.safeguard) return false;
    if (!have_scale_) {
      energy_scale_ = model_.kinetic_energy(before.Pi) + std::abs(model_.potential_energy(before.R));
      have_scale_ = true;
    }
    return !(std::abs(model_.energy(after) - model_.energy(before)) <= 0.5 * energy_scale_);
  }

  const RigidBodyModel& model_;  // owned by the problem; outlives the stepper
  implicit::SolverOptions opts_;
  System sys_;
  implicit::SolverStats stats_;
  OpCounters probe_counters_;
  double energy_scale_ = 0;
  bool have_scale_ = false;
};

// MethodInfo of a second-order implicit Krysl-family method with the solver's parameters; the caller sets the factory,
// usually to make_stepper with its System.
inline MethodInfo implicit_method_info(std::string id, std::string display_name, std::string citation, bool symmetric,
                                       std::vector<InvariantClaim> invariants) {
  MethodInfo m;
  m.id = std::move(id);
  m.display_name = std::move(display_name);
  m.citation = std::move(citation);
  m.family = "krysl";
  m.claims.order = 2;
  m.claims.implicit = true;
  m.claims.symmetric = symmetric;
  m.claims.stays_on_group = true;  // every R update is a product of exp or cay factors
  m.claims.invariants = std::move(invariants);
  m.default_params = implicit::solver_default_params();
  return m;
}

template <class System>
std::unique_ptr<RigidBodyStepper> make_stepper(const RigidBodyModel& model, const Json& params, const std::string& id,
                                               System sys) {
  return std::make_unique<ImplicitStepper<System>>(model, implicit::solver_options_from(params, id), std::move(sys));
}

}  // namespace gib::krysl
