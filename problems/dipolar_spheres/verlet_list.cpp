#include "problems/dipolar_spheres/verlet_list.hpp"

#include <algorithm>

#include "core/run_scope.hpp"
#include "problems/dipolar_spheres/pair_rows_simd.hpp"

namespace gib::dipolar_spheres {
namespace {

// Rows are listed in blocks, in parallel, each block into its own vector, then joined in block order: the list does
// not depend on the thread count.
constexpr std::size_t kListBlock = 512;

bool needs_rebuild(const VerletList& list, const ParticleArrays<double>& p, double cutoff, double skin,
                   std::uint64_t run) {
  const std::size_t n = p.size();
  if (run == 0 || list.run != run || list.n != n || list.cutoff != cutoff || list.skin != skin) return true;
  double worst = 0.0;  // max is exact, so the order does not matter
  for (std::size_t i = 0; i < n; ++i) {
    const double dx = p.x[i] - list.x0[i], dy = p.y[i] - list.y0[i], dz = p.z[i] - list.z0[i];
    worst = std::max(worst, dx * dx + dy * dy + dz * dz);
  }
  const double half = 0.5 * skin;
  return !(worst <= half * half);  // a NaN position rebuilds too
}

void build(VerletList& list, CutoffWorkspace<double>& ws, const ParticleArrays<double>& p, double cutoff,
           double skin, std::uint64_t run) {
  const std::size_t n = p.size();
  const double reach = cutoff + skin;
  ws.cells.build(p.x.data(), p.y.data(), p.z.data(), n, reach);
  gather_sorted(p, ws.cells.order(), ws.sorted);
  plan_rows(ws, n);
  const ParticleArrays<double>& q = ws.sorted;
  const double reach2 = reach * reach;
  const std::size_t blocks = (n + kListBlock - 1) / kListBlock;
  std::vector<std::vector<std::uint32_t>> block_partners(blocks);
  list.start.assign(n + 1, 0);
  GIB_PRAGMA(omp parallel for schedule(dynamic, 1) if (blocks > 1))
  for (std::ptrdiff_t b = 0; b < static_cast<std::ptrdiff_t>(blocks); ++b) {
    std::vector<std::uint32_t>& out = block_partners[static_cast<std::size_t>(b)];
    const std::size_t lo = static_cast<std::size_t>(b) * kListBlock, hi = std::min(n, lo + kListBlock);
    for (std::size_t s = lo; s < hi; ++s) {
      const double xi = q.x[s], yi = q.y[s], zi = q.z[s];
      const std::size_t before = out.size();
      for (int r = 0; r < ws.range_count[s]; ++r) {
        const IndexRange& range = ws.ranges[s][static_cast<std::size_t>(r)];
        for (std::size_t j = range.begin; j < range.end; ++j) {
          const double dx = xi - q.x[j], dy = yi - q.y[j], dz = zi - q.z[j];
          if (dx * dx + dy * dy + dz * dz < reach2) out.push_back(static_cast<std::uint32_t>(j));
        }
      }
      list.start[s + 1] = static_cast<std::uint32_t>(out.size() - before);
    }
  }
  std::vector<std::int64_t> work(n);
  std::vector<std::size_t> reach_of(n);
  list.longest = 0;
  for (std::size_t s = 0; s < n; ++s) {
    const std::uint32_t count = list.start[s + 1];
    list.start[s + 1] = list.start[s] + count;
    work[s] = count;
    list.longest = std::max<std::size_t>(list.longest, count);
  }
  list.partners.clear();
  list.partners.reserve(list.start[n]);
  for (const auto& part : block_partners) list.partners.insert(list.partners.end(), part.begin(), part.end());
  for (std::size_t s = 0; s < n; ++s) {
    std::size_t last = s + 1;
    for (std::uint32_t k = list.start[s]; k < list.start[s + 1]; ++k)
      last = std::max<std::size_t>(last, list.partners[k] + 1);
    reach_of[s] = last;
  }
  partition_rows(work, reach_of, list.chunks);
  list.x0 = p.x;
  list.y0 = p.y;
  list.z0 = p.z;
  list.run = run;
  list.n = n;
  list.cutoff = cutoff;
  list.skin = skin;
  ++list.builds;
}

// Packs row s's listed partners that are closer than the cutoff now: every partner is written at slot m and only
// those inside advance m (no branch), then the dipoles of the m found are gathered.
std::size_t pack_listed(const ParticleArrays<double>& p, double cutoff2, std::size_t s, const VerletList& list,
                        PackedPairs<double>& out) {
  const double xi = p.x[s], yi = p.y[s], zi = p.z[s];
  std::size_t m = 0;
  for (std::uint32_t k = list.start[s]; k < list.start[s + 1]; ++k) {
    const std::size_t j = list.partners[k];
    const double rx = xi - p.x[j], ry = yi - p.y[j], rz = zi - p.z[j];
    out.index[m] = j;
    out.rx[m] = rx;
    out.ry[m] = ry;
    out.rz[m] = rz;
    m += rx * rx + ry * ry + rz * rz < cutoff2 ? 1 : 0;
  }
  for (std::size_t k = 0; k < m; ++k) {
    const std::size_t j = out.index[k];
    out.mx[k] = p.mx[j];
    out.my[k] = p.my[j];
    out.mz[k] = p.mz[j];
  }
  return m;
}

}  // namespace

std::size_t ListedWorkspace::list_bytes() const {
  return list.partners.capacity() * sizeof(std::uint32_t) + list.start.capacity() * sizeof(std::uint32_t) +
         cells.cells.order().capacity() * sizeof(std::size_t) + 3 * list.x0.capacity() * sizeof(double);
}

void cutoff_pairs_listed(const ParticleArrays<double>& p, const PairConstants<double>& c, double skin,
                         ListedWorkspace& ws, PairResult<double>& out) {
  const std::size_t n = p.size();
  const double cutoff = c.cutoff;
  const std::uint64_t run = run_id();
  if (needs_rebuild(ws.list, p, cutoff, skin, run))
    build(ws.list, ws.cells, p, cutoff, skin, run);
  else
    gather_sorted(p, ws.cells.cells.order(), ws.cells.sorted);
  const VerletList& list = ws.list;
  const ParticleArrays<double>& q = ws.cells.sorted;
  const double cutoff2 = cutoff * cutoff;
  const SimdPath path = best_simd_path();
  run_chunks(list.chunks, ws.cells.buffers, n, ws.cells.sorted_result, [&](std::size_t s, ChunkBuffer<double>& buf) {
    // One slot past the row for the compaction, and its last block padded to 4.
    if (buf.packed.index.size() < list.longest + 4) buf.packed.reserve(list.longest + 4);
    const std::size_t m = pack_listed(q, cutoff2, s, list, buf.packed);
    pad_packed(c, m, buf.packed);
    RowSums<double> sums;
    packed_pairs_simd(path, c, q.mx[s], q.my[s], q.mz[s], (m + 3) / 4 * 4, buf.packed, sums);
    scatter_partners(buf.packed, m, buf);
    store_row(s, sums, buf);
  });
  scatter_sorted(ws.cells.sorted_result, ws.cells.cells.order(), out);
}

}  // namespace gib::dipolar_spheres
