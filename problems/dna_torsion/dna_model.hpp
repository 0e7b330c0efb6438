// The Mezic DNA torsion chain (Tao-Owhadi spec 4.4, eq. 31) as a Newtonian model: N base-pair angles theta_k,
// M = I,
//   V = sum over bonds 1/2 (theta_{k+1} - theta_k)^2 + eps sum_k U(theta_k),
//   U(theta) = (E - 1)^2,  E = exp(-a (1 - cos theta - x0)),
// so theta_k'' = theta_{k+1} - 2 theta_k + theta_{k-1} - eps U'(theta_k). Bonds: periodic, theta_{N+1} = theta_1
// [ASSUMPTION, spec A14: consistent with the cos(4 pi k / N) initial velocity and the Mezic model], or free ends.
// Derivatives [INFERRED in the spec, checked here by finite differences]:
//   U'   = -2a sin E (E - 1)
//   U''  = -2a cos E (E - 1) + 2a^2 sin^2 E (2E - 1)
//   U''' =  2a sin E (E - 1) + 6a^2 sin cos E (2E - 1) - 2a^3 sin^3 E (4E - 1)
// Hess V = the (periodic) graph Laplacian + eps diag U''(theta_k): cyclic tridiagonal, with a sparse form whose
// pattern does not depend on theta; V'''[a, a]_k = eps U'''(theta_k) a_k^2.
// U has its minima U = 0 where cos theta = 1 - x0 (E = 1), with U'' = 2a^2 sin^2 theta there (49.98 for a = 7,
// x0 = 0.3): the metastable angles 0.795 and 5.49 of Fig 8.
#pragma once

#include <Eigen/SparseCore>
#include <vector>

#include "core/model.hpp"

namespace gib::dna_torsion {

struct DnaParameters {
  int n = 200;                    // base pairs, >= 3
  double a = 7.0;                 // > 0
  double x0 = 0.3;                // finite
  double epsilon = 1.0 / 1400.0;  // >= 0
  bool periodic = true;
};

// U and its first three derivatives at theta.
struct SitePotential {
  double value, first, second, third;
};
SitePotential site_potential(double theta, double a, double x0);

class DnaTorsionModel final : public NewtonianModel {
 public:
  explicit DnaTorsionModel(const DnaParameters& p);

  int dim() const override { return p_.n; }
  const Eigen::MatrixXd& mass_matrix() const override { return mass_; }
  bool diagonal_mass() const override { return true; }
  double potential(const Eigen::VectorXd& q) const override;
  void gradient(const Eigen::VectorXd& q, Eigen::VectorXd& g) const override;
  void hessian(const Eigen::VectorXd& q, Eigen::MatrixXd& H) const override;
  bool sparse_hessian() const override { return true; }
  void hessian_sparse(const Eigen::VectorXd& q, Eigen::SparseMatrix<double>& H) const override;
  void third_derivative_contracted(const Eigen::VectorXd& q, const Eigen::VectorXd& a,
                                   Eigen::VectorXd& out) const override;

  const DnaParameters& parameters() const { return p_; }

 private:
  struct Bond {
    int i, j;
  };
  DnaParameters p_;
  Eigen::MatrixXd mass_;
  std::vector<Bond> bonds_;                 // (k, k+1), and (N-1, 0) when periodic
  Eigen::SparseMatrix<double> laplacian_;  // the bonds' Hessian, compressed; the fixed pattern
  std::vector<Eigen::Index> diagonal_at_;  // position of (k, k) in laplacian_'s values
};

}  // namespace gib::dna_torsion
