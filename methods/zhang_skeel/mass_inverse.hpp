// M^-1 applied to vectors and matrices for a constant SPD mass matrix (spec 2.1): a division when the model says M
// is diagonal, otherwise one Cholesky factor computed when the method is built and reused for every step.
#pragma once

#include <Eigen/Cholesky>
#include <Eigen/Core>

#include "core/model.hpp"

namespace gib::zhang_skeel {

class MassInverse {
 public:
  // Throws InputError when M is not symmetric positive definite (or has the wrong size).
  explicit MassInverse(const NewtonianModel& model);

  // out = M^-1 x (out may not alias x).
  void apply(const Eigen::VectorXd& x, Eigen::VectorXd& out) const;
  Eigen::VectorXd operator()(const Eigen::VectorXd& x) const {
    Eigen::VectorXd out;
    apply(x, out);
    return out;
  }
  // M^-1 X for an n x m matrix (RATTLE's M^-1 G^T).
  Eigen::MatrixXd apply_columns(const Eigen::MatrixXd& X) const;

 private:
  bool diagonal_;
  Eigen::VectorXd inverse_diagonal_;
  Eigen::LLT<Eigen::MatrixXd> llt_;
};

}  // namespace gib::zhang_skeel
