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

// Row s's listed partners closer than the cutoff, compacted into buf's scratch (every partner is written at slot m,
// only those inside advance m: no branch), the last block completed with partners beyond the cutoff; returns the
// count of partners inside (the padding runs to the next multiple of 4). r2 is computed as the pair terms' own
// (rx rx + ry ry) + rz rz.
[[gnu::always_inline]] inline std::size_t compact_row(const PairConstants<double>& c, const ListedRows& rows,
                                                      std::size_t s, ListedBuffer& buf) {
  // Locals, not members: the stores below could alias them, and the compiler would reload them every iteration.
  const double* records = rows.records;
  const std::uint32_t* partners = rows.partners;
  const std::uint32_t first = rows.start[s], last = rows.start[s + 1];
  const double cutoff2 = rows.cutoff2;
  const double* ri = records + kRecord * s;
  const double xi = ri[0], yi = ri[1], zi = ri[2];
  std::uint32_t* index = buf.index.data();
  double* r2 = buf.r2.data();
  std::size_t m = 0;
  for (std::uint32_t k = first; k < last; ++k) {
    const std::uint32_t j = partners[k];
    const double* rj = records + kRecord * j;
    const double rx = xi - rj[0], ry = yi - rj[1], rz = zi - rj[2];
    const double d2 = rx * rx + ry * ry + rz * rz;
    index[m] = j;
    r2[m] = d2;
    m += d2 < cutoff2 ? 1 : 0;
  }
  const double far = 2.0 * c.cutoff, zero = 0.0;
  for (std::size_t k = m; k % simd::kLanes != 0; ++k) {
    index[k] = static_cast<std::uint32_t>(s);  // a valid record to load; its values are replaced
    r2[k] = far * far + zero * zero + zero * zero;
  }
  return m;
}

// The row's arrays as plain pointers: a store through simd::store (memcpy) may alias anything, so members read
// through buf would be reloaded after every one.
struct RowView {
  const double* records;       // input records
  const std::uint32_t* index;  // the compacted partners
  double* field;               // the chunk's force records, field[0] being particle base's
  std::size_t base;
};

// One block of 4 compacted partners at slot k: loads and transposes their records, evaluates the switched pair
// terms (r2: their squared distances from the compaction), adds i's side to i_side and the partners' sides to their
// force records. Only a row's last block may have dead lanes (live < 4): they take r = (2 cutoff, 0, 0) and mu = 0,
// as padding (whose r2 the compaction wrote), and are not stored.
template <bool kPartial>
[[gnu::always_inline]] inline void listed_block(const PairConstants<Pack4>& c, Pack4 xi, Pack4 yi, Pack4 zi, Pack4 ax,
                                                Pack4 ay, Pack4 az, const RowView& v, std::size_t k, Pack4 r2,
                                                Pack4 inv1, std::size_t live, ISide& i_side) {
  const std::uint32_t* index = v.index + k;
  const double* r[simd::kLanes];
  for (std::size_t l = 0; l < simd::kLanes; ++l) r[l] = v.records + kRecord * index[l];
  Pack4 x = simd::load(r[0]), y = simd::load(r[1]), z = simd::load(r[2]), bx = simd::load(r[3]);
  simd::transpose4(x, y, z, bx);
  Pack4 by = simd::load(r[0] + 4), bz = simd::load(r[1] + 4), unused0 = simd::load(r[2] + 4),
        unused1 = simd::load(r[3] + 4);
  simd::transpose4(by, bz, unused0, unused1);
  Pack4 rx = xi - x, ry = yi - y, rz = zi - z;
  if constexpr (kPartial) {
    const simd::MaskD4 on = simd::first_lanes(live);
    rx = simd::select(on, rx, c.cutoff * Pack4(2.0));
    ry = simd::select(on, ry, 0.0);
    rz = simd::select(on, rz, 0.0);
    bx = simd::select(on, bx, 0.0);
    by = simd::select(on, by, 0.0);
    bz = simd::select(on, bz, 0.0);
  }
  const PairTerms<Pack4> u = switched_pair_terms(c, r2 * inv1, rx, ry, rz, inv1, ax, ay, az, bx, by, bz);
  i_side.add(u, simd::first_lanes(simd::kLanes));
  Pack4 f0 = u.gx, f1 = u.gy, f2 = u.gz, f3 = u.ejx;
  simd::transpose4(f0, f1, f2, f3);
  Pack4 g0 = u.ejy, g1 = u.ejz, g2 = 0.0, g3 = 0.0;
  simd::transpose4(g0, g1, g2, g3);
  const Pack4 head[simd::kLanes] = {f0, f1, f2, f3}, tail[simd::kLanes] = {g0, g1, g2, g3};
  for (std::size_t l = 0; l < (kPartial ? live : simd::kLanes); ++l) {
    double* f = v.field + kRecord * (index[l] - v.base);
    simd::store(f, simd::load(f) + head[l]);
    simd::store(f + 4, simd::load(f + 4) + tail[l]);
  }
}

[[gnu::always_inline]] inline void listed_rows(const PairConstants<double>& c0, const ListedRows& rows,
                                               std::size_t begin, std::size_t end, ListedBuffer& buf) {
  const PairConstants<Pack4> c = pack_constants(c0);
  for (std::size_t s = begin; s < end; ++s) {
    const std::size_t m = compact_row(c0, rows, s, buf);
    const std::size_t full = m - m % simd::kLanes, padded = (m + simd::kLanes - 1) / simd::kLanes * simd::kLanes;
    const double* r2 = buf.r2.data();
    const double* ri = rows.records + kRecord * s;
    const Pack4 xi = ri[0], yi = ri[1], zi = ri[2], ax = ri[3], ay = ri[4], az = ri[5];
    const RowView v{rows.records, buf.index.data(), buf.field.data(), buf.base};
    ISide i_side;
    // The inverse distances are pipelined one block ahead, as in row_pack4.
    Pack4 inv_next = m > 0 ? Pack4(1.0) / simd::sqrt(simd::load(r2)) : Pack4(0.0);
    for (std::size_t k = 0; k < padded; k += simd::kLanes) {
      const Pack4 inv1 = inv_next;
      if (k + simd::kLanes < padded) inv_next = Pack4(1.0) / simd::sqrt(simd::load(r2 + k + simd::kLanes));
      const Pack4 d2 = simd::load(r2 + k);
      if (k < full)
        listed_block<false>(c, xi, yi, zi, ax, ay, az, v, k, d2, inv1, simd::kLanes, i_side);
      else
        listed_block<true>(c, xi, yi, zi, ax, ay, az, v, k, d2, inv1, m - full, i_side);
    }
    RowSums<double> sums;
    i_side.finish(sums);
    buf.energy += sums.energy;
    double* f = buf.field.data() + kRecord * (s - buf.base);
    f[0] += sums.fx;
    f[1] += sums.fy;
    f[2] += sums.fz;
    f[3] += sums.ex;
    f[4] += sums.ey;
    f[5] += sums.ez;
  }
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

[[gnu::flatten]] void listed_baseline(const PairConstants<double>& c, const ListedRows& rows, std::size_t begin,
                                      std::size_t end, ListedBuffer& buf) {
  listed_rows(c, rows, begin, end, buf);
}

#if defined(__x86_64__)
[[gnu::flatten, gnu::target("avx2")]] void listed_avx2(const PairConstants<double>& c, const ListedRows& rows,
                                                       std::size_t begin, std::size_t end, ListedBuffer& buf) {
  listed_rows(c, rows, begin, end, buf);
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

void listed_rows_simd(SimdPath path, const PairConstants<double>& c, const ListedRows& rows, std::size_t begin,
                      std::size_t end, ListedBuffer& buf) {
#if defined(__x86_64__)
  if (path == SimdPath::avx2) return listed_avx2(c, rows, begin, end, buf);
#endif
  listed_baseline(c, rows, begin, end, buf);
}

}  // namespace gib::dipolar_spheres
