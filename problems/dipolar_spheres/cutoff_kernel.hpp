// The cutoff variant of the dipole kernel: pairs closer than c.cutoff, each multiplied by the C2 switch
// of pair_math.hpp (so the forces are the exact gradient of the reported energy), found with a cell list
// rebuilt every call over the particles' bounding box (free space). Not the paper's setting; used when the
// parameter cutoff is positive: in double the model runs the Verlet-list version (verlet_list.hpp), which builds its
// list from the cell list and sorting below; this template is the other precisions' (forces_any_precision.hpp).
//
// The particles are gathered in cell order; each row packs its partners inside the cutoff from the cell
// stencil's runs (about 1 in 5 candidates is inside), evaluates them in one vectorised loop and scatters
// the partners' sides back. Rows run in the same deterministic chunks as the all-pairs kernel (work per
// row = its candidate count); the results return in the caller's order.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "problems/dipolar_spheres/cell_list.hpp"
#include "problems/dipolar_spheres/pair_kernel.hpp"

namespace gib::dipolar_spheres {

template <class S>
struct CutoffWorkspace {
  CellList cells;
  std::vector<double> bx, by, bz;  // positions in double for the binning
  ParticleArrays<S> sorted;
  PairResult<S> sorted_result;
  std::vector<CellList::Ranges> ranges;
  std::vector<int> range_count;
  std::vector<std::int64_t> row_work;
  std::vector<std::size_t> reach;
  std::vector<RowChunk> chunks;
  std::vector<ChunkBuffer<S>> buffers;
};

template <class S>
void gather_sorted(const ParticleArrays<S>& p, const std::vector<std::size_t>& order, ParticleArrays<S>& out) {
  out.resize(order.size());
  for (std::size_t s = 0; s < order.size(); ++s) {
    const std::size_t i = order[s];
    out.x[s] = p.x[i];
    out.y[s] = p.y[i];
    out.z[s] = p.z[i];
    out.mx[s] = p.mx[i];
    out.my[s] = p.my[i];
    out.mz[s] = p.mz[i];
  }
}

template <class S>
void scatter_sorted(const PairResult<S>& sorted, const std::vector<std::size_t>& order, PairResult<S>& out) {
  out.energy = sorted.energy;
  out.field.assign_zero(order.size());
  for (std::size_t s = 0; s < order.size(); ++s) {
    const std::size_t i = order[s];
    out.field.fx[i] = sorted.field.fx[s];
    out.field.fy[i] = sorted.field.fy[s];
    out.field.fz[i] = sorted.field.fz[s];
    out.field.ex[i] = sorted.field.ex[s];
    out.field.ey[i] = sorted.field.ey[s];
    out.field.ez[i] = sorted.field.ez[s];
  }
}

// Candidate runs, work and reach of every sorted row.
template <class S>
void plan_rows(CutoffWorkspace<S>& ws, std::size_t n) {
  ws.ranges.resize(n);
  ws.range_count.resize(n);
  ws.row_work.resize(n);
  ws.reach.resize(n);
  for (std::size_t s = 0; s < n; ++s) {
    const int count = ws.cells.forward_ranges(s, ws.ranges[s]);
    ws.range_count[s] = count;
    std::int64_t work = 0;
    std::size_t reach = s + 1;
    for (int r = 0; r < count; ++r) {
      const IndexRange& range = ws.ranges[s][static_cast<std::size_t>(r)];
      work += static_cast<std::int64_t>(range.end - range.begin);
      reach = std::max(reach, range.end);
    }
    ws.row_work[s] = work;
    ws.reach[s] = reach;
  }
}

// Packs the partners of sorted row s closer than the cutoff: q_s - q_j, mu_j and j. Three passes keep the
// candidate loop cheap: squared distances of a run (vectorised), a branch-free compaction of the indices
// inside (every candidate is written at slot m, only those inside advance m), then a gather of the few
// partners found. r2 is scratch of at least the longest run.
template <class S>
std::size_t pack_partners(const ParticleArrays<S>& p, const S& cutoff2, std::size_t s, const CellList::Ranges& ranges,
                          int count, S* r2, PackedPairs<S>& out) {
  const S xi = p.x[s], yi = p.y[s], zi = p.z[s];
  std::size_t m = 0;
  for (int r = 0; r < count; ++r) {
    const IndexRange& range = ranges[static_cast<std::size_t>(r)];
    const std::size_t len = range.end - range.begin;
    const S* xj = p.x.data() + range.begin;
    const S* yj = p.y.data() + range.begin;
    const S* zj = p.z.data() + range.begin;
    GIB_PRAGMA(omp simd)
    for (std::size_t k = 0; k < len; ++k) {
      const S rx = xi - xj[k], ry = yi - yj[k], rz = zi - zj[k];
      r2[k] = rx * rx + ry * ry + rz * rz;
    }
    for (std::size_t k = 0; k < len; ++k) {
      out.index[m] = range.begin + k;
      m += raw(r2[k]) < raw(cutoff2) ? 1 : 0;
    }
  }
  for (std::size_t k = 0; k < m; ++k) {
    const std::size_t j = out.index[k];
    out.rx[k] = xi - p.x[j];
    out.ry[k] = yi - p.y[j];
    out.rz[k] = zi - p.z[j];
    out.mx[k] = p.mx[j];
    out.my[k] = p.my[j];
    out.mz[k] = p.mz[j];
  }
  return m;
}

// The m packed pairs of row i, switched: the partners' sides into the packed outputs, i's into sums.
template <class S>
void packed_pairs(const PairConstants<S>& c, S mix, S miy, S miz, std::size_t m, PackedPairs<S>& q, S* t,
                  RowSums<S>& sums) {
  GIB_PRAGMA(omp simd)
  for (std::size_t k = 0; k < m; ++k) t[k] = S(1) / (q.rx[k] * q.rx[k] + q.ry[k] * q.ry[k] + q.rz[k] * q.rz[k]);
  sqrt_in_place(t, m);
  auto terms = [&](std::size_t k) {
    const S rx = q.rx[k], ry = q.ry[k], rz = q.rz[k];
    const PairTerms<S> u = switched_pair_terms(c, (rx * rx + ry * ry + rz * rz) * t[k], rx, ry, rz, t[k], mix, miy,
                                               miz, q.mx[k], q.my[k], q.mz[k]);
    q.gx[k] = u.gx;
    q.gy[k] = u.gy;
    q.gz[k] = u.gz;
    q.ex[k] = u.ejx;
    q.ey[k] = u.ejy;
    q.ez[k] = u.ejz;
    return u;
  };
  S e = S(0), gx = S(0), gy = S(0), gz = S(0), eix = S(0), eiy = S(0), eiz = S(0);
  if constexpr (kSimdReducible<S>) {
    GIB_PRAGMA(omp simd reduction(+ : e, gx, gy, gz, eix, eiy, eiz))
    for (std::size_t k = 0; k < m; ++k) {
      const PairTerms<S> u = terms(k);
      e += u.energy;
      gx += u.gx;
      gy += u.gy;
      gz += u.gz;
      eix += u.eix;
      eiy += u.eiy;
      eiz += u.eiz;
    }
  } else {
    for (std::size_t k = 0; k < m; ++k) {
      const PairTerms<S> u = terms(k);
      e += u.energy;
      gx += u.gx;
      gy += u.gy;
      gz += u.gz;
      eix += u.eix;
      eiy += u.eiy;
      eiz += u.eiz;
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

// Adds the packed partners' sides (force +dV/dq_i on j, dV/dmu_j) to the chunk buffer.
template <class S>
void scatter_partners(const PackedPairs<S>& q, std::size_t m, ChunkBuffer<S>& buf) {
  FieldArrays<S>& f = buf.field;
  for (std::size_t k = 0; k < m; ++k) {
    const std::size_t j = q.index[k] - buf.base;
    f.fx[j] += q.gx[k];
    f.fy[j] += q.gy[k];
    f.fz[j] += q.gz[k];
    f.ex[j] += q.ex[k];
    f.ey[j] += q.ey[k];
    f.ez[j] += q.ez[k];
  }
}

template <class S>
void cutoff_pairs(const ParticleArrays<S>& p, const PairConstants<S>& c, CutoffWorkspace<S>& ws, PairResult<S>& out) {
  const std::size_t n = p.size();
  for (auto* v : {&ws.bx, &ws.by, &ws.bz}) v->resize(n);
  for (std::size_t i = 0; i < n; ++i) {
    ws.bx[i] = static_cast<double>(p.x[i]);
    ws.by[i] = static_cast<double>(p.y[i]);
    ws.bz[i] = static_cast<double>(p.z[i]);
  }
  ws.cells.build(ws.bx.data(), ws.by.data(), ws.bz.data(), n, static_cast<double>(c.cutoff));
  gather_sorted(p, ws.cells.order(), ws.sorted);
  plan_rows(ws, n);
  partition_rows(ws.row_work, ws.reach, ws.chunks);
  const S cutoff2 = c.cutoff * c.cutoff;
  run_chunks(ws.chunks, ws.buffers, n, ws.sorted_result, [&](std::size_t s, ChunkBuffer<S>& buf) {
    if (buf.packed.index.size() < n + 1) buf.packed.reserve(n + 1);  // the compaction writes one slot past
    const ParticleArrays<S>& q = ws.sorted;
    const std::size_t m = pack_partners(q, cutoff2, s, ws.ranges[s], ws.range_count[s], buf.scratch.data(), buf.packed);
    RowSums<S> sums;
    packed_pairs(c, q.mx[s], q.my[s], q.mz[s], m, buf.packed, buf.scratch.data(), sums);
    scatter_partners(buf.packed, m, buf);
    store_row(s, sums, buf);
  });
  scatter_sorted(ws.sorted_result, ws.cells.order(), out);
}

}  // namespace gib::dipolar_spheres
