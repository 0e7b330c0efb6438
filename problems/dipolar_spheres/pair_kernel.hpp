// The all-pairs dipolar soft-sphere kernel (Kjer spec 5: free space, no cutoff, O(N^2)): energy, forces
// and dV/dmu_i of N particles, templated on the scalar (double for the model; long double and 128-bit
// types for precision studies).
//
// Speed: each pair is evaluated once (Newton's third law) in a branch-free inner loop over a contiguous
// run of j; all powers of r come from 1/r by multiplication. For double, the rows run the 4-lane kernel of
// pair_rows_simd.hpp, on AVX2 where the CPU has it (the same bits either way). Other scalars take row_segment
// below: three passes (1/r^2, a sqrt pass, the pair terms) that the compiler vectorises where it can.
// Threads: OpenMP over fixed row chunks with per-chunk buffers (deterministic_chunks.hpp), so the result
// has the same bits whatever OMP_NUM_THREADS is.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <vector>

#include "problems/dipolar_spheres/deterministic_chunks.hpp"
#include "problems/dipolar_spheres/kernel_arrays.hpp"
#include "problems/dipolar_spheres/pair_math.hpp"
#include "problems/dipolar_spheres/pair_rows_simd.hpp"
#include "problems/dipolar_spheres/scalar_math.hpp"

namespace gib::dipolar_spheres {

// 1/|q_i - q_j| for j in [lo, hi) into t[0 .. hi - lo).
template <class S>
void inverse_distances(const ParticleArrays<S>& p, std::size_t i, std::size_t lo, std::size_t hi, S* t) {
  const S xi = p.x[i], yi = p.y[i], zi = p.z[i];
  const S* xj = p.x.data() + lo;
  const S* yj = p.y.data() + lo;
  const S* zj = p.z.data() + lo;
  const std::size_t n = hi - lo;
  GIB_PRAGMA(omp simd)
  for (std::size_t k = 0; k < n; ++k) {
    const S rx = xi - xj[k], ry = yi - yj[k], rz = zi - zj[k];
    t[k] = S(1) / (rx * rx + ry * ry + rz * rz);
  }
  sqrt_in_place(t, n);
}

// The pairs (i, j), j in [lo, hi), lo > i: adds the j sides to buf and the i side to sums.
template <class S>
void row_segment(const ParticleArrays<S>& p, const PairConstants<S>& c, std::size_t i, std::size_t lo, std::size_t hi,
                 ChunkBuffer<S>& buf, RowSums<S>& sums) {
  if (hi <= lo) return;
  S* __restrict t = buf.scratch.data();
  inverse_distances(p, i, lo, hi, t);
  const S xi = p.x[i], yi = p.y[i], zi = p.z[i], mix = p.mx[i], miy = p.my[i], miz = p.mz[i];
  const S* __restrict xj = p.x.data() + lo;
  const S* __restrict yj = p.y.data() + lo;
  const S* __restrict zj = p.z.data() + lo;
  const S* __restrict mxj = p.mx.data() + lo;
  const S* __restrict myj = p.my.data() + lo;
  const S* __restrict mzj = p.mz.data() + lo;
  const std::size_t off = lo - buf.base;
  S* __restrict fx = buf.field.fx.data() + off;
  S* __restrict fy = buf.field.fy.data() + off;
  S* __restrict fz = buf.field.fz.data() + off;
  S* __restrict ex = buf.field.ex.data() + off;
  S* __restrict ey = buf.field.ey.data() + off;
  S* __restrict ez = buf.field.ez.data() + off;
  const std::size_t n = hi - lo;
  auto terms = [&](std::size_t k) {
    const S rx = xi - xj[k], ry = yi - yj[k], rz = zi - zj[k];
    const PairTerms<S> q = pair_terms(c, rx, ry, rz, t[k], mix, miy, miz, mxj[k], myj[k], mzj[k]);
    fx[k] += q.gx;
    fy[k] += q.gy;
    fz[k] += q.gz;
    ex[k] += q.ejx;
    ey[k] += q.ejy;
    ez[k] += q.ejz;
    return q;
  };
  S e = S(0), gx = S(0), gy = S(0), gz = S(0), eix = S(0), eiy = S(0), eiz = S(0);
  if constexpr (kSimdReducible<S>) {
    GIB_PRAGMA(omp simd reduction(+ : e, gx, gy, gz, eix, eiy, eiz))
    for (std::size_t k = 0; k < n; ++k) {
      const PairTerms<S> q = terms(k);
      e += q.energy;
      gx += q.gx;
      gy += q.gy;
      gz += q.gz;
      eix += q.eix;
      eiy += q.eiy;
      eiz += q.eiz;
    }
  } else {
    for (std::size_t k = 0; k < n; ++k) {
      const PairTerms<S> q = terms(k);
      e += q.energy;
      gx += q.gx;
      gy += q.gy;
      gz += q.gz;
      eix += q.eix;
      eiy += q.eiy;
      eiz += q.eiz;
    }
  }
  sums.energy += e;
  sums.fx -= gx;
  sums.fy -= gy;
  sums.fz -= gz;
  sums.ex += eix;
  sums.ey += eiy;
  sums.ez += eiz;
}

// Adds row i's own sums to its chunk buffer.
template <class S>
void store_row(std::size_t i, const RowSums<S>& sums, ChunkBuffer<S>& buf) {
  const std::size_t m = i - buf.base;
  buf.energy += sums.energy;
  buf.field.fx[m] += sums.fx;
  buf.field.fy[m] += sums.fy;
  buf.field.fz[m] += sums.fz;
  buf.field.ex[m] += sums.ex;
  buf.field.ey[m] += sums.ey;
  buf.field.ez[m] += sums.ez;
}

template <class S>
struct AllPairsWorkspace {
  std::vector<std::int64_t> row_work;
  std::vector<std::size_t> reach;
  std::vector<RowChunk> chunks;
  std::vector<ChunkBuffer<S>> buffers;
};

// Partners per tile of the double kernel: the tile's 12 arrays (positions, dipoles, the j-side forces and fields,
// 24 kB) stay in L1 while every row of the chunk passes over them; untiled, a row of N = 1000 streams 96 kB from L2.
// Tiles start at multiples of kTile, so the segments, and the bits, depend only on N and the chunks.
inline constexpr std::size_t kTile = 256;

// The double all-pairs sum by the 4-lane kernel of pair_rows_simd.hpp: each chunk's rows in tiles of partners.
inline void all_pairs_tiled(const ParticleArrays<double>& p, const PairConstants<double>& c,
                            AllPairsWorkspace<double>& ws, PairResult<double>& out) {
  const std::size_t n = p.size();
  const SimdPath path = best_simd_path();
  run_chunk_rows(ws.chunks, ws.buffers, n, out, [&](std::size_t begin, std::size_t end, ChunkBuffer<double>& buf) {
    std::vector<RowSums<double>>& sums = buf.rows;
    sums.assign(end - begin, RowSums<double>{});
    for (std::size_t tile = (begin + 1) / kTile * kTile; tile < n; tile += kTile)
      for (std::size_t i = begin; i < end; ++i)
        row_segment_simd(path, p, c, i, std::max(i + 1, tile), std::min(n, tile + kTile), buf, sums[i - begin]);
    for (std::size_t i = begin; i < end; ++i) store_row(i, sums[i - begin], buf);
  });
}

// Energy, forces and dV/dmu of all pairs. The j side of a pair is added as +dV/dq_i, which is the force
// on j (dV/dq_j = -dV/dq_i); the i side accumulates -dV/dq_i.
template <class S>
void all_pairs(const ParticleArrays<S>& p, const PairConstants<S>& c, AllPairsWorkspace<S>& ws, PairResult<S>& out) {
  const std::size_t n = p.size();
  ws.row_work.resize(n);
  ws.reach.assign(n, n);
  for (std::size_t i = 0; i < n; ++i) ws.row_work[i] = static_cast<std::int64_t>(n - 1 - i);
  partition_rows(ws.row_work, ws.reach, ws.chunks);
  if constexpr (std::is_same_v<S, double>) {
    all_pairs_tiled(p, c, ws, out);
  } else {
    run_chunks(ws.chunks, ws.buffers, n, out, [&](std::size_t i, ChunkBuffer<S>& buf) {
      RowSums<S> sums;
      row_segment(p, c, i, i + 1, n, buf, sums);
      store_row(i, sums, buf);
    });
  }
}

}  // namespace gib::dipolar_spheres
