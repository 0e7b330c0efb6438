// Compiled as problems/dipolar_spheres/pair_rows_simd.cpp is (CMakeLists.txt): -fno-math-errno for one sqrtpd per
// lane-wise square root, -ffp-contract=off so that nothing is fused on any path, out of the unity batches.
#include "problems/water_cluster/tip3p_rows_simd.hpp"

#include <algorithm>

#include "problems/common/simd_pack.hpp"

#pragma GCC diagnostic ignored "-Wpsabi"  // packs passed by value between inlined functions, as in pair_rows_simd.cpp

namespace gib::water_cluster {

void MoleculeArrays::gather(const Eigen::VectorXd& q, int molecules) {
  for (auto& v : coord) v.resize(static_cast<std::size_t>(molecules));
  for (int b = 0; b < molecules; ++b)
    for (int c = 0; c < 9; ++c) coord[static_cast<std::size_t>(c)][static_cast<std::size_t>(b)] = q(9 * b + c);
}

namespace {

using simd::Pack4;
constexpr int kTerms = kAtoms * kAtoms + 1;  // 9 Coulomb terms and the oxygens' Lennard-Jones

// |d|^2 in the grouping Eigen's squaredNorm of a Vector3d uses, so that r has the scalar loop's bits.
[[gnu::always_inline]] inline Pack4 squared_norm(Pack4 x, Pack4 y, Pack4 z) { return (x * x + y * y) + z * z; }

[[gnu::always_inline]] inline void row_pack4(const MoleculeArrays& m, const TermConstants& k, int a, int lo, int hi,
                                             double* g, int base) {
  const auto at = [&](int atom, int axis, int molecule) {
    return m.coord[static_cast<std::size_t>(3 * atom + axis)][static_cast<std::size_t>(molecule)];
  };
  for (int b = lo; b < hi; b += static_cast<int>(simd::kLanes)) {
    const auto live = static_cast<std::size_t>(std::min<int>(static_cast<int>(simd::kLanes), hi - b));
    const auto load = [&](int atom, int axis) {
      const double* p = m.coord[static_cast<std::size_t>(3 * atom + axis)].data() + b;
      return live == simd::kLanes ? simd::load(p) : simd::load_first(p, live, 0.0);
    };
    // Each term's force s d, s = f'(r) / r; dead lanes sit at the origin, 1 away from nothing: they are never added.
    Pack4 fx[kTerms], fy[kTerms], fz[kTerms];
    const auto separation = [&](int i, int j, Pack4& dx, Pack4& dy, Pack4& dz) {
      dx = Pack4(at(i, 0, a)) - load(j, 0);
      dy = Pack4(at(i, 1, a)) - load(j, 1);
      dz = Pack4(at(i, 2, a)) - load(j, 2);
    };
    const simd::MaskD4 alive = simd::first_lanes(live);
    for (int i = 0; i < kAtoms; ++i)
      for (int j = 0; j < kAtoms; ++j) {
        Pack4 dx, dy, dz;
        separation(i, j, dx, dy, dz);
        const Pack4 r = simd::sqrt(simd::select(alive, squared_norm(dx, dy, dz), 1.0));
        const Pack4 inv = Pack4(1.0) / r;  // coulomb_term: f = k / r, f' = -f / r
        const Pack4 f = Pack4(k.coulomb[i][j]) * inv;
        const Pack4 s = (-f * inv) / r;
        const int t = kAtoms * i + j;
        fx[t] = s * dx;
        fy[t] = s * dy;
        fz[t] = s * dz;
      }
    {
      Pack4 dx, dy, dz;
      separation(kOxygen, kOxygen, dx, dy, dz);
      const Pack4 r = simd::sqrt(simd::select(alive, squared_norm(dx, dy, dz), 1.0));
      const Pack4 inv = Pack4(1.0) / r, inv2 = inv * inv;  // lennard_jones_term
      const Pack4 inv6 = inv2 * inv2 * inv2, inv12 = inv6 * inv6;
      const Pack4 rep = Pack4(k.lj_a) * inv12, att = Pack4(k.lj_c) * inv6;
      const Pack4 s = ((Pack4(-12.0) * rep + Pack4(6.0) * att) * inv) / r;
      fx[kTerms - 1] = s * dx;
      fy[kTerms - 1] = s * dy;
      fz[kTerms - 1] = s * dz;
    }
    for (std::size_t l = 0; l < live; ++l) {
      const int partner = b + static_cast<int>(l);
      const auto add = [&](int t, int ai, int bj) {
        double* gi = g + 3 * ai - base;
        double* gj = g + 3 * bj - base;
        gi[0] += fx[t].v[l];
        gi[1] += fy[t].v[l];
        gi[2] += fz[t].v[l];
        gj[0] -= fx[t].v[l];
        gj[1] -= fy[t].v[l];
        gj[2] -= fz[t].v[l];
      };
      for (int i = 0; i < kAtoms; ++i)
        for (int j = 0; j < kAtoms; ++j) add(kAtoms * i + j, kAtoms * a + i, kAtoms * partner + j);
      add(kTerms - 1, kAtoms * a + kOxygen, kAtoms * partner + kOxygen);
    }
  }
}

[[gnu::flatten]] void rows_baseline(const MoleculeArrays& m, const TermConstants& k, int a, int lo, int hi, double* g,
                                    int base) {
  row_pack4(m, k, a, lo, hi, g, base);
}

#if defined(__x86_64__)
[[gnu::flatten, gnu::target("avx2")]] void rows_avx2(const MoleculeArrays& m, const TermConstants& k, int a, int lo,
                                                     int hi, double* g, int base) {
  row_pack4(m, k, a, lo, hi, g, base);
}
#endif

}  // namespace

void molecule_row_simd(simd::SimdPath path, const MoleculeArrays& m, const TermConstants& k, int a, int lo, int hi,
                       double* g, int base) {
#if defined(__x86_64__)
  if (path == simd::SimdPath::avx2) return rows_avx2(m, k, a, lo, hi, g, base);
#endif
  rows_baseline(m, k, a, lo, hi, g, base);
}

}  // namespace gib::water_cluster
