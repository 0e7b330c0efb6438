// A planar chain of n point masses hanging from a pivot at the origin by rigid rods (Tao-Owhadi spec 4.1, 4.2): the
// double pendulum is n = 2. Shared by problems/double_pendulum and problems/pendulum_chain.
//
// Cartesian form (the penalised problems integrate it): q = (x_1, y_1, ..., x_n, y_n), M = diag(m_1, m_1, ...),
// gravity V0 = s g sum m_i y_i, rods g_1 = |x_1|^2 - L_1^2 and g_i = |x_i - x_{i-1}|^2 - L_i^2.
// Sign [FIX, spec 0 item 1, A2]: s = +1 (the bobs start below the pivot and hang there); the paper prints s = -1,
// which starts every pendulum inverted, at a potential maximum; gravity_sign = -1 keeps that reading.
//
// Generalised coordinates (the constrained solution, Fig 1's benchmark): theta_i is the angle of rod i from the
// downward vertical, x_i = sum_{k<=i} L_k (sin theta_k, -cos theta_k). With mu_i = sum_{k>=i} m_k, the
// Lagrangian 1/2 theta_dot^T Mt theta_dot + s g sum_i mu_i L_i cos theta_i has the mass matrix (spec 4.1 eq. 23)
//   Mt_ij = mu_max(i,j) L_i L_j cos(theta_i - theta_j)
// and the Lagrange equations [INFERRED; derived in planar_chain.cpp]
//   Mt theta_dd + (sum_j c_ij sin(theta_i - theta_j) theta_dot_j^2)_i + s g mu_i L_i sin theta_i = 0,
// c_ij = mu_max(i,j) L_i L_j. The double pendulum's (theta, phi) = (theta_1, theta_2), spec 4.1.
#pragma once

#include <Eigen/Core>
#include <memory>
#include <vector>

#include "core/model.hpp"
#include "core/penalty.hpp"
#include "problems/common/newtonian_reference.hpp"

namespace gib::planar_chain {

struct Chain {
  std::vector<double> masses;   // m_i > 0, bob 1 next to the pivot
  std::vector<double> lengths;  // L_i > 0, rod i ends at bob i
  double gravity = 1.0;         // g
  double gravity_sign = 1.0;    // +1 (hanging, the fix) or -1 (as printed: inverted)

  int size() const { return static_cast<int>(masses.size()); }
  double signed_gravity() const { return gravity_sign * gravity; }
};

// V0 = s g sum m_i y_i on q = (x_1, y_1, ...), M = diag(m_1, m_1, m_2, m_2, ...). Linear: no Hessian, no V'''.
class GravityModel final : public NewtonianModel {
 public:
  explicit GravityModel(const Chain& chain);

  int dim() const override { return static_cast<int>(mass_.rows()); }
  const Eigen::MatrixXd& mass_matrix() const override { return mass_; }
  bool diagonal_mass() const override { return true; }
  double potential(const Eigen::VectorXd& q) const override { return q.dot(gradient_); }
  void gradient(const Eigen::VectorXd& /*q*/, Eigen::VectorXd& g) const override { g = gradient_; }
  void hessian(const Eigen::VectorXd& /*q*/, Eigen::MatrixXd& H) const override { H.setZero(dim(), dim()); }
  void third_derivative_contracted(const Eigen::VectorXd& /*q*/, const Eigen::VectorXd& /*a*/,
                                   Eigen::VectorXd& out) const override {
    out.setZero(dim());
  }

 private:
  Eigen::MatrixXd mass_;
  Eigen::VectorXd gradient_;  // (0, s g m_1, 0, s g m_2, ...)
};

// Rod 1 anchored at the origin, rod i between bobs i-1 and i.
std::shared_ptr<const DistanceConstraints> rods(const Chain& chain);

// The penalised model V0 + 1/2 omega^2 g^T g.
std::shared_ptr<const PenalizedModel> penalized_model(const Chain& chain, double omega);

// Generalised coordinates <-> Cartesian state. angles() inverts cartesian_state() on a consistent state
// (g = 0, G v = 0); off it, it returns the angles of the actual rod directions and their rotation rates.
NewtonianState cartesian_state(const Chain& chain, const Eigen::VectorXd& theta, const Eigen::VectorXd& theta_dot);
void angles(const Chain& chain, const NewtonianState& x, Eigen::VectorXd& theta, Eigen::VectorXd& theta_dot);

Eigen::MatrixXd angular_mass_matrix(const Chain& chain, const Eigen::VectorXd& theta);
double angular_energy(const Chain& chain, const Eigen::VectorXd& theta, const Eigen::VectorXd& theta_dot);
void angular_acceleration(const Chain& chain, const Eigen::VectorXd& theta, const Eigen::VectorXd& theta_dot,
                          Eigen::VectorXd& theta_dd);

// The constrained (Lagrange-multiplier) dynamics as a second-order ODE in the angles, output in Cartesian form;
// x0 must be consistent. state(0) reports x0 itself.
SecondOrderOde constrained_ode(const Chain& chain, const NewtonianState& x0);

}  // namespace gib::planar_chain
