#include "core/model.hpp"

#include <Eigen/SparseCore>

namespace gib {

void NewtonianModel::hessian_sparse(const Eigen::VectorXd& q, Eigen::SparseMatrix<double>& H) const {
  Eigen::MatrixXd d;
  hessian(q, d);
  H = d.sparseView();
}

}  // namespace gib
