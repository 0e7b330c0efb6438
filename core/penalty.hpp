// Penalised constrained systems (Tao-Owhadi spec 2.4, 3): V = V0 + 1/2 omega^2 g^T g, built from an
// unconstrained model V0 and a constraint set g. The penalised model is an ordinary Newtonian model, so
// every Newtonian method runs on it; it also keeps V0 and g for methods that enforce g = 0 (RATTLE), and
// declares the penalty its stiff part (Integrator 5 takes the Hessian of the penalty alone).
//
//   grad P     = omega^2 G^T g
//   Hess P     = omega^2 (G^T G + sum_i g_i Hess g_i)
//   P'''[a, a] = omega^2 (2 sum_i (G a)_i Hess g_i a + G^T (a^T Hess g_i a)_i + sum_i g_i g_i'''[a, a])
#pragma once

#include <memory>
#include <vector>

#include "core/model.hpp"

namespace gib {

class PenalizedModel : public NewtonianModel {
 public:
  // omega > 0; the constraint set must act on q of dimension base->dim().
  PenalizedModel(std::shared_ptr<const NewtonianModel> base, std::shared_ptr<const ConstraintSet> constraints,
                 double omega);

  int dim() const override { return base_->dim(); }
  const Eigen::MatrixXd& mass_matrix() const override { return base_->mass_matrix(); }
  bool diagonal_mass() const override { return base_->diagonal_mass(); }
  double potential(const Eigen::VectorXd& q) const override;
  void gradient(const Eigen::VectorXd& q, Eigen::VectorXd& g) const override;
  void hessian(const Eigen::VectorXd& q, Eigen::MatrixXd& H) const override;
  void third_derivative_contracted(const Eigen::VectorXd& q, const Eigen::VectorXd& a,
                                   Eigen::VectorXd& out) const override;
  bool has_stiff_part() const override { return true; }
  void stiff_hessian(const Eigen::VectorXd& q, Eigen::MatrixXd& H) const override;
  int stiff_block_size() const override { return constraints_->block_size(); }
  void stiff_hessian_blocks(const Eigen::VectorXd& q, std::vector<Eigen::MatrixXd>& blocks) const override;
  const ConstraintSet* constraint_set() const override { return constraints_.get(); }
  const NewtonianModel* unpenalized() const override { return base_.get(); }

  double omega() const { return omega_; }
  // 1/2 omega^2 g^T g alone.
  double penalty_energy(const Eigen::VectorXd& q) const;

 private:
  std::shared_ptr<const NewtonianModel> base_;
  std::shared_ptr<const ConstraintSet> constraints_;
  double omega_;
};

// v <- v - M^-1 G^T (G M^-1 G^T)^-1 G v, G = G(q): the mass-metric projection of v onto the constraints' tangent
// space G v = 0 (diagonal M, given as its inverse's diagonal). Keeps the total momentum when every constraint's
// gradient sums to zero over the points (distances). Used by the water cluster's initial velocities and the GLA
// thermostat's kick for constrained bases.
void project_to_tangent(const ConstraintSet& constraints, const Eigen::VectorXd& q, const Eigen::VectorXd& inverse_mass,
                        Eigen::VectorXd& v);

// Squared-distance constraints |x_i - x_j|^2 - L^2 between point masses in d dimensions (pendulum rods, rigid
// water bonds); j = -1 ties x_i to a fixed anchor point instead (a pendulum's pivot). q stacks the points:
// x_i = q.segment(d i, d).
class DistanceConstraints : public ConstraintSet {
 public:
  struct Rod {
    int i, j;              // point indices; j = -1: the anchor
    double length;         // L > 0
    Eigen::VectorXd anchor;  // size d when j = -1, else empty
  };
  // block_points > 0 promises that every rod joins two points of the same group of block_points consecutive points
  // (a rigid molecule's bonds; checked, std::invalid_argument otherwise): block_size() is then d * block_points.
  DistanceConstraints(int dimension, int points, std::vector<Rod> rods, int block_points = 0);

  int size() const override { return static_cast<int>(rods_.size()); }
  void values(const Eigen::VectorXd& q, Eigen::VectorXd& g) const override;
  void jacobian(const Eigen::VectorXd& q, Eigen::MatrixXd& G) const override;
  void add_weighted_hessian(const Eigen::VectorXd& q, const Eigen::VectorXd& w, Eigen::MatrixXd& H) const override;
  void weighted_hessian_vector(const Eigen::VectorXd& q, const Eigen::VectorXd& w, const Eigen::VectorXd& a,
                               Eigen::VectorXd& out) const override;
  void hessian_quadratic_forms(const Eigen::VectorXd& q, const Eigen::VectorXd& a, Eigen::VectorXd& out) const override;
  int block_size() const override { return d_ * block_points_; }
  void add_penalty_hessian_blocks(const Eigen::VectorXd& q, std::vector<Eigen::MatrixXd>& blocks) const override;
  void jacobian_blocks(const Eigen::VectorXd& q, std::vector<JacobianBlock>& blocks) const override;
  const std::vector<Rod>& rods() const { return rods_; }

 private:
  Eigen::VectorXd separation(const Eigen::VectorXd& q, const Rod& r) const;  // x_i - x_j (or - anchor)
  int d_, points_;
  std::vector<Rod> rods_;
  int block_points_ = 0;
};

}  // namespace gib
