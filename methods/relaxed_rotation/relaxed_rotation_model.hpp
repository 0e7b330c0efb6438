// A rigid body in Newtonian form with a relaxed rotation matrix (issue 7 deliverable 4; Tao-Owhadi spec 2.11,
// 4.5): R ranges over all of R^{3x3}, the kinetic energy is 1/2 tr(Rdot J Rdot^T) with J = 1/2 tr(I) 1 - I, and
// an orthogonality penalty 1/2 omega^2 tr((R^T R - I)^2) keeps R near SO(3). On SO(3), with Rdot = R hat(Omega),
// 1/2 tr(Rdot J Rdot^T) = 1/2 Omega^T (tr(J) 1 - J) Omega = 1/2 Omega^T I Omega, so the relaxed system is the
// rigid body plus a stiff normal spring; as omega -> infinity its solution tends to the body's, with
// |R^T R - I| = O(|Omega|^2 / omega^2) (the centrifugal stretch), not round-off.
//
// Coordinates: q = vec(R), column-major, R(i, j) at q(i + 3 j); v = vec(Rdot). The mass matrix is diagonal,
// J_j on every entry of column j (1/2 tr(Rdot J Rdot^T) = 1/2 sum_j J_j |Rdot e_j|^2); J_j > 0 is the strict
// triangle inequality of the moments.
//
// The model is PenalizedModel(body part, OrthogonalityConstraints, omega), so every Newtonian method runs on it
// unchanged: Z&S (the Hessian and V''' of the penalty come from the constraint set), Integrator 5 (the penalty is
// the stiff part) and RATTLE (which enforces R^T R = I exactly and so integrates the rigid body itself).
#pragma once

#include <memory>

#include "core/model.hpp"
#include "core/penalty.hpp"
#include "core/state.hpp"

namespace gib::relaxed_rotation {

// J = 1/2 tr(I) 1 - I for principal moments I; throws InputError unless every J_j > 0.
Vec3 relaxed_mass(const Vec3& inertia);

// The body part: M = diag(J_j per column), V(R) = the body potential's Euclidean extension (0 when torque-free).
class RelaxedBodyModel final : public NewtonianModel {
 public:
  // Throws InputError when the potential has no Euclidean extension or the inertia gives J_j <= 0.
  explicit RelaxedBodyModel(RigidBodyModel body);

  int dim() const override { return 9; }
  const Eigen::MatrixXd& mass_matrix() const override { return mass_; }
  bool diagonal_mass() const override { return true; }
  double potential(const Eigen::VectorXd& q) const override;
  void gradient(const Eigen::VectorXd& q, Eigen::VectorXd& g) const override;
  void hessian(const Eigen::VectorXd& q, Eigen::MatrixXd& H) const override;
  void third_derivative_contracted(const Eigen::VectorXd& q, const Eigen::VectorXd& a,
                                   Eigen::VectorXd& out) const override;

  const RigidBodyModel& body() const { return body_; }
  const Vec3& column_mass() const { return column_mass_; }

 private:
  RigidBodyModel body_;
  Vec3 column_mass_;
  Eigen::MatrixXd mass_;
};

// R^T R = I as the 6 quadratic constraints g = (C11, C22, C33, sqrt2 C12, sqrt2 C13, sqrt2 C23), C = R^T R - I,
// weighted so that g^T g = tr(C^2). With r_k the columns of R, C_kl = r_k . r_l - delta_kl, so
//   dC_kl/dR puts r_l in column k and r_k in column l;  Hess C_kl a puts a_l in column k and a_k in column l;
//   a^T Hess C_kl a = 2 a_k . a_l;  C''' = 0.
class OrthogonalityConstraints final : public ConstraintSet {
 public:
  int size() const override { return 6; }
  void values(const Eigen::VectorXd& q, Eigen::VectorXd& g) const override;
  void jacobian(const Eigen::VectorXd& q, Eigen::MatrixXd& G) const override;
  void add_weighted_hessian(const Eigen::VectorXd& q, const Eigen::VectorXd& w, Eigen::MatrixXd& H) const override;
  void weighted_hessian_vector(const Eigen::VectorXd& q, const Eigen::VectorXd& w, const Eigen::VectorXd& a,
                               Eigen::VectorXd& out) const override;
  void hessian_quadratic_forms(const Eigen::VectorXd& q, const Eigen::VectorXd& a, Eigen::VectorXd& out) const override;
};

// PenalizedModel(RelaxedBodyModel(body), OrthogonalityConstraints, omega); throws InputError for omega <= 0 or
// non-finite, and as RelaxedBodyModel does.
std::shared_ptr<const PenalizedModel> relaxed_rotation_model(const RigidBodyModel& body, double omega);

// vec and unvec, column-major.
Eigen::VectorXd vec(const Mat3& m);
Mat3 unvec(const Eigen::VectorXd& q);

// Into the relaxed form: q = vec(R), v = vec(R hat(I^-1 Pi)).
NewtonianState to_relaxed(const RigidBodyState& x, const RigidBodyModel& body);
// Back: R = q as it is (not re-orthogonalised: the manifold residual is reported honestly) and
// Pi = I vee(skew(R^T Rdot)). On SO(3), R^T Rdot = hat(Omega) exactly; off it, the skew part of the body-frame
// velocity R^T Rdot is the natural angular velocity (its symmetric part is the stretch rate, which the penalty
// resists). The map loses information (Rdot has 9 entries), which is why steppers keep their own Newtonian state.
RigidBodyState from_relaxed(const NewtonianState& x, const RigidBodyModel& body);

}  // namespace gib::relaxed_rotation
