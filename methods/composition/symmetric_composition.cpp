// Symmetric compositions (see the header for the schemes, the claims and the requirement on the base).
#include "methods/composition/symmetric_composition.hpp"

#include <algorithm>
#include <cmath>
#include <functional>
#include <memory>
#include <type_traits>
#include <utility>

#include "core/errors.hpp"

namespace gib::composition {
namespace {

// One base stepper called with the substeps gamma_i h, gamma_1 first. Symmetric because the gammas are
// a palindrome of a symmetric base: Psi_{-h} o Psi_h undoes the substeps in reverse order.
template <class State> class CompositionStepper final : public Stepper<State> {
 public:
  CompositionStepper(std::unique_ptr<Stepper<State>> base, const std::vector<double>& gamma)
      : base_(std::move(base)), gamma_(gamma) {}

  StepStatus step(State& x, double h, OpCounters& c) override {
    for (const double g : gamma_) {
      const StepStatus st = base_->step(x, g * h, c);
      if (st != StepStatus::ok) return st;
    }
    return StepStatus::ok;
  }

  void reset() override { base_->reset(); }

 private:
  std::unique_ptr<Stepper<State>> base_;
  std::vector<double> gamma_;  // copied once, when the stepper is built
};

// On a vector field whose base stepper knows its tangent map, the composition knows its own: the product of the
// substeps' Jacobians, last substep leftmost (Lyapunov exponents of leapfrog4, spec M11).
class TangentComposition final : public VectorFieldStepper, public TangentMap {
 public:
  TangentComposition(std::unique_ptr<VectorFieldStepper> base, const std::vector<double>& gamma)
      : base_(std::move(base)), tangent_(dynamic_cast<TangentMap*>(base_.get())), gamma_(gamma) {}

  StepStatus step(VectorFieldState& x, double h, OpCounters& c) override {
    for (const double g : gamma_)
      if (const StepStatus st = base_->step(x, g * h, c); st != StepStatus::ok) return st;
    return StepStatus::ok;
  }
  StepStatus step_with_tangent(VectorFieldState& x, double h, Eigen::MatrixXd& D, OpCounters& c) override {
    D.setIdentity(x.x.size(), x.x.size());
    for (const double g : gamma_) {
      if (const StepStatus st = tangent_->step_with_tangent(x, g * h, substep_, c); st != StepStatus::ok) return st;
      D = substep_ * D;
    }
    return StepStatus::ok;
  }
  void reset() override { base_->reset(); }

 private:
  std::unique_ptr<VectorFieldStepper> base_;
  TangentMap* tangent_;  // base_ seen as a TangentMap
  std::vector<double> gamma_;
  Eigen::MatrixXd substep_;
};

// A processed composition (Butcher 1969's effective order; Blanes, Casas & Murua 2006): the kernel K (the substeps
// gamma) runs on y = P(x), P the composition of the processor's substeps, and the caller sees x = P^{-1}(y), with
// P^{-1} the processor's substeps backwards and negated (the base is symmetric: Phi_{-h} is Phi_h's inverse). y is
// carried between steps while the caller hands back, bit for bit, the state shown last with the same h, so a run
// of n steps costs P once, K n times and P^{-1} per observation, and the map is P^{-1} K P whatever the caller does.
// P^{-1} only shows the state: its operations are not counted (they are per observation, not per step, the premise
// of processing), so that n calls of step() count what advance(n) counts; the timing pass, one advance() per run,
// measures it once.
template <class State> class ProcessedCompositionStepper final : public Stepper<State> {
 public:
  ProcessedCompositionStepper(std::unique_ptr<Stepper<State>> base, const std::vector<double>& gamma,
                              const std::vector<double>& processor)
      : base_(std::move(base)), gamma_(gamma), processor_(processor) {}

  StepStatus step(State& x, double h, OpCounters& c) override { return advance(x, h, 1, c).status; }

  Advanced advance(State& x, double h, std::int64_t n, OpCounters& c) override {
    if (n <= 0) return {StepStatus::ok, 0};
    const bool continuing = carried_ && h == h_ && same_bits(x, shown_);
    carried_ = false;
    if (!continuing) {
      kernel_ = x;
      for (const double p : processor_)
        if (const StepStatus st = base_->step(kernel_, p * h, c); st != StepStatus::ok) return fail(x, st, 1);
    }
    for (std::int64_t i = 0; i < n; ++i)
      for (const double g : gamma_)
        if (const StepStatus st = base_->step(kernel_, g * h, c); st != StepStatus::ok) return fail(x, st, i + 1);
    x = kernel_;
    OpCounters shown_only;
    for (auto p = processor_.rbegin(); p != processor_.rend(); ++p)
      if (const StepStatus st = base_->step(x, -*p * h, shown_only); st != StepStatus::ok) return {st, n};
    shown_ = x;
    h_ = h;
    carried_ = true;
    return {StepStatus::ok, n};
  }

  void reset() override {
    carried_ = false;
    base_->reset();
  }

 private:
  Advanced fail(State& x, StepStatus st, std::int64_t steps) {
    x = kernel_;  // what the failing substep left, for the caller's record of the failure
    return {st, steps};
  }

  std::unique_ptr<Stepper<State>> base_;
  std::vector<double> gamma_, processor_;
  State kernel_, shown_;
  double h_ = 0;
  bool carried_ = false;
};

// The base's factory for one model kind, wrapped; null stays null (kind not supported).
template <class Model, class State>
std::function<std::unique_ptr<Stepper<State>>(const Model&, const Json&)> wrap(
    const std::function<std::unique_ptr<Stepper<State>>(const Model&, const Json&)>& base,
    const std::vector<double>& gamma, const std::vector<double>& processor = {}) {
  if (!base) return nullptr;
  return [base, gamma, processor](const Model& model, const Json& params) -> std::unique_ptr<Stepper<State>> {
    auto stepper = base(model, params);
    if (!processor.empty())
      return std::make_unique<ProcessedCompositionStepper<State>>(std::move(stepper), gamma, processor);
    if constexpr (std::is_same_v<State, VectorFieldState>) {
      if (dynamic_cast<TangentMap*>(stepper.get()) != nullptr)
        return std::make_unique<TangentComposition>(std::move(stepper), gamma);
    }
    return std::make_unique<CompositionStepper<State>>(std::move(stepper), gamma);
  };
}

const char* scheme_citation(Scheme s) {
  switch (s) {
    case Scheme::triple_jump:
      return "triple jump: Yoshida 1990, Forest & Ruth 1990, Neri, Qin & Zhu 1992; McLachlan-Quispel lectures 1.6 "
             "(spec 2.5)";
    case Scheme::suzuki5: return "five-stage composition: Suzuki 1990; McLachlan-Quispel spec 2.6";
  }
  return "?";
}

void check_base(const MethodInfo& base) {
  if (!base.claims.symmetric)
    throw InputError("cannot compose method " + base.id +
                     ": symmetric compositions need a symmetric base (it does not claim Phi_{-h} o Phi_h = id)");
  if (base.claims.order < 2 || base.claims.order % 2 != 0)
    throw InputError("cannot compose method " + base.id + ": it claims to be symmetric with order " +
                     std::to_string(base.claims.order) + ", but a symmetric method has even order >= 2");
}

}  // namespace

const char* to_string(Scheme s) {
  switch (s) {
    case Scheme::triple_jump: return "triple_jump";
    case Scheme::suzuki5: return "suzuki5";
  }
  return "?";
}

std::vector<double> coefficients(Scheme scheme, int base_order) {
  if (base_order < 2 || base_order % 2 != 0)
    throw InputError("symmetric composition needs an even base order >= 2, got " + std::to_string(base_order));
  // The leading error term of the composition is multiplied by sum gamma_i^{p+1}; with m equal outer
  // substeps g and the middle one 1 - m g, it vanishes at g = 1/(m - m^{1/(p+1)}).
  const long double e = 1.0L / static_cast<long double>(base_order + 1);
  const int outer = scheme == Scheme::triple_jump ? 2 : 4;
  const long double m = outer;
  const long double g = 1.0L / (m - std::pow(m, e));
  const auto gd = static_cast<double>(g);
  const auto mid = static_cast<double>(1.0L - m * g);
  if (scheme == Scheme::triple_jump) return {gd, mid, gd};
  return {gd, gd, mid, gd, gd};
}

MethodInfo compose(const MethodInfo& base, Scheme scheme, std::string id, std::string display_name) {
  check_base(base);
  return compose_substeps(base, coefficients(scheme, base.claims.order), base.claims.order + 2, std::move(id),
                          std::move(display_name), base.citation + "; composed by the " + scheme_citation(scheme));
}

MethodInfo compose_substeps(const MethodInfo& base, const std::vector<double>& gamma, int order, std::string id,
                            std::string display_name, std::string citation, const std::vector<double>& processor) {
  if (!processor.empty() && !base.claims.symmetric)
    throw InputError("a processed composition needs a symmetric base (its inverse processor is the substeps negated): " +
                     base.id + " does not claim to be symmetric");
  MethodInfo m;
  m.id = std::move(id);
  m.display_name = std::move(display_name);
  m.citation = std::move(citation);
  m.family = base.family;
  m.claims = base.claims;
  m.claims.order = order;
  // Processed: P^{-1} K P with a palindromic K is not symmetric unless P is, which nothing here checks.
  m.claims.symmetric =
      processor.empty() && base.claims.symmetric && std::equal(gamma.begin(), gamma.end(), gamma.rbegin());
  m.default_params = base.default_params;
  m.torque_free_only = base.torque_free_only;
  m.rigid_body = wrap<RigidBodyModel, RigidBodyState>(base.rigid_body, gamma, processor);
  m.particles = wrap<RigidParticlesModel, ParticlesState>(base.particles, gamma, processor);
  m.newtonian = wrap<NewtonianModel, NewtonianState>(base.newtonian, gamma, processor);
  m.vector_field = wrap<VectorFieldModel, VectorFieldState>(base.vector_field, gamma, processor);
  m.needs_structure = base.needs_structure;
  return m;
}

MethodInfo compose(const MethodInfo& base, const std::vector<Scheme>& schemes, std::string id,
                   std::string display_name) {
  if (schemes.empty()) throw InputError("compose " + id + ": no scheme given");
  MethodInfo m = base;
  for (std::size_t k = 0; k + 1 < schemes.size(); ++k)
    m = compose(m, schemes[k], id + "~" + std::to_string(k + 1), display_name + " (stage " + std::to_string(k + 1) + ")");
  return compose(m, schemes.back(), std::move(id), std::move(display_name));
}

}  // namespace gib::composition
