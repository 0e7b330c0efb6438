#include "methods/zhang_skeel/symmetric_solver.hpp"

#include <algorithm>

namespace gib::zhang_skeel {
namespace {

// An LDLT solution of a singular A is a pseudo-solution (zero pivots are skipped); a residual this large
// relative to the data means the system had no solution worth the name.
constexpr double kResidualTolerance = 1e-8;

template <class Matrix>
bool acceptable_residual(const Matrix& A, const Eigen::VectorXd& y, const Eigen::VectorXd& r) {
  const Eigen::VectorXd Ay = A * y;
  const double scale = Ay.norm() + r.norm();
  return (Ay - r).norm() <= kResidualTolerance * scale || scale == 0.0;
}

}  // namespace

SymmetricSolver::SymmetricSolver(const NewtonianModel& model, Curvature curvature)
    : model_(model),
      curvature_(curvature),
      sparse_(curvature == Curvature::full_hessian && model.sparse_hessian()),
      block_(curvature == Curvature::stiff_hessian && model.diagonal_mass() ? model.stiff_block_size() : 0) {
  if (block_ > 0 && model.dim() % block_ != 0) block_ = 0;  // a promise the dimension cannot keep: solve densely
  if (sparse_) {
    M_sparse_ = model.mass_matrix().sparseView();
    M_sparse_.makeCompressed();
  }
}

bool SymmetricSolver::assemble(const Eigen::VectorXd& q, double c) {
  if (block_ > 0) return assemble_blocks(q, c);
  return sparse_ ? assemble_sparse(q, c) : assemble_dense(q, c);
}

bool SymmetricSolver::assemble_blocks(const Eigen::VectorXd& q, double c) {
  const auto blocks = static_cast<std::size_t>(model_.dim() / block_);
  K_blocks_.resize(blocks);
  for (auto& B : K_blocks_) B.setZero(block_, block_);
  model_.stiff_hessian_blocks(q, K_blocks_);
  block_llt_.resize(blocks);
  block_ldlt_.resize(blocks);
  block_uses_ldlt_.assign(blocks, 0);
  const Eigen::VectorXd m = model_.mass_matrix().diagonal();
  for (std::size_t k = 0; k < blocks; ++k) {
    Eigen::MatrixXd A = c * K_blocks_[k];
    A.diagonal() += m.segment(static_cast<Eigen::Index>(k) * block_, block_);
    if (!A.allFinite()) return false;
    block_llt_[k].compute(A);
    if (block_llt_[k].info() == Eigen::Success) continue;
    block_uses_ldlt_[k] = 1;
    block_ldlt_[k].compute(A);
    if (block_ldlt_[k].info() != Eigen::Success) return false;
  }
  return true;
}

bool SymmetricSolver::solve_blocks(const Eigen::VectorXd& r, Eigen::VectorXd& y) const {
  y.resize(r.size());
  for (std::size_t k = 0; k < K_blocks_.size(); ++k) {
    const Eigen::Index at = static_cast<Eigen::Index>(k) * block_;
    const Eigen::VectorXd rk = r.segment(at, block_);
    if (!block_uses_ldlt_[k]) {
      y.segment(at, block_) = block_llt_[k].solve(rk);
      continue;
    }
    const Eigen::VectorXd yk = block_ldlt_[k].solve(rk);
    Eigen::MatrixXd A = block_ldlt_[k].reconstructedMatrix();
    if (!acceptable_residual(A, yk, rk)) return false;
    y.segment(at, block_) = yk;
  }
  return y.allFinite();
}

bool SymmetricSolver::assemble_dense(const Eigen::VectorXd& q, double c) {
  if (curvature_ == Curvature::full_hessian)
    model_.hessian(q, K_);
  else
    model_.stiff_hessian(q, K_);
  A_ = model_.mass_matrix();
  A_.noalias() += c * K_;
  if (!A_.allFinite()) return false;
  llt_.compute(A_);
  use_ldlt_ = llt_.info() != Eigen::Success;
  if (!use_ldlt_) return true;
  ldlt_.compute(A_);
  return ldlt_.info() == Eigen::Success;
}

bool SymmetricSolver::pattern_is_analysed() const {
  const auto n_outer = static_cast<std::size_t>(A_sparse_.outerSize() + 1);
  const auto n_inner = static_cast<std::size_t>(A_sparse_.nonZeros());
  return analysed_outer_.size() == n_outer && analysed_inner_.size() == n_inner &&
         std::equal(analysed_outer_.begin(), analysed_outer_.end(), A_sparse_.outerIndexPtr()) &&
         std::equal(analysed_inner_.begin(), analysed_inner_.end(), A_sparse_.innerIndexPtr());
}

void SymmetricSolver::remember_pattern() {
  analysed_outer_.assign(A_sparse_.outerIndexPtr(), A_sparse_.outerIndexPtr() + A_sparse_.outerSize() + 1);
  analysed_inner_.assign(A_sparse_.innerIndexPtr(), A_sparse_.innerIndexPtr() + A_sparse_.nonZeros());
}

bool SymmetricSolver::assemble_sparse(const Eigen::VectorXd& q, double c) {
  model_.hessian_sparse(q, K_sparse_);
  K_sparse_.makeCompressed();
  A_sparse_ = M_sparse_ + c * K_sparse_;
  A_sparse_.makeCompressed();
  // The model promises a q-independent pattern; a changed one is analysed again rather than trusted.
  if (!pattern_is_analysed()) {
    sparse_ldlt_.analyzePattern(A_sparse_);
    remember_pattern();
  }
  sparse_ldlt_.factorize(A_sparse_);
  return sparse_ldlt_.info() == Eigen::Success;
}

bool SymmetricSolver::solve(const Eigen::VectorXd& r, Eigen::VectorXd& y, OpCounters& counters) {
  ++counters.linear_solves;
  if (block_ > 0) return solve_blocks(r, y);
  if (sparse_) {
    y = sparse_ldlt_.solve(r);
    return sparse_ldlt_.info() == Eigen::Success && y.allFinite() && acceptable_residual(A_sparse_, y, r);
  }
  if (!use_ldlt_) {
    y = llt_.solve(r);
    return y.allFinite();
  }
  y = ldlt_.solve(r);
  return y.allFinite() && acceptable_residual(A_, y, r);
}

void SymmetricSolver::curvature_times(const Eigen::VectorXd& v, Eigen::VectorXd& out) const {
  if (block_ > 0) {
    out.resize(v.size());
    for (std::size_t k = 0; k < K_blocks_.size(); ++k) {
      const Eigen::Index at = static_cast<Eigen::Index>(k) * block_;
      out.segment(at, block_).noalias() = K_blocks_[k] * v.segment(at, block_);
    }
    return;
  }
  if (sparse_)
    out = K_sparse_ * v;
  else
    out.noalias() = K_ * v;
}

}  // namespace gib::zhang_skeel
