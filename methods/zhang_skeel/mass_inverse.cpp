#include "methods/zhang_skeel/mass_inverse.hpp"

#include <string>

#include "core/errors.hpp"

namespace gib::zhang_skeel {

MassInverse::MassInverse(const NewtonianModel& model) : diagonal_(model.diagonal_mass()) {
  const Eigen::MatrixXd& M = model.mass_matrix();
  if (M.rows() != model.dim() || M.cols() != model.dim())
    throw InputError("mass matrix is " + std::to_string(M.rows()) + "x" + std::to_string(M.cols()) +
                     ", expected " + std::to_string(model.dim()) + "x" + std::to_string(model.dim()));
  if (diagonal_) {
    const Eigen::VectorXd d = M.diagonal();
    if (!(d.array() > 0).all() || !d.allFinite()) throw InputError("diagonal mass matrix has a non-positive entry");
    inverse_diagonal_ = d.cwiseInverse();
    return;
  }
  llt_.compute(M);
  if (llt_.info() != Eigen::Success) throw InputError("mass matrix is not symmetric positive definite");
}

void MassInverse::apply(const Eigen::VectorXd& x, Eigen::VectorXd& out) const {
  if (diagonal_)
    out = inverse_diagonal_.cwiseProduct(x);
  else
    out = llt_.solve(x);
}

Eigen::MatrixXd MassInverse::apply_columns(const Eigen::MatrixXd& X) const {
  if (diagonal_) return inverse_diagonal_.asDiagonal() * X;
  return llt_.solve(X);
}

}  // namespace gib::zhang_skeel
