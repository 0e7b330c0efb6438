// General vector fields x' = f(x) on R^n, the fourth model kind (McLachlan-Quispel lectures, issue 20): the
// pendulum, Kepler, Volterra, the ABC flow, the damped pendulum, ... A model gives f and its Jacobian, and
// optionally the structure that geometric methods and metrics use; a method that needs a structure the model lacks
// refuses it (core/problem.hpp incompatibility, through the problem's registry declaration).
#pragma once

#include <Eigen/Core>
#include <cmath>
#include <string>

namespace gib {

// Structure a vector field may have beyond f, which some methods need (one bit each). A problem declares its
// structure in the registry (every preset is tested to have it); a method declares what it needs.
enum ModelStructure : unsigned {
  kSeparableHamiltonian = 1U,  // x = (q, p), H = T(p) + V(q): leapfrog, symplectic Euler
};

// "separable Hamiltonian", ... for messages; "" for 0.
inline std::string structure_names(unsigned mask) {
  std::string out;
  const auto add = [&](unsigned bit, const char* name) {
    if ((mask & bit) == 0) return;
    if (!out.empty()) out += ", ";
    out += name;
  };
  add(kSeparableHamiltonian, "a separable Hamiltonian H = T(p) + V(q)");
  return out;
}

struct VectorFieldState {
  Eigen::VectorXd x;
};

// H(q, p) = T(p) + V(q) on x = (q, p), q and p in R^d (spec 3.1, 8.4): f = (grad T(p), -grad V(q)). Leapfrog and
// symplectic Euler are compositions of the exact flows of T and V.
class SeparableHamiltonian {
 public:
  virtual ~SeparableHamiltonian() = default;
  virtual int degrees_of_freedom() const = 0;  // d; the model's dimension is 2d
  virtual double kinetic(const Eigen::Ref<const Eigen::VectorXd>& p) const = 0;
  virtual double potential(const Eigen::Ref<const Eigen::VectorXd>& q) const = 0;
  virtual void kinetic_gradient(const Eigen::Ref<const Eigen::VectorXd>& p, Eigen::Ref<Eigen::VectorXd> g) const = 0;
  virtual void potential_gradient(const Eigen::Ref<const Eigen::VectorXd>& q, Eigen::Ref<Eigen::VectorXd> g) const = 0;
  double energy(const Eigen::VectorXd& x) const {
    const auto d = degrees_of_freedom();
    return kinetic(x.tail(d)) + potential(x.head(d));
  }
};

class VectorFieldModel {
 public:
  virtual ~VectorFieldModel() = default;
  virtual int dim() const = 0;
  // f(x); f is resized by the callee.
  virtual void rhs(const Eigen::VectorXd& x, Eigen::VectorXd& f) const = 0;
  // df/dx, n x n (Newton iterations of implicit methods; exact tangent maps). J is resized by the callee.
  virtual void jacobian(const Eigen::VectorXd& x, Eigen::MatrixXd& J) const = 0;
  // The separable Hamiltonian structure, or null.
  virtual const SeparableHamiltonian* separable_hamiltonian() const { return nullptr; }
  // The ModelStructure bits this model has.
  unsigned structure() const { return separable_hamiltonian() != nullptr ? kSeparableHamiltonian : 0U; }
  // A conserved energy (the Hamiltonian of a separable model by default). Models whose energy is not separable
  // override both.
  virtual bool has_energy() const { return separable_hamiltonian() != nullptr; }
  virtual double energy(const Eigen::VectorXd& x) const {
    const SeparableHamiltonian* h = separable_hamiltonian();
    return h != nullptr ? h->energy(x) : std::nan("");
  }
};

}  // namespace gib
