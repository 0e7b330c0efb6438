// The gradient rows of the TIP3P cluster (tip3p_model.hpp, issue 24 item 5) in the 4-lane machinery of the dipole
// kernel (problems/common/simd_pack.hpp, simd_dispatch.hpp): molecule a against 4 partner molecules at a time, the
// square roots and divisions of all 10 terms (9 Coulomb, 1 Lennard-Jones) lane-wise, compiled for the baseline and
// for AVX2. Each term is the scalar loop's arithmetic, operation for operation, and the terms are added to the
// gradient one at a time in the scalar loop's order (partner, then atom i, atom j, then the oxygens' Lennard-Jones),
// so the gradient has the scalar loop's bits on every path (tests/test_tao_owhadi_problems.cpp compares them).
#pragma once

#include <Eigen/Core>
#include <array>
#include <vector>

#include "problems/common/simd_dispatch.hpp"

namespace gib::water_cluster {

inline constexpr int kAtoms = 3;   // per molecule: H, O, H
inline constexpr int kOxygen = 1;

// The atoms' coordinates as structure of arrays: coord[3 * atom + axis][molecule], atom 0, 1, 2 = H, O, H.
struct MoleculeArrays {
  std::array<std::vector<double>, 9> coord;
  void gather(const Eigen::VectorXd& q, int molecules);
};

struct TermConstants {
  double coulomb[kAtoms][kAtoms];  // Kc Q_i Q_j
  double lj_a, lj_c;     // between the oxygens
};

// Adds the gradient of every pair (a, b), b in [lo, hi), to g, whose entry 0 is coordinate `base` of q.
void molecule_row_simd(simd::SimdPath path, const MoleculeArrays& m, const TermConstants& k, int a, int lo, int hi,
                       double* g, int base);

}  // namespace gib::water_cluster
