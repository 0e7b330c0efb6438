#include "methods/splitting/hamiltonian_splitting.hpp"

#include <algorithm>
#include <cstring>
#include <memory>
#include <stdexcept>
#include <utility>

namespace gib::splitting {
namespace {

// The tangent map rides along on request (D non-null): a drift D_s is the shear (q, p) -> (q + s grad T(p), p) with
// Jacobian [[I, s T''(p)], [0, I]], a kick the shear [[I, 0], [-s V''(q), I]]; D is multiplied by each in the order
// the flows are applied, so it is the Jacobian of exactly the composition step() takes (det 1 up to round-off).
class SplittingStepper : public VectorFieldStepper {
 public:
  SplittingStepper(const VectorFieldModel& model, std::shared_ptr<const FlowSequence> seq)
      : h_(model.separable_hamiltonian()), seq_(std::move(seq)) {
    if (h_ == nullptr) throw std::invalid_argument("hamiltonian splitting: the model has no separable Hamiltonian");
    d_ = h_->degrees_of_freedom();
    if (model.dim() != 2 * d_) throw std::invalid_argument("hamiltonian splitting: the dimension is not 2 d");
    grad_.resize(d_);
    velocity_.resize(d_);
  }

  StepStatus step(VectorFieldState& s, double h, OpCounters& c) override { return take(s, h, c, nullptr); }

  void reset() override {
    cached_q_.resize(0);
    output_.resize(0);  // nothing shown yet: the next step starts the kernel afresh
  }

 protected:
  StepStatus take(VectorFieldState& s, double h, OpCounters& c, Eigen::MatrixXd* D) {
    if (seq_->processor.empty()) {
      run(seq_->kernel, s.x, h, c, D);
    } else {
      processed(s, h, c, D);
    }
    return StepStatus::ok;
  }

 private:
  // The flows in order, each over coef h (inverse: backwards, each over -coef h).
  void run(const std::vector<Flow>& flows, Eigen::VectorXd& x, double h, OpCounters& c, Eigen::MatrixXd* D,
           bool inverse = false) {
    auto q = x.head(d_);
    auto p = x.tail(d_);
    for (std::size_t k = 0; k < flows.size(); ++k) {
      const Flow& f = flows[inverse ? flows.size() - 1 - k : k];
      const double s = (inverse ? -f.coef : f.coef) * h;
      if (f.piece == Piece::drift) {
        drift(q, p, s, D);
      } else {
        kick(q, p, s, c, D);
      }
    }
  }
  template <class Q, class P> void drift(Q& q, const P& p, double s, Eigen::MatrixXd* D) {
    h_->kinetic_gradient(p, velocity_);
    q += s * velocity_;
    if (D != nullptr) {
      h_->kinetic_hessian(p, hessian_);
      D->topRows(d_) += s * hessian_ * D->bottomRows(d_);
    }
  }
  // grad V is reused while q is bit for bit the q it was taken at: KDK's closing kick serves the next step's opening
  // one, a processed method's output kick its kernel's last.
  template <class Q, class P> void kick(const Q& q, P& p, double s, OpCounters& c, Eigen::MatrixXd* D) {
    if (!have_cached_gradient(q)) potential_gradient(q, c);
    p -= s * grad_;
    if (D != nullptr) kick_tangent(q, s, *D);
  }
  // A processed method (spec 3.2, E6): the kernel runs on y = P(x), the caller seeing x = P^{-1}(y). y is carried
  // between steps while the caller hands back bit for bit the state written last with the same h, else taken afresh
  // from x, so the map is P^{-1} o K_h o P whatever the caller does. The tangent map is that product's Jacobian at x.
  void processed(VectorFieldState& s, double h, OpCounters& c, Eigen::MatrixXd* D) {
    const bool continuing = h == kernel_h_ && same_bits(output_, s.x);
    if (!continuing) {
      kernel_ = s.x;
      run(seq_->processor, kernel_, h, c, nullptr);
    }
    if (D != nullptr) processor_tangent(s.x, h, c, *D);
    run(seq_->kernel, kernel_, h, c, D);
    s.x = kernel_;
    run(seq_->processor, s.x, h, c, D, /*inverse=*/true);
    kernel_h_ = h;
    output_ = s.x;
  }
  // P's Jacobian at x, along a copy of x. A kick with no drift after it in P changes nothing a later flow reads: its
  // shear needs V'' only, not grad V.
  void processor_tangent(const Eigen::VectorXd& x, double h, OpCounters& c, Eigen::MatrixXd& D) {
    Eigen::VectorXd y = x;
    auto q = y.head(d_);
    auto p = y.tail(d_);
    const std::vector<Flow>& flows = seq_->processor;
    for (std::size_t k = 0; k < flows.size(); ++k) {
      const double s = flows[k].coef * h;
      const bool drift_follows = std::any_of(flows.begin() + static_cast<std::ptrdiff_t>(k) + 1, flows.end(),
                                             [](const Flow& f) { return f.piece == Piece::drift; });
      if (flows[k].piece == Piece::drift) {
        drift(q, p, s, &D);
      } else if (drift_follows) {
        kick(q, p, s, c, &D);
      } else {
        kick_tangent(q, s, D);
      }
    }
  }
  template <class Q> void kick_tangent(const Q& q, double s, Eigen::MatrixXd& D) {
    h_->potential_hessian(q, hessian_);
    D.bottomRows(d_) -= s * hessian_ * D.topRows(d_);
  }
  template <class Q> void potential_gradient(const Q& q, OpCounters& c) {
    h_->potential_gradient(q, grad_);
    cached_q_ = q;
    ++c.force_evals;
  }
  // grad_ holds grad V at the q this stepper took it at last, bit for bit.
  template <class Q> bool have_cached_gradient(const Q& q) const {
    return cached_q_.size() == d_ &&
           std::memcmp(cached_q_.data(), q.data(), sizeof(double) * static_cast<std::size_t>(d_)) == 0;
  }

  const SeparableHamiltonian* h_;
  std::shared_ptr<const FlowSequence> seq_;
  Eigen::Index d_ = 0;
  Eigen::VectorXd grad_, velocity_, cached_q_;  // grad V, grad T
  Eigen::MatrixXd hessian_;
  Eigen::VectorXd kernel_, output_;  // a processed method: y, and the x it was last shown as
  double kernel_h_ = 0;
};

// Only for models that give both Hessians, so that a metric looking for a TangentMap never finds one that cannot
// deliver.
class TangentSplittingStepper final : public SplittingStepper, public TangentMap {
 public:
  using SplittingStepper::SplittingStepper;
  StepStatus step_with_tangent(VectorFieldState& s, double h, Eigen::MatrixXd& D, OpCounters& c) override {
    D.setIdentity(s.x.size(), s.x.size());
    return take(s, h, c, &D);
  }
};

bool has_hessians(const VectorFieldModel& model) {
  const SeparableHamiltonian* h = model.separable_hamiltonian();
  if (h == nullptr) return false;
  const Eigen::VectorXd zero = Eigen::VectorXd::Zero(h->degrees_of_freedom());
  Eigen::MatrixXd H;
  return h->kinetic_hessian(zero, H) && h->potential_hessian(zero, H);
}

}  // namespace

MethodInfo hamiltonian_sequence(std::string id, std::string display_name, std::string citation, FlowSequence seq,
                                int order, bool symmetric) {
  MethodInfo m;
  m.id = std::move(id);
  m.display_name = std::move(display_name);
  m.citation = std::move(citation);
  m.family = "splitting";
  m.needs_structure = kSeparableHamiltonian;
  m.claims.order = order;
  m.claims.symmetric = symmetric;
  m.claims.symplectic = true;
  m.claims.invariants = {{Invariant::energy, Preservation::bounded, Applies::always}};
  m.default_params = Json::object();
  auto shared = std::make_shared<const FlowSequence>(std::move(seq));
  m.vector_field = [shared](const VectorFieldModel& model, const Json& /*params*/) -> std::unique_ptr<VectorFieldStepper> {
    if (has_hessians(model)) return std::make_unique<TangentSplittingStepper>(model, shared);
    return std::make_unique<SplittingStepper>(model, shared);
  };
  return m;
}

bool is_palindrome(const std::vector<Flow>& flows) {
  for (std::size_t k = 0; k < flows.size() / 2; ++k) {
    const Flow& a = flows[k];
    const Flow& b = flows[flows.size() - 1 - k];
    if (a.piece != b.piece || a.coef != b.coef) return false;
  }
  return true;
}

MethodInfo hamiltonian_splitting(HamiltonianSplitting kind) {
  constexpr Piece D = Piece::drift, K = Piece::kick;
  switch (kind) {
    case HamiltonianSplitting::leapfrog_dkd:
      return hamiltonian_sequence("leapfrog_dkd", "Leapfrog (drift-kick-drift)",
                                  "McLachlan-Quispel lectures 2.7 (printed form), spec 3.2",
                                  {{{D, 0.5}, {K, 1.0}, {D, 0.5}}, {}}, 2, true);
    case HamiltonianSplitting::leapfrog_kdk:
      return hamiltonian_sequence("leapfrog_kdk", "Leapfrog (kick-drift-kick, velocity Verlet)",
                                  "velocity Verlet (Swope et al. 1982); McLachlan-Quispel spec 3.2 (derived)",
                                  {{{K, 0.5}, {D, 1.0}, {K, 0.5}}, {}}, 2, true);
    case HamiltonianSplitting::symplectic_euler:
      return hamiltonian_sequence("symplectic_euler", "Symplectic Euler (drift, then kick)",
                                  "McLachlan-Quispel lectures 3.4 (printed as \"Verlet\"), spec 3.2",
                                  {{{D, 1.0}, {K, 1.0}}, {}}, 1, false);
    case HamiltonianSplitting::symplectic_euler_processed:
      // The map the caller sees is K_{-h/2} SE_h K_{h/2} = KDK_h: order 2 and symmetric.
      return hamiltonian_sequence("symplectic_euler_processed", "Symplectic Euler, processed (K_{h/2} in, K_{-h/2} out)",
                                  "McLachlan-Quispel lectures 3.4 with the processing of spec 3.2 / E6 (Wisdom's corrector)",
                                  {{{D, 1.0}, {K, 1.0}}, {{K, 0.5}}}, 2, true);
  }
  throw std::logic_error("hamiltonian_splitting: unknown kind");
}

}  // namespace gib::splitting
