// Model interfaces for the four model kinds (GUIDE 2; the general vector field is in core/vector_field.hpp). A
// model is the physics a method needs to take a step; a problem (problems/) wraps a model with presets, an
// initial state, invariants and a reference.
//
// Dispatch: methods hold a const reference to the model and call it once per stage (torque or force
// evaluation). Pair loops and the like live inside the model, so no virtual call happens per pair.
#pragma once

#include <Eigen/Core>
#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "core/so3.hpp"
#include "core/state.hpp"
#include "core/vector_field.hpp"

// Eigen's sparse module costs every translation unit that includes this header; only hessian_sparse's signature
// needs the type. SparseCore gives the defaults (<double, ColMajor, int>, what Eigen::SparseMatrix<double> means),
// which may be declared only once, so they are spelled out where the type is used here.
namespace Eigen {
template <typename Scalar, int Options, typename StorageIndex> class SparseMatrix;
}  // namespace Eigen

namespace gib {

enum class ModelKind { rigid_body, rigid_particles, newtonian, vector_field };

inline const char* to_string(ModelKind k) {
  switch (k) {
    case ModelKind::rigid_body: return "rigid_body";
    case ModelKind::rigid_particles: return "rigid_particles";
    case ModelKind::newtonian: return "newtonian";
    case ModelKind::vector_field: return "vector_field";
  }
  return "?";
}

// ---------------------------------------------------------------------------------------------
// Rigid body about a fixed point.

// A potential V(R) acting on one body. The body torque is T = -(left-trivialised gradient):
// V(R exp(eps eta)) = V(R) - eps eta . T + O(eps^2).
class RigidBodyPotential {
 public:
  virtual ~RigidBodyPotential() = default;
  virtual double energy(const Mat3& R) const = 0;
  virtual Vec3 body_torque(const Mat3& R) const = 0;
  // dT/d eta for a body-side increment R exp(eta); for Newton Jacobians of implicit methods.
  virtual Mat3 body_torque_jacobian(const Mat3& R) const = 0;
  // V is linear in R (a uniform field, e.g. gravity on a heavy top): some methods conserve more there.
  virtual bool uniform_field() const { return false; }
  // V extended to every 3x3 matrix (energy(R) must then be valid off SO(3)), for the relaxed-rotation
  // Newtonian form R in R^{3x3} that the Zhang-Skeel family integrates (Tao-Owhadi 4.5, issue 7): Frobenius
  // gradient, Hessian applied to a, and third derivative contracted twice, V'''(R)[a, a]. Potentials
  // without an extension return false, and the relaxed-rotation methods refuse them.
  virtual bool has_euclidean_extension() const { return false; }
  virtual Mat3 euclidean_gradient(const Mat3& /*R*/) const { return Mat3::Zero(); }
  virtual Mat3 euclidean_hessian_apply(const Mat3& /*R*/, const Mat3& /*a*/) const { return Mat3::Zero(); }
  virtual Mat3 euclidean_third_contracted(const Mat3& /*R*/, const Mat3& /*a*/) const { return Mat3::Zero(); }
};

// Principal moments (diagonal body inertia) plus an optional potential. Torque-free when potential is null.
class RigidBodyModel {
 public:
  RigidBodyModel(const Vec3& inertia, std::shared_ptr<const RigidBodyPotential> potential = nullptr)
      : inertia_(inertia), inv_inertia_(inertia.cwiseInverse()), potential_(std::move(potential)) {}

  const Vec3& inertia() const { return inertia_; }
  const Vec3& inverse_inertia() const { return inv_inertia_; }
  bool torque_free() const { return potential_ == nullptr; }
  bool uniform_field() const { return potential_ == nullptr || potential_->uniform_field(); }
  const RigidBodyPotential* potential() const { return potential_.get(); }

  Vec3 angular_velocity(const Vec3& Pi) const { return inv_inertia_.cwiseProduct(Pi); }
  double kinetic_energy(const Vec3& Pi) const { return 0.5 * Pi.dot(inv_inertia_.cwiseProduct(Pi)); }
  double potential_energy(const Mat3& R) const { return potential_ ? potential_->energy(R) : 0.0; }
  double energy(const RigidBodyState& x) const { return kinetic_energy(x.Pi) + potential_energy(x.R); }
  Vec3 body_torque(const Mat3& R) const { return potential_ ? potential_->body_torque(R) : Vec3::Zero(); }

  // The vector field in body form: Rdot = R hat(omega), Pidot = Pi x omega + T(R).
  Vec3 pi_dot(const Mat3& R, const Vec3& Pi) const { return Pi.cross(angular_velocity(Pi)) + body_torque(R); }

 private:
  Vec3 inertia_;
  Vec3 inv_inertia_;
  std::shared_ptr<const RigidBodyPotential> potential_;
};

// ---------------------------------------------------------------------------------------------
// N rigid particles with translation and rotation, interacting through a pair potential
// (dipolar soft spheres, rigid water). State: positions q, linear momenta p (space frame), orientations Q
// (body to space) and body angular momenta m (left trivialisation, as Kjer). The equations of motion are
//   q' = p / M,  Q' = Q hat(I^-1 m),  p' = F,  m' = m x I^-1 m + tau,
// with F = -dV/dq (space frame) and tau the body torque: V(Q exp(eps eta)) = V(Q) - eps eta . tau + O(eps^2).
// Methods call forces_and_torques once per stage; pair loops live inside it (no virtual call per pair).
class RigidParticlesModel {
 public:
  virtual ~RigidParticlesModel() = default;
  virtual int size() const = 0;
  virtual double mass(int i) const = 0;
  virtual const Vec3& inertia(int i) const = 0;  // principal moments of particle i
  virtual double potential_energy(const ParticlesState& x) const = 0;
  // Forces F (space frame, 3xN) and body torques tau (body frame of each particle, 3xN); F and tau are
  // resized by the callee. Deterministic: the same x gives the same bits whatever the thread count.
  virtual void forces_and_torques(const ParticlesState& x, Eigen::Matrix3Xd& F, Eigen::Matrix3Xd& tau) const = 0;
  // Smallest distance between two particles (for correlating energy errors with close encounters);
  // NaN when the model has no notion of it.
  virtual double min_pair_distance(const ParticlesState& /*x*/) const { return std::nan(""); }

  double kinetic_energy(const ParticlesState& x) const {
    double k = 0;
    for (int i = 0; i < size(); ++i) {
      k += 0.5 * x.p.col(i).squaredNorm() / mass(i);
      k += 0.5 * x.m.col(i).dot(x.m.col(i).cwiseQuotient(inertia(i)));
    }
    return k;
  }
  double energy(const ParticlesState& x) const { return kinetic_energy(x) + potential_energy(x); }
};

// ---------------------------------------------------------------------------------------------
// Newtonian system on R^n: M qdd = -grad V(q) (Tao-Owhadi spec 2.1), with M constant SPD. Penalised
// constrained systems (core/penalty.hpp) are Newtonian models too: V = V0 + 1/2 omega^2 g^T g, and they
// expose their constraints and V0 so that methods enforcing g = 0 exactly (RATTLE) can run on them.
class ConstraintSet;

class NewtonianModel {
 public:
  virtual ~NewtonianModel() = default;
  virtual int dim() const = 0;
  // Constant SPD mass matrix (dense storage; sparse and block solvers take its structure from here).
  virtual const Eigen::MatrixXd& mass_matrix() const = 0;
  // True when M is diagonal (point masses; the relaxed rotation's blockdiag(J, J, J)): M^-1 is then cheap.
  virtual bool diagonal_mass() const { return false; }
  virtual double potential(const Eigen::VectorXd& q) const = 0;
  virtual void gradient(const Eigen::VectorXd& q, Eigen::VectorXd& g) const = 0;
  virtual void hessian(const Eigen::VectorXd& q, Eigen::MatrixXd& H) const = 0;
  // Models with a sparse Hessian (the DNA chain: cyclic tridiagonal) say so and fill hessian_sparse with a
  // pattern that does not depend on q, so solvers analyse it once. The default converts the dense one.
  virtual bool sparse_hessian() const { return false; }
  virtual void hessian_sparse(const Eigen::VectorXd& q, Eigen::SparseMatrix<double, Eigen::ColMajor, int>& H) const;
  // Third derivative contracted twice, V'''(q)[a, a]_i = sum_jk d^3 V / dq_i dq_j dq_k a_j a_k.
  virtual void third_derivative_contracted(const Eigen::VectorXd& q, const Eigen::VectorXd& a,
                                           Eigen::VectorXd& out) const = 0;
  // Integrator 5 (spec 2.6) splits V = V0 + V1 with V1 stiff (the penalty) and uses Hess V1 only; models
  // without such a split return false and Integrator 5 refuses them.
  virtual bool has_stiff_part() const { return false; }
  virtual void stiff_hessian(const Eigen::VectorXd& q, Eigen::MatrixXd& H) const { hessian(q, H); }
  // A stiff Hessian that is block diagonal, blocks of this many consecutive coordinates (a rigid water's 9), returns
  // the size, and stiff_hessian_blocks() fills one block per group (Integrator 5 then solves block by block, O(n)
  // instead of a dense O(n^3) factorisation); 0 (the default): no such structure.
  virtual int stiff_block_size() const { return 0; }
  virtual void stiff_hessian_blocks(const Eigen::VectorXd& q, std::vector<Eigen::MatrixXd>& blocks) const;
  // Holonomic constraints g(q) = 0 and the model without their penalty (V0), for methods that enforce the
  // constraints exactly; both null for unconstrained models.
  virtual const ConstraintSet* constraint_set() const { return nullptr; }
  virtual const NewtonianModel* unpenalized() const { return nullptr; }

  // Diagonal masses skip the dense product: the runner evaluates the energy every step, and a dense M v would
  // dominate a long chain's step (N = 200: 40000 flops against Z&S's O(N) tridiagonal solve).
  double kinetic_energy(const Eigen::VectorXd& v) const {
    if (diagonal_mass()) return 0.5 * v.dot(mass_matrix().diagonal().cwiseProduct(v));
    return 0.5 * v.dot(mass_matrix() * v);
  }
  double energy(const NewtonianState& x) const { return kinetic_energy(x.v) + potential(x.q); }
};

// Holonomic constraints g: R^n -> R^m (Tao-Owhadi spec 2.4), with the derivatives the penalty
// 1/2 omega^2 g^T g and RATTLE need. Curvature terms come as contractions, never as m Hessians.
class ConstraintSet {
 public:
  virtual ~ConstraintSet() = default;
  virtual int size() const = 0;  // m
  virtual void values(const Eigen::VectorXd& q, Eigen::VectorXd& g) const = 0;
  virtual void jacobian(const Eigen::VectorXd& q, Eigen::MatrixXd& G) const = 0;  // m x n, G = dg/dq
  // H += sum_i w_i Hess g_i(q).
  virtual void add_weighted_hessian(const Eigen::VectorXd& q, const Eigen::VectorXd& w, Eigen::MatrixXd& H) const = 0;
  // out = sum_i w_i Hess g_i(q) a (an n-vector).
  virtual void weighted_hessian_vector(const Eigen::VectorXd& q, const Eigen::VectorXd& w, const Eigen::VectorXd& a,
                                       Eigen::VectorXd& out) const = 0;
  // out_i = a^T Hess g_i(q) a (an m-vector).
  virtual void hessian_quadratic_forms(const Eigen::VectorXd& q, const Eigen::VectorXd& a, Eigen::VectorXd& out) const = 0;
  // Constraints that each involve only the coordinates of one block of this many consecutive coordinates (a rigid
  // molecule's bonds) return the size, and add_penalty_hessian_blocks() adds, per block k, (G^T G + sum_i g_i Hess g_i)
  // restricted to the block, from that block's constraints: the penalty's Hessian / omega^2. 0: no such structure.
  virtual int block_size() const { return 0; }
  virtual void add_penalty_hessian_blocks(const Eigen::VectorXd& q, std::vector<Eigen::MatrixXd>& blocks) const;
  // With block structure, G without its zeros: jacobian_blocks() makes blocks[k] hold the indices of the constraints
  // of block k (increasing; every constraint in exactly one block, a block may have none) and their Jacobian
  // restricted to block k's coordinates (constraints.size() x block_size()). G is block diagonal in this ordering,
  // so solvers in the multipliers (RATTLE) work molecule by molecule in O(m) instead of on the dense m x n G. The
  // index lists do not depend on q; blocks keeps its storage between calls of the same size.
  struct JacobianBlock {
    std::vector<int> constraints;
    Eigen::MatrixXd G;
  };
  virtual void jacobian_blocks(const Eigen::VectorXd& q, std::vector<JacobianBlock>& blocks) const;
  // out = sum_i w_i g_i'''(q)[a, a]; zero for quadratic constraints (distances, R^T R = I).
  virtual void weighted_third_contracted(const Eigen::VectorXd& q, const Eigen::VectorXd& /*w*/,
                                         const Eigen::VectorXd& /*a*/, Eigen::VectorXd& out) const {
    out.setZero(q.size());
  }
};

}  // namespace gib
