// Compiled with -fno-math-errno (so the lane-wise square root is one sqrtpd) and -ffp-contract=off (so that even a
// -march=native build fuses nothing and keeps the bits of every other machine); kept out of the unity batches so
// those options stay on this file (CMakeLists.txt).
#include "problems/dipolar_spheres/pair_rows_simd.hpp"

#include "problems/common/simd_pack.hpp"

// The lambdas below return packs by value, which -Wpsabi flags like simd_pack.hpp's functions: all are inlined.
#pragma GCC diagnostic ignored "-Wpsabi"

namespace gib::dipolar_spheres {

namespace {

using simd::Pack4;

// The body both paths inline. Blocks of 4 partners; lane l sums the partners lo + l, lo + l + 4, ... The inverse
// distances are software-pipelined one block ahead: the divider's square root and division (about 35 cycles of
// latency) for block k + 1 are issued before block k's pair terms, which have no use for them, so the two overlap
// instead of the terms waiting on the divider. The last, partial block runs on its own: its dead lanes take r^2 = 1,
// are blended out of the row sums and never stored.
// The i side of a row: one running sum per lane, the dead lanes of a partial block blended out; finish adds the
// lanes in their fixed grouping.
struct ISide {
  Pack4 e = 0.0, gx = 0.0, gy = 0.0, gz = 0.0, eix = 0.0, eiy = 0.0, eiz = 0.0;
  [[gnu::always_inline]] void add(const PairTerms<Pack4>& q, simd::MaskD4 live) {
    e += simd::select(live, q.energy, 0.0);
    gx += simd::select(live, q.gx, 0.0);
    gy += simd::select(live, q.gy, 0.0);
    gz += simd::select(live, q.gz, 0.0);
    eix += simd::select(live, q.eix, 0.0);
    eiy += simd::select(live, q.eiy, 0.0);
    eiz += simd::select(live, q.eiz, 0.0);
  }
  [[gnu::always_inline]] void finish(RowSums<double>& sums) const {
    sums.energy += simd::sum_lanes(e);
    sums.fx -= simd::sum_lanes(gx);
    sums.fy -= simd::sum_lanes(gy);
    sums.fz -= simd::sum_lanes(gz);
    sums.ex += simd::sum_lanes(eix);
    sums.ey += simd::sum_lanes(eiy);
    sums.ez += simd::sum_lanes(eiz);
  }
};

// Dead lanes take r^2 = 1, which every term evaluates without overflow.
[[gnu::always_inline]] inline Pack4 inverse_distance(Pack4 rx, Pack4 ry, Pack4 rz, simd::MaskD4 live) {
  return Pack4(1.0) / simd::sqrt(simd::select(live, rx * rx + ry * ry + rz * rz, 1.0));
}

[[gnu::always_inline]] inline PairConstants<Pack4> pack_constants(const PairConstants<double>& c0) {
  PairConstants<Pack4> c;
  c.c12 = c0.c12;
  c.c6 = c0.c6;
  c.switch_start = c0.switch_start;
  c.cutoff = c0.cutoff;
  c.inv_switch_width = c0.inv_switch_width;
  return c;
}

[[gnu::always_inline]] inline void row_pack4(const ParticleArrays<double>& p, const PairConstants<double>& c0,
                                             std::size_t i, std::size_t lo, std::size_t hi, ChunkBuffer<double>& buf,
                                             RowSums<double>& sums) {
  if (hi <= lo) return;
  const PairConstants<Pack4> c = pack_constants(c0);
  const Pack4 xi = p.x[i], yi = p.y[i], zi = p.z[i], ax = p.mx[i], ay = p.my[i], az = p.mz[i];
  const double* xj = p.x.data() + lo;
  const double* yj = p.y.data() + lo;
  const double* zj = p.z.data() + lo;
  const double* mxj = p.mx.data() + lo;
  const double* myj = p.my.data() + lo;
  const double* mzj = p.mz.data() + lo;
  const std::size_t off = lo - buf.base;
  double* fx = buf.field.fx.data() + off;
  double* fy = buf.field.fy.data() + off;
  double* fz = buf.field.fz.data() + off;
  double* ex = buf.field.ex.data() + off;
  double* ey = buf.field.ey.data() + off;
  double* ez = buf.field.ez.data() + off;
  ISide i_side;
  const std::size_t n = hi - lo;
  const std::size_t full = n - n % simd::kLanes;
  const simd::MaskD4 all = simd::first_lanes(simd::kLanes);
  // Only the inverse distance is carried to the next iteration; the separations are loaded again (L1 loads are
  // cheaper than the spills that carrying them would cost in 16 registers).
  auto separation = [&](std::size_t k, Pack4& rx, Pack4& ry, Pack4& rz) {
    rx = xi - simd::load(xj + k);
    ry = yi - simd::load(yj + k);
    rz = zi - simd::load(zj + k);
  };
  Pack4 rx, ry, rz, inv_next;
  if (full > 0) {
    separation(0, rx, ry, rz);
    inv_next = inverse_distance(rx, ry, rz, all);
  }
  for (std::size_t k = 0; k < full; k += simd::kLanes) {
    const Pack4 inv1 = inv_next;
    if (k + simd::kLanes < full) {
      separation(k + simd::kLanes, rx, ry, rz);
      inv_next = inverse_distance(rx, ry, rz, all);
    }
    separation(k, rx, ry, rz);
    const PairTerms<Pack4> q =
        pair_terms(c, rx, ry, rz, inv1, ax, ay, az, simd::load(mxj + k), simd::load(myj + k), simd::load(mzj + k));
    simd::store(fx + k, simd::load(fx + k) + q.gx);
    simd::store(fy + k, simd::load(fy + k) + q.gy);
    simd::store(fz + k, simd::load(fz + k) + q.gz);
    simd::store(ex + k, simd::load(ex + k) + q.ejx);
    simd::store(ey + k, simd::load(ey + k) + q.ejy);
    simd::store(ez + k, simd::load(ez + k) + q.ejz);
    i_side.add(q, all);
  }
  if (const std::size_t r = n - full; r > 0) {
    const simd::MaskD4 live = simd::first_lanes(r);
    rx = xi - simd::load_first(xj + full, r, 0.0);
    ry = yi - simd::load_first(yj + full, r, 0.0);
    rz = zi - simd::load_first(zj + full, r, 0.0);
    const PairTerms<Pack4> q = pair_terms(c, rx, ry, rz, inverse_distance(rx, ry, rz, live), ax, ay, az,
                                          simd::load_first(mxj + full, r, 0.0), simd::load_first(myj + full, r, 0.0),
                                          simd::load_first(mzj + full, r, 0.0));
    simd::add_first(fx + full, r, q.gx);
    simd::add_first(fy + full, r, q.gy);
    simd::add_first(fz + full, r, q.gz);
    simd::add_first(ex + full, r, q.ejx);
    simd::add_first(ey + full, r, q.ejy);
    simd::add_first(ez + full, r, q.ejz);
    i_side.add(q, live);
  }
  i_side.finish(sums);
}

// The m pairs of a cutoff row, packed contiguously by the caller (cutoff_kernel.hpp: q_i - q_j and mu_j), each
// multiplied by the switch: the partners' sides into q's outputs, i's into sums. The caller pads the row to whole
// blocks of 4 with partners beyond the cutoff (pad_packed), whose terms the switch makes exact zeros, so there is no
// partial block: the lanes and sums of the real pairs are those of an unpadded row, and the padding adds +-0 to
// them. The inverse distance is pipelined one block ahead, as in row_pack4.
[[gnu::always_inline]] inline void packed_pack4(const PairConstants<double>& c0, double mix, double miy, double miz,
                                                std::size_t m, PackedPairs<double>& q, RowSums<double>& sums) {
  const PairConstants<Pack4> c = pack_constants(c0);
  const Pack4 ax = mix, ay = miy, az = miz;
  const simd::MaskD4 all = simd::first_lanes(simd::kLanes);
  ISide i_side;
  const double *rxs = q.rx.data(), *rys = q.ry.data(), *rzs = q.rz.data();
  Pack4 inv_next;
  if (m > 0) inv_next = inverse_distance(simd::load(rxs), simd::load(rys), simd::load(rzs), all);
  for (std::size_t k = 0; k < m; k += simd::kLanes) {
    const Pack4 inv1 = inv_next;
    if (k + simd::kLanes < m) {
      const std::size_t next = k + simd::kLanes;
      inv_next = inverse_distance(simd::load(rxs + next), simd::load(rys + next), simd::load(rzs + next), all);
    }
    const Pack4 rx = simd::load(rxs + k), ry = simd::load(rys + k), rz = simd::load(rzs + k);
    PairTerms<Pack4> u = pair_terms(c, rx, ry, rz, inv1, ax, ay, az, simd::load(q.mx.data() + k),
                                    simd::load(q.my.data() + k), simd::load(q.mz.data() + k));
    apply_switch(c, (rx * rx + ry * ry + rz * rz) * inv1, inv1, rx, ry, rz, u);
    simd::store(q.gx.data() + k, u.gx);
    simd::store(q.gy.data() + k, u.gy);
    simd::store(q.gz.data() + k, u.gz);
    simd::store(q.ex.data() + k, u.ejx);
    simd::store(q.ey.data() + k, u.ejy);
    simd::store(q.ez.data() + k, u.ejz);
    i_side.add(u, all);
  }
  i_side.finish(sums);
}

// flatten: every call inside, down to the pack operators, is inlined and so compiled for this function's target.
[[gnu::flatten]] void rows_baseline(const ParticleArrays<double>& p, const PairConstants<double>& c, std::size_t i,
                                    std::size_t lo, std::size_t hi, ChunkBuffer<double>& buf, RowSums<double>& sums) {
  row_pack4(p, c, i, lo, hi, buf, sums);
}

#if defined(__x86_64__)
[[gnu::flatten, gnu::target("avx2")]] void rows_avx2(const ParticleArrays<double>& p, const PairConstants<double>& c,
                                                     std::size_t i, std::size_t lo, std::size_t hi,
                                                     ChunkBuffer<double>& buf, RowSums<double>& sums) {
  row_pack4(p, c, i, lo, hi, buf, sums);
}
#endif

[[gnu::flatten]] void packed_baseline(const PairConstants<double>& c, double mix, double miy, double miz,
                                      std::size_t m, PackedPairs<double>& q, RowSums<double>& sums) {
  packed_pack4(c, mix, miy, miz, m, q, sums);
}

#if defined(__x86_64__)
[[gnu::flatten, gnu::target("avx2")]] void packed_avx2(const PairConstants<double>& c, double mix, double miy,
                                                       double miz, std::size_t m, PackedPairs<double>& q,
                                                       RowSums<double>& sums) {
  packed_pack4(c, mix, miy, miz, m, q, sums);
}
#endif

}  // namespace

void row_segment_simd(SimdPath path, const ParticleArrays<double>& p, const PairConstants<double>& c, std::size_t i,
                      std::size_t lo, std::size_t hi, ChunkBuffer<double>& buf, RowSums<double>& sums) {
#if defined(__x86_64__)
  if (path == SimdPath::avx2) return rows_avx2(p, c, i, lo, hi, buf, sums);
#endif
  rows_baseline(p, c, i, lo, hi, buf, sums);
}

void pad_packed(const PairConstants<double>& c, std::size_t m, PackedPairs<double>& q) {
  for (std::size_t k = m; k % simd::kLanes != 0; ++k) {
    q.rx[k] = 2.0 * c.cutoff;
    q.ry[k] = q.rz[k] = 0.0;
    q.mx[k] = q.my[k] = q.mz[k] = 0.0;
  }
}

void packed_pairs_simd(SimdPath path, const PairConstants<double>& c, double mix, double miy, double miz,
                       std::size_t m, PackedPairs<double>& q, RowSums<double>& sums) {
#if defined(__x86_64__)
  if (path == SimdPath::avx2) return packed_avx2(c, mix, miy, miz, m, q, sums);
#endif
  packed_baseline(c, mix, miy, miz, m, q, sums);
}

}  // namespace gib::dipolar_spheres
