// The intermolecular TIP3P potential of a water cluster (Tao-Owhadi spec 4.3, eq. 24), the V0 of the penalised
// model: for every pair of molecules a < b, Coulomb on all 9 atom pairs and Lennard-Jones between the oxygens,
//   V0 = sum_{a<b} ( sum_{i,j} Kc Q_i Q_j / r_{ai,bj} + A / r_{aO,bO}^12 - C / r_{aO,bO}^6 ),
// no intramolecular term, no cutoff, open boundary (a cluster in vacuum). AKMA units: angstrom, kcal/mol, amu, so the
// time unit is 48.888 fs. Atoms per molecule in the paper's order H, O, H; q stacks molecule a's atoms at 9a..9a+8.
//
// Every term is a radial pair potential f(r), so the derivatives are the cheap radial ones of eq. 30 with
// u = (x_i - x_j) / r [spec, INFERRED]:
//   gradient  f'(r) u on x_i, its negative on x_j;
//   Hessian   H = f'' u u^T + f'/r (I - u u^T), placed as [H -H; -H H];
//   V'''[a,a] with d = a_i - a_j, s = u . d, g1 = f'' - f'/r:
//             T = (f''' - g1/r) s^2 u + 2 g1 s (d - s u)/r + (g1/r) |d|^2 u on x_i, -T on x_j.
// The gradient's pair loop runs over molecule rows in the deterministic chunks of problems/common/row_chunks.hpp
// (the same bits for any thread count); from 16 molecules on, each row 4 partner molecules at a time
// (tip3p_rows_simd.hpp, the same bits as the scalar loop the other derivatives and smaller clusters use).
#pragma once

#include <Eigen/Core>
#include <vector>

#include "core/model.hpp"
#include "problems/common/row_chunks.hpp"
#include "problems/water_cluster/tip3p_rows_simd.hpp"

namespace gib::water_cluster {

struct Tip3pParameters {
  int molecules = 7;
  double coulomb = 332.0636;    // Kc, kcal A / (mol e^2); CHARMM uses 332.0716
  double charge_h = 0.417;      // e; the oxygen carries -2 charge_h
  double lj_a = 582.0e3;        // kcal A^12 / mol
  double lj_c = 595.0;          // kcal A^6 / mol
  double mass_h = 1.008;        // amu
  double mass_o = 15.9994;      // amu
};

// f, f', f'', f''' of one radial pair term at distance r.
struct Radial {
  double f, d1, d2, d3;
};
Radial coulomb_term(double k, double r);                 // k / r, k = Kc Q_i Q_j
Radial lennard_jones_term(double a, double c, double r);  // a / r^12 - c / r^6

class Tip3pModel final : public NewtonianModel {
 public:
  explicit Tip3pModel(const Tip3pParameters& p);

  int dim() const override { return 9 * p_.molecules; }
  const Eigen::MatrixXd& mass_matrix() const override { return mass_; }
  bool diagonal_mass() const override { return true; }
  double potential(const Eigen::VectorXd& q) const override;
  void gradient(const Eigen::VectorXd& q, Eigen::VectorXd& g) const override;
  void hessian(const Eigen::VectorXd& q, Eigen::MatrixXd& H) const override;
  void third_derivative_contracted(const Eigen::VectorXd& q, const Eigen::VectorXd& a,
                                   Eigen::VectorXd& out) const override;

  const Tip3pParameters& parameters() const { return p_; }
  const TermConstants& term_constants() const { return terms_; }  // the gradient rows' Kc Q_i Q_j, A and C
  double charge(int atom) const { return atom == 1 ? -2 * p_.charge_h : p_.charge_h; }  // atom 0, 1, 2 = H, O, H

 private:
  // Calls term(i, j, d, r, radial) for every intermolecular atom pair of molecules a < b: i and j atom indices into
  // q / 3, d = x_i - x_j and r = |d| (computed once, shared by the term and its caller).
  template <class Fn>
  void for_each_term(const Eigen::VectorXd& q, int a, int b, Fn&& term) const;

  Tip3pParameters p_;
  Eigen::MatrixXd mass_;
  std::vector<RowChunk> chunks_;
  TermConstants terms_;
};

}  // namespace gib::water_cluster
