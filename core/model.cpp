#include "core/model.hpp"

#include <Eigen/SparseCore>
#include <stdexcept>

namespace gib {

void NewtonianModel::hessian_sparse(const Eigen::VectorXd& q, Eigen::SparseMatrix<double>& H) const {
  Eigen::MatrixXd d;
  hessian(q, d);
  H = d.sparseView();
}

// Callers ask only when stiff_block_size() / block_size() is positive: reaching these is a programming error.
void NewtonianModel::stiff_hessian_blocks(const Eigen::VectorXd&, std::vector<Eigen::MatrixXd>&) const {
  throw std::logic_error("stiff_hessian_blocks on a model whose stiff Hessian has no block structure");
}

void ConstraintSet::add_penalty_hessian_blocks(const Eigen::VectorXd&, std::vector<Eigen::MatrixXd>&) const {
  throw std::logic_error("add_penalty_hessian_blocks on constraints without block structure");
}

void ConstraintSet::jacobian_blocks(const Eigen::VectorXd&, std::vector<JacobianBlock>&) const {
  throw std::logic_error("jacobian_blocks on constraints without block structure");
}

}  // namespace gib
