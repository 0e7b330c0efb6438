#include "methods/splitting/hamiltonian_splitting.hpp"

#include <cstring>
#include <memory>
#include <stdexcept>

namespace gib::splitting {
namespace {

class SplittingStepper final : public VectorFieldStepper {
 public:
  SplittingStepper(const VectorFieldModel& model, HamiltonianSplitting kind)
      : h_(model.separable_hamiltonian()), kind_(kind) {
    if (h_ == nullptr) throw std::invalid_argument("hamiltonian splitting: the model has no separable Hamiltonian");
    d_ = h_->degrees_of_freedom();
    if (model.dim() != 2 * d_) throw std::invalid_argument("hamiltonian splitting: the dimension is not 2 d");
    grad_.resize(d_);
    velocity_.resize(d_);
  }

  StepStatus step(VectorFieldState& s, double h, OpCounters& c) override {
    auto q = s.x.head(d_);
    auto p = s.x.tail(d_);
    switch (kind_) {
      case HamiltonianSplitting::leapfrog_dkd:
        drift(q, p, 0.5 * h);
        kick(q, p, h, c);
        drift(q, p, 0.5 * h);
        break;
      case HamiltonianSplitting::leapfrog_kdk:
        if (!have_cached_gradient(q)) potential_gradient(q, c);
        p -= 0.5 * h * grad_;
        drift(q, p, h);
        kick(q, p, 0.5 * h, c);
        cached_q_ = q;
        break;
      case HamiltonianSplitting::symplectic_euler:
        drift(q, p, h);
        kick(q, p, h, c);
        break;
    }
    return StepStatus::ok;
  }

  void reset() override { cached_q_.resize(0); }

 private:
  template <class Q, class P> void drift(Q& q, const P& p, double s) {
    h_->kinetic_gradient(p, velocity_);
    q += s * velocity_;
  }
  template <class Q, class P> void kick(const Q& q, P& p, double s, OpCounters& c) {
    potential_gradient(q, c);
    p -= s * grad_;
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
};

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
  }
  m.default_params = Json::object();
  m.vector_field = [kind](const VectorFieldModel& model, const Json& /*params*/) -> std::unique_ptr<VectorFieldStepper> {
    return std::make_unique<SplittingStepper>(model, kind);
  };
  return m;
}

}  // namespace gib::splitting
