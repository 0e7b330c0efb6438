// Model interfaces for the three model kinds (GUIDE 2). A model is the physics a method needs to take
// a step; a problem (problems/) wraps a model with presets, an initial state, invariants and a reference.
//
// Dispatch: methods hold a const reference to the model and call it once per stage (torque or force
// evaluation). Pair loops and the like live inside the model, so no virtual call happens per pair.
#pragma once

#include <Eigen/Core>
#include <cmath>
#include <memory>
#include <string>

#include "core/so3.hpp"
#include "core/state.hpp"

namespace gib {

enum class ModelKind { rigid_body, rigid_particles, newtonian };

inline const char* to_string(ModelKind k) {
  switch (k) {
    case ModelKind::rigid_body: return "rigid_body";
    case ModelKind::rigid_particles: return "rigid_particles";
    case ModelKind::newtonian: return "newtonian";
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
// Newtonian system on R^n: M qdd = -grad V(q), with optional holonomic constraints g(q) = 0 and their
// penalty 1/2 omega^2 g^T g (Zhang-Skeel family, penalised pendula, relaxed-rotation rigid bodies).
class NewtonianModel {
 public:
  virtual ~NewtonianModel() = default;
  virtual int dim() const = 0;
  virtual const Eigen::MatrixXd& mass_matrix() const = 0;
  virtual double potential(const Eigen::VectorXd& q) const = 0;
  virtual void gradient(const Eigen::VectorXd& q, Eigen::VectorXd& g) const = 0;
  virtual void hessian(const Eigen::VectorXd& q, Eigen::MatrixXd& H) const = 0;
  // Third derivative contracted twice, V'''(q)[a, a].
  virtual void third_derivative_contracted(const Eigen::VectorXd& q, const Eigen::VectorXd& a,
                                           Eigen::VectorXd& out) const = 0;
  virtual int num_constraints() const { return 0; }
  virtual void constraints(const Eigen::VectorXd& /*q*/, Eigen::VectorXd& g) const { g.resize(0); }
  virtual void constraint_jacobian(const Eigen::VectorXd& q, Eigen::MatrixXd& G) const { G.resize(0, q.size()); }
};

}  // namespace gib
