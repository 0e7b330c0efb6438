// General vector fields x' = f(x) on R^n, the fourth model kind (McLachlan-Quispel lectures, issue 20): the
// pendulum, Kepler, Volterra, the ABC flow, the damped pendulum, ... A model gives f and its Jacobian, and
// optionally the structure that geometric methods and metrics use; a method that needs a structure the model lacks
// refuses it (core/problem.hpp incompatibility, through the problem's registry declaration).
#pragma once

#include <Eigen/Core>
#include <cmath>
#include <string>

#include "core/state.hpp"

namespace gib {

// Structure a vector field may have beyond f, which some methods need (one bit each). A problem declares its
// structure in the registry (every preset is tested to have it); a method declares what it needs.
enum ModelStructure : unsigned {
  kSeparableHamiltonian = 1U,  // x = (q, p), H = T(p) + V(q): leapfrog, symplectic Euler
  kSkewGradient = 2U,          // x' = S(x) grad I(x), S skew: I a first integral (spec 8.1): discrete gradients
  kLyapunovGradient = 4U,      // x' = L(x) grad V(x), v.Lv <= 0: V a Lyapunov function (spec 8.5)
  kDivergenceFree = 8U,        // div f = 0, split into source-free pieces (spec 7.2, 7.4): volume preservation
  kReversible = 16U,           // a linear reversing involution R, R f(x) = -f(Rx) (spec 2.7, metric M6)
  kSymmetric = 32U,            // an involutive symmetry h, dh f = f o h (spec 2.7, 10): Thue-Morse compositions
  kPoissonTensor = 64U,        // the skew-gradient S(x) is a Poisson tensor (spec 4.2): the flow is a Poisson map (M9)
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
  add(kSkewGradient, "a skew-gradient form x' = S(x) grad I(x)");
  add(kLyapunovGradient, "a linear-gradient form x' = L(x) grad V(x) with a Lyapunov function V");
  add(kDivergenceFree, "a splitting into source-free pieces");
  add(kReversible, "a reversing involution");
  add(kSymmetric, "an involutive symmetry h");
  add(kPoissonTensor, "a Poisson tensor S(x) in its skew-gradient form");
  return out;
}

struct VectorFieldState {
  Eigen::VectorXd x;
};
inline bool same_bits(const VectorFieldState& a, const VectorFieldState& b) { return same_bits(a.x, b.x); }

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
  // d^2 T / dp^2 and d^2 V / dq^2 (d x d, resized by the callee) for exact tangent maps of the splitting methods;
  // false when the model does not give them.
  virtual bool kinetic_hessian(const Eigen::Ref<const Eigen::VectorXd>& /*p*/, Eigen::MatrixXd& /*H*/) const {
    return false;
  }
  virtual bool potential_hessian(const Eigen::Ref<const Eigen::VectorXd>& /*q*/, Eigen::MatrixXd& /*H*/) const {
    return false;
  }
  double energy(const Eigen::VectorXd& x) const {
    const auto d = degrees_of_freedom();
    return kinetic(x.tail(d)) + potential(x.head(d));
  }
};

// x' = M(x) grad G(x) for a scalar G: the skew-gradient form of a first integral I (M = S, S^T = -S, spec 8.1)
// or the linear-gradient form of a Lyapunov function V (M = L with v.Lv <= 0 for all v, spec 8.5). A discrete
// gradient method replaces grad G by a discrete gradient of G and M(x) by M at the midpoint, which keeps I exactly
// or makes V decrease at every step whatever the step size.
class GradientForm {
 public:
  virtual ~GradientForm() = default;
  virtual double value(const Eigen::VectorXd& x) const = 0;
  virtual void gradient(const Eigen::VectorXd& x, Eigen::VectorXd& g) const = 0;  // g resized by the callee
  virtual void matrix(const Eigen::VectorXd& x, Eigen::MatrixXd& M) const = 0;    // M resized by the callee
};

// f = f_1 + ... + f_k with every piece source-free (spec 7.2, 7.4). A piece is either a shear, which moves one
// coordinate by a function of the others and so has an explicit exact flow (the ABC flow's pieces), or a 2D
// Hamiltonian system in two coordinates with the others as parameters, which the implicit midpoint rule solves
// area-preservingly, hence volume-preservingly in R^n (Volterra's pieces).
class DivergenceFreeSplitting {
 public:
  virtual ~DivergenceFreeSplitting() = default;
  virtual int pieces() const = 0;
  // The coordinate a shear piece moves, or -1 when piece j is not a shear.
  virtual int shear_coordinate(int j) const = 0;
  virtual void piece_rhs(int j, const Eigen::VectorXd& x, Eigen::VectorXd& f) const = 0;
  virtual void piece_jacobian(int j, const Eigen::VectorXd& x, Eigen::MatrixXd& J) const = 0;
};

class VectorFieldModel {
 public:
  virtual ~VectorFieldModel() = default;
  virtual int dim() const = 0;
  // f(x); f is resized by the callee.
  virtual void rhs(const Eigen::VectorXd& x, Eigen::VectorXd& f) const = 0;
  // df/dx, n x n (Newton iterations of implicit methods; exact tangent maps). J is resized by the callee.
  virtual void jacobian(const Eigen::VectorXd& x, Eigen::MatrixXd& J) const = 0;
  // Each structure the model has, or null.
  virtual const SeparableHamiltonian* separable_hamiltonian() const { return nullptr; }
  virtual const GradientForm* skew_gradient() const { return nullptr; }      // S and the first integral I
  virtual const GradientForm* lyapunov_gradient() const { return nullptr; }  // L and the Lyapunov function V
  virtual const DivergenceFreeSplitting* divergence_free() const { return nullptr; }
  // The reversing involution R (a linear map, R R = I, R f(x) = -f(Rx)), or null.
  virtual const Eigen::MatrixXd* reversing_involution() const { return nullptr; }
  // An involutive symmetry h of the field (h(h(x)) = x, dh(x) f(x) = f(h(x))), possibly nonlinear, that a method
  // may keep or break: the Toda flow's X -> X^-T, whose fixed set is O(n) (spec 10, metric M7). Sets hx and
  // returns true, or returns false when the model has none.
  virtual bool symmetry(const Eigen::VectorXd& /*x*/, Eigen::VectorXd& /*hx*/) const { return false; }
  // Whether symmetry() is defined (it may still refuse points outside h's domain, a singular Toda matrix).
  virtual bool has_symmetry() const { return false; }
  // Whether skew_gradient()'s S(x) satisfies the Jacobi identity, so that S is a Poisson tensor, the exact flow a
  // Poisson map of it, D phi(x) S(x) D phi(x)^T = S(phi(x)) (spec 4.2, erratum E1), and metric M9 applies to any
  // field, not only canonical ones. Skewness alone does not give it: the Jacobi identity is a further condition.
  virtual bool poisson_tensor() const { return false; }
  // The ModelStructure bits this model has.
  unsigned structure() const {
    return (separable_hamiltonian() != nullptr ? kSeparableHamiltonian : 0U) |
           (skew_gradient() != nullptr ? kSkewGradient : 0U) | (lyapunov_gradient() != nullptr ? kLyapunovGradient : 0U) |
           (divergence_free() != nullptr ? kDivergenceFree : 0U) | (reversing_involution() != nullptr ? kReversible : 0U) |
           (has_symmetry() ? kSymmetric : 0U) |
           (skew_gradient() != nullptr && poisson_tensor() ? kPoissonTensor : 0U);
  }
  // A conserved energy: the Hamiltonian of a separable model, else the first integral of a skew-gradient one.
  // Models with another energy override both.
  virtual bool has_energy() const { return separable_hamiltonian() != nullptr || skew_gradient() != nullptr; }
  virtual double energy(const Eigen::VectorXd& x) const {
    if (const SeparableHamiltonian* h = separable_hamiltonian()) return h->energy(x);
    if (const GradientForm* s = skew_gradient()) return s->value(x);
    return std::nan("");
  }
};

}  // namespace gib
