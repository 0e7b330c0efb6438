#include "methods/splitting/hamiltonian_splitting.hpp"

#include <cstring>
#include <memory>
#include <stdexcept>

namespace gib::splitting {
namespace {

// The tangent map rides along on request (D non-null): a drift D_s is the shear (q, p) -> (q + s grad T(p), p) with
// Jacobian [[I, s T''(p)], [0, I]], a kick the shear [[I, 0], [-s V''(q), I]]; D is multiplied by each in the order
// the flows are applied, so it is the Jacobian of exactly the composition step() takes (det 1 up to round-off).
class SplittingStepper : public VectorFieldStepper {
 public:
  SplittingStepper(const VectorFieldModel& model, HamiltonianSplitting kind)
      : h_(model.separable_hamiltonian()), kind_(kind) {
    if (h_ == nullptr) throw std::invalid_argument("hamiltonian splitting: the model has no separable Hamiltonian");
    d_ = h_->degrees_of_freedom();
    if (model.dim() != 2 * d_) throw std::invalid_argument("hamiltonian splitting: the dimension is not 2 d");
    grad_.resize(d_);
    velocity_.resize(d_);
  }

  StepStatus step(VectorFieldState& s, double h, OpCounters& c) override { return take(s, h, c, nullptr); }

  void reset() override {
    cached_q_.resize(0);
    kernel_.resize(0);
  }

 protected:
  StepStatus take(VectorFieldState& s, double h, OpCounters& c, Eigen::MatrixXd* D) {
    auto q = s.x.head(d_);
    auto p = s.x.tail(d_);
    switch (kind_) {
      case HamiltonianSplitting::leapfrog_dkd:
        drift(q, p, 0.5 * h, D);
        kick(q, p, h, c, D);
        drift(q, p, 0.5 * h, D);
        break;
      case HamiltonianSplitting::leapfrog_kdk:
        if (!have_cached_gradient(q)) potential_gradient(q, c);
        p -= 0.5 * h * grad_;
        if (D != nullptr) kick_tangent(q, 0.5 * h, *D);
        drift(q, p, h, D);
        kick(q, p, 0.5 * h, c, D);
        cached_q_ = q;
        break;
      case HamiltonianSplitting::symplectic_euler:
        drift(q, p, h, D);
        kick(q, p, h, c, D);
        break;
      case HamiltonianSplitting::symplectic_euler_processed:
        processed(s, h, c, D);
        break;
    }
    return StepStatus::ok;
  }

 private:
  template <class Q, class P> void drift(Q& q, const P& p, double s, Eigen::MatrixXd* D) {
    h_->kinetic_gradient(p, velocity_);
    q += s * velocity_;
    if (D != nullptr) {
      h_->kinetic_hessian(p, hessian_);
      D->topRows(d_) += s * hessian_ * D->bottomRows(d_);
    }
  }
  template <class Q, class P> void kick(const Q& q, P& p, double s, OpCounters& c, Eigen::MatrixXd* D) {
    potential_gradient(q, c);
    p -= s * grad_;
    if (D != nullptr) kick_tangent(q, s, *D);
  }
  // Symplectic Euler on the kernel variable y = K_{h/2}(x), the caller seeing x = K_{-h/2}(y) (spec 3.2, E6): the
  // run is the orbit of symplectic Euler, each output the KDK state. y is carried between steps while the caller
  // hands back bit for bit the state written last with the same h, else taken afresh from x, so the map is
  // K_{-h/2} o SE_h o K_{h/2} = KDK_h whatever the caller does. The output kick reuses SE's closing gradient (q is
  // the same): one gradient per step in a run.
  void processed(VectorFieldState& s, double h, OpCounters& c, Eigen::MatrixXd* D) {
    const bool continuing = kernel_.size() == s.x.size() && h == kernel_h_ &&
                            std::memcmp(output_.data(), s.x.data(), sizeof(double) * static_cast<std::size_t>(s.x.size())) == 0;
    if (!continuing) {
      kernel_ = s.x;
      potential_gradient(kernel_.head(d_), c);
      kernel_.tail(d_) -= 0.5 * h * grad_;
    }
    if (D != nullptr) kick_tangent(s.x.head(d_), 0.5 * h, *D);
    auto q = kernel_.head(d_);
    auto p = kernel_.tail(d_);
    drift(q, p, h, D);
    kick(q, p, h, c, D);
    s.x.head(d_) = q;
    s.x.tail(d_) = p + 0.5 * h * grad_;
    if (D != nullptr) kick_tangent(q, -0.5 * h, *D);
    kernel_h_ = h;
    output_ = s.x;
  }
  template <class Q> void kick_tangent(const Q& q, double s, Eigen::MatrixXd& D) {
    h_->potential_hessian(q, hessian_);
    D.bottomRows(d_) -= s * hessian_ * D.topRows(d_);
  }
  template <class Q> void potential_gradient(const Q& q, OpCounters& c) {
    h_->potential_gradient(q, grad_);
    ++c.force_evals;
  }
  // grad_ holds grad V at the q this stepper wrote last, bit for bit.
  template <class Q> bool have_cached_gradient(const Q& q) const {
    return cached_q_.size() == d_ &&
           std::memcmp(cached_q_.data(), q.data(), sizeof(double) * static_cast<std::size_t>(d_)) == 0;
  }

  const SeparableHamiltonian* h_;
  HamiltonianSplitting kind_;
  Eigen::Index d_ = 0;
  Eigen::VectorXd grad_, velocity_, cached_q_;  // grad V, grad T
  Eigen::MatrixXd hessian_;
  Eigen::VectorXd kernel_, output_;  // symplectic_euler_processed: y, and the x it was last shown as
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

MethodInfo hamiltonian_splitting(HamiltonianSplitting kind) {
  MethodInfo m;
  m.family = "splitting";
  m.needs_structure = kSeparableHamiltonian;
  m.claims.symplectic = true;
  m.claims.invariants = {{Invariant::energy, Preservation::bounded, Applies::always}};
  switch (kind) {
    case HamiltonianSplitting::leapfrog_dkd:
      m.id = "leapfrog_dkd";
      m.display_name = "Leapfrog (drift-kick-drift)";
      m.citation = "McLachlan-Quispel lectures 2.7 (printed form), spec 3.2";
      m.claims.order = 2;
      m.claims.symmetric = true;
      break;
    case HamiltonianSplitting::leapfrog_kdk:
      m.id = "leapfrog_kdk";
      m.display_name = "Leapfrog (kick-drift-kick, velocity Verlet)";
      m.citation = "velocity Verlet (Swope et al. 1982); McLachlan-Quispel spec 3.2 (derived)";
      m.claims.order = 2;
      m.claims.symmetric = true;
      break;
    case HamiltonianSplitting::symplectic_euler:
      m.id = "symplectic_euler";
      m.display_name = "Symplectic Euler (drift, then kick)";
      m.citation = "McLachlan-Quispel lectures 3.4 (printed as \"Verlet\"), spec 3.2";
      m.claims.order = 1;
      break;
    case HamiltonianSplitting::symplectic_euler_processed:
      m.id = "symplectic_euler_processed";
      m.display_name = "Symplectic Euler, processed (K_{h/2} in, K_{-h/2} out)";
      m.citation = "McLachlan-Quispel lectures 3.4 with the processing of spec 3.2 / E6 (Wisdom's corrector)";
      // The map the caller sees is K_{-h/2} SE_h K_{h/2} = KDK_h.
      m.claims.order = 2;
      m.claims.symmetric = true;
      break;
  }
  m.default_params = Json::object();
  m.vector_field = [kind](const VectorFieldModel& model, const Json& /*params*/) -> std::unique_ptr<VectorFieldStepper> {
    if (has_hessians(model)) return std::make_unique<TangentSplittingStepper>(model, kind);
    return std::make_unique<SplittingStepper>(model, kind);
  };
  return m;
}

}  // namespace gib::splitting
