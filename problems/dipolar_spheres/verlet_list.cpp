#include "problems/dipolar_spheres/verlet_list.hpp"

#include <algorithm>

#include "core/run_scope.hpp"

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

// The particles in the list's sorted order as input records.
void gather_records(const ParticleArrays<double>& p, const std::vector<std::size_t>& order,
                    std::vector<double>& records) {
  records.resize(kRecord * order.size());
  for (std::size_t s = 0; s < order.size(); ++s) {
    const std::size_t i = order[s];
    double* r = records.data() + kRecord * s;
    r[0] = p.x[i];
    r[1] = p.y[i];
    r[2] = p.z[i];
    r[3] = p.mx[i];
    r[4] = p.my[i];
    r[5] = p.mz[i];
    r[6] = r[7] = 0.0;
  }
}

// Builds the list from the cell list's order, and leaves the particles gathered in that order in records.
void build(VerletList& list, CutoffWorkspace<double>& ws, const ParticleArrays<double>& p, double cutoff,
           double skin, std::uint64_t run, std::vector<double>& records) {
  const std::size_t n = p.size();
  const double reach = cutoff + skin;
  ws.cells.build(p.x.data(), p.y.data(), p.z.data(), n, reach);
  gather_records(p, ws.cells.order(), records);
  plan_rows(ws, n);
  const double* q = records.data();
  const double reach2 = reach * reach;
  const std::size_t blocks = (n + kListBlock - 1) / kListBlock;
  std::vector<std::vector<std::uint32_t>> block_partners(blocks);
  list.start.assign(n + 1, 0);
  GIB_PRAGMA(omp parallel for schedule(dynamic, 1) if (blocks > 1))
  for (std::ptrdiff_t b = 0; b < static_cast<std::ptrdiff_t>(blocks); ++b) {
    std::vector<std::uint32_t>& out = block_partners[static_cast<std::size_t>(b)];
    const std::size_t lo = static_cast<std::size_t>(b) * kListBlock, hi = std::min(n, lo + kListBlock);
    for (std::size_t s = lo; s < hi; ++s) {
      const double *ri = q + kRecord * s, xi = ri[0], yi = ri[1], zi = ri[2];
      const std::size_t before = out.size();
      for (int r = 0; r < ws.range_count[s]; ++r) {
        const IndexRange& range = ws.ranges[s][static_cast<std::size_t>(r)];
        for (std::size_t j = range.begin; j < range.end; ++j) {
          const double* rj = q + kRecord * j;
          const double dx = xi - rj[0], dy = yi - rj[1], dz = zi - rj[2];
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

// The chunks' force windows summed in chunk order, each entry from +0 as sum_chunks does, and returned in the
// caller's order.
void sum_records(const std::vector<ListedBuffer>& buffers, std::size_t count, const std::vector<std::size_t>& order,
                 PairResult<double>& out) {
  const std::size_t n = order.size();
  out.energy = 0.0;
  for (std::size_t c = 0; c < count; ++c) out.energy += buffers[c].energy;
  out.field.assign_zero(n);
  for_each_block(n, [&](std::size_t lo, std::size_t hi) {
    // The chunks that may meet [lo, hi): windows start in row order.
    std::size_t first = 0;
    while (first < count && buffers[first].base + buffers[first].field.size() / kRecord <= lo) ++first;
    std::size_t last = first;
    while (last < count && buffers[last].base < hi) ++last;
    for (std::size_t s = lo; s < hi; ++s) {
      double f[6] = {0.0, 0.0, 0.0, 0.0, 0.0, 0.0};
      for (std::size_t c = first; c < last; ++c) {
        const ListedBuffer& buf = buffers[c];
        if (s < buf.base || s >= buf.base + buf.field.size() / kRecord) continue;
        const double* g = buf.field.data() + kRecord * (s - buf.base);
        for (std::size_t d = 0; d < 6; ++d) f[d] += g[d];
      }
      const std::size_t i = order[s];
      out.field.fx[i] = f[0];
      out.field.fy[i] = f[1];
      out.field.fz[i] = f[2];
      out.field.ex[i] = f[3];
      out.field.ey[i] = f[4];
      out.field.ez[i] = f[5];
    }
  });
}

}  // namespace

std::size_t ListedWorkspace::list_bytes() const {
  return list.partners.capacity() * sizeof(std::uint32_t) + list.start.capacity() * sizeof(std::uint32_t) +
         cells.cells.order().capacity() * sizeof(std::size_t) + 3 * list.x0.capacity() * sizeof(double);
}

void cutoff_pairs_listed(const ParticleArrays<double>& p, const PairConstants<double>& c, double skin,
                         ListedWorkspace& ws, PairResult<double>& out) {
  const double cutoff = c.cutoff;
  const std::uint64_t run = run_id();
  const std::vector<std::size_t>& order = ws.cells.cells.order();
  if (needs_rebuild(ws.list, p, cutoff, skin, run))
    build(ws.list, ws.cells, p, cutoff, skin, run, ws.records);
  else
    gather_records(p, order, ws.records);
  const VerletList& list = ws.list;
  const ListedRows rows{ws.records.data(), list.start.data(), list.partners.data(), cutoff * cutoff};
  const SimdPath path = best_simd_path();
  if (ws.buffers.size() < list.chunks.size()) ws.buffers.resize(list.chunks.size());
  for_each_chunk(list.chunks.size(), [&](std::size_t k) {
    const RowChunk& chunk = list.chunks[k];
    ListedBuffer& buf = ws.buffers[k];
    buf.base = chunk.window_begin;
    buf.field.assign(kRecord * (chunk.window_end - chunk.window_begin), 0.0);
    buf.energy = 0.0;
    // The compaction writes one slot past a row's partners, and the last block is completed to 4.
    if (buf.index.size() < list.longest + 4) {
      buf.index.resize(list.longest + 4);
      buf.r2.resize(list.longest + 4);
    }
    listed_rows_simd(path, c, rows, chunk.begin, chunk.end, buf);
  });
  sum_records(ws.buffers, list.chunks.size(), order, out);
}

}  // namespace gib::dipolar_spheres
