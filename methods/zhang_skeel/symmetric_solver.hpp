// The one linear solve of the Zhang-Skeel family (spec 2.4 step 2, 2.6, and every Newton step of 2.2, 2.3, 2.9):
//   (M + c K(q)) y = r,   K = Hess V (Z&S, Newmark, midpoint) or Hess V1 of the stiff part (Integrator 5).
// A is symmetric and SPD whenever K >= -M / c, which is why the paper asks for a symmetric solve:
//   * dense: Cholesky (LLT), falling back to LDLT when A is indefinite; a singular A (checked by the residual
//     of the LDLT solution) or a non-finite solution is a failure, never a throw;
//   * block diagonal, for Integrator 5 when the model's stiff Hessian is (stiff_block_size() > 0: a water cluster's
//     9x9 penalty blocks) and M is diagonal: one small Cholesky (LDLT fallback) per block, O(n) per step;
//   * sparse, when the model says its Hessian is sparse (the DNA chain's cyclic tridiagonal one):
//     SimplicialLDLT, with the symbolic analysis of M + c K done once (the pattern does not depend on q) and
//     a numeric factorisation per assembly.
// Use: assemble(q, c) once per matrix (one Hessian evaluation and one factorisation), then solve() for as many
// right-hand sides as needed; curvature_times() applies the K just assembled (for Newton right-hand sides).
#pragma once

#include <Eigen/Cholesky>
#include <Eigen/Core>
#include <Eigen/SparseCholesky>
#include <Eigen/SparseCore>
#include <vector>

#include "core/counters.hpp"
#include "core/model.hpp"

namespace gib::zhang_skeel {

enum class Curvature { full_hessian, stiff_hessian };

class SymmetricSolver {
 public:
  SymmetricSolver(const NewtonianModel& model, Curvature curvature);

  // Evaluates K(q) and factorises A = M + c K(q). False when A cannot be factorised.
  bool assemble(const Eigen::VectorXd& q, double c);
  // y = A^-1 r with the last assembled A; counts one linear solve. False for a singular A or non-finite y.
  bool solve(const Eigen::VectorXd& r, Eigen::VectorXd& y, OpCounters& counters);
  // out = K(q) v with the K of the last assemble().
  void curvature_times(const Eigen::VectorXd& v, Eigen::VectorXd& out) const;
  // assemble(q, c) then solve(r, y).
  bool solve(const Eigen::VectorXd& q, double c, const Eigen::VectorXd& r, Eigen::VectorXd& y, OpCounters& counters) {
    return assemble(q, c) && solve(r, y, counters);
  }
  bool sparse() const { return sparse_; }
  bool blocked() const { return block_ > 0; }

 private:
  bool assemble_dense(const Eigen::VectorXd& q, double c);
  bool assemble_sparse(const Eigen::VectorXd& q, double c);
  bool assemble_blocks(const Eigen::VectorXd& q, double c);
  bool solve_blocks(const Eigen::VectorXd& r, Eigen::VectorXd& y) const;
  bool pattern_is_analysed() const;
  void remember_pattern();

  const NewtonianModel& model_;  // owned by the problem; outlives the stepper
  Curvature curvature_;
  bool sparse_;
  // dense path
  Eigen::MatrixXd K_, A_;
  Eigen::LLT<Eigen::MatrixXd> llt_;
  Eigen::LDLT<Eigen::MatrixXd> ldlt_;
  bool use_ldlt_ = false;
  // block path: K's blocks, and per block its factorisation
  int block_ = 0;
  std::vector<Eigen::MatrixXd> K_blocks_;
  std::vector<Eigen::LLT<Eigen::MatrixXd>> block_llt_;
  std::vector<Eigen::LDLT<Eigen::MatrixXd>> block_ldlt_;
  std::vector<char> block_uses_ldlt_;
  // sparse path
  Eigen::SparseMatrix<double> M_sparse_, K_sparse_, A_sparse_;
  Eigen::SimplicialLDLT<Eigen::SparseMatrix<double>> sparse_ldlt_;
  std::vector<Eigen::SparseMatrix<double>::StorageIndex> analysed_outer_, analysed_inner_;  // pattern analysed
};

}  // namespace gib::zhang_skeel
