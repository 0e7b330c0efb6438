// Thread-count-independent parallel accumulation for symmetric pair loops.
//
// A symmetric loop (each pair once, Newton's third law) writes to both particles of a pair, so threads
// cannot share one output array without races, and per-thread buffers summed at the end would make the
// bits depend on how many threads there were. Instead the rows are cut into chunks whose number and
// boundaries depend only on the work per row (never on the thread count); each chunk accumulates into
// its own buffer, covering just the window of particles its rows touch, and the buffers are summed in
// chunk order. Whichever thread runs a chunk, every sum is taken in the same order: same bits for 1, 2 or
// 64 threads. The price is the buffers' zeroing and the final sum, O(chunks x N), against O(N^2) (or
// O(N x neighbours)) pair work.
//
// The alternative, each row summing over all j != i with OpenMP over rows, is deterministic without
// buffers but evaluates every pair twice; single-threaded it costs about 1.5x more per pair (12.4 against
// 8.4 ns at N = 1000: pair_kernel_alt/full_rows against pair_kernel/all_pairs in bench_pair_kernel.cpp; the
// j-side stores cost less than a second evaluation), so the symmetric loop is kept.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "problems/common/row_chunks.hpp"
#include "problems/dipolar_spheres/kernel_arrays.hpp"
#include "problems/dipolar_spheres/scalar_math.hpp"

namespace gib::dipolar_spheres {

using gib::kMaxChunks;
using gib::kPairsPerChunk;
using gib::partition_rows;
using gib::RowChunk;

// The partners of one row packed contiguously (the cutoff kernel gathers the pairs inside the cutoff).
template <class S>
struct PackedPairs {
  std::vector<std::size_t> index;
  std::vector<S> rx, ry, rz, mx, my, mz;  // q_i - q_j and mu_j
  std::vector<S> gx, gy, gz, ex, ey, ez;  // dV/dq_i and dV/dmu_j of each pair

  void reserve(std::size_t n) {
    index.resize(n);
    for (auto* v : {&rx, &ry, &rz, &mx, &my, &mz, &gx, &gy, &gz, &ex, &ey, &ez}) v->resize(n);
  }
};

template <class S>
struct ChunkBuffer {
  std::size_t base = 0;  // particle index of field entry 0
  FieldArrays<S> field;
  S energy = S(0);
  std::vector<S> scratch;  // inverse distances of the row segment being processed
  PackedPairs<S> packed;   // used by the cutoff kernel only
  std::vector<RowSums<S>> rows;  // the chunk's row sums, kept across tiles (the tiled all-pairs kernel)
};

// Runs fn(lo, hi) over [0, n) in blocks of 2048 entries, in parallel where there is more than one block (the sums of
// chunk buffers: each entry is summed by one thread, in chunk order, whatever the thread count).
template <class BlockFn>
void for_each_block(std::size_t n, BlockFn&& fn) {
  constexpr std::size_t kBlock = 2048;
  const auto blocks = static_cast<std::ptrdiff_t>((n + kBlock - 1) / kBlock);
  if (blocks > 1) {
    GIB_PRAGMA(omp parallel for schedule(static))
    for (std::ptrdiff_t b = 0; b < blocks; ++b) {
      const std::size_t lo = static_cast<std::size_t>(b) * kBlock;
      fn(lo, std::min(n, lo + kBlock));
    }
  } else {
    fn(std::size_t{0}, n);
  }
}

// Sums the chunk buffers into out, each entry in chunk order.
template <class S>
void sum_chunks(const std::vector<ChunkBuffer<S>>& buffers, std::size_t count, std::size_t n, PairResult<S>& out) {
  out.energy = S(0);
  for (std::size_t c = 0; c < count; ++c) out.energy += buffers[c].energy;
  if (count == 1 && buffers[0].base == 0 && buffers[0].field.size() == n) {
    out.field = buffers[0].field;  // one chunk over every particle: nothing to add
    return;
  }
  out.field.assign_zero(n);
  for_each_block(n, [&](std::size_t lo, std::size_t hi) {
    for (std::size_t c = 0; c < count; ++c) {
      const ChunkBuffer<S>& buf = buffers[c];
      const std::size_t from = std::max(lo, buf.base), to = std::min(hi, buf.base + buf.field.size());
      for (std::size_t k = from; k < to; ++k) {
        const std::size_t m = k - buf.base;
        out.field.fx[k] += buf.field.fx[m];
        out.field.fy[k] += buf.field.fy[m];
        out.field.fz[k] += buf.field.fz[m];
        out.field.ex[k] += buf.field.ex[m];
        out.field.ey[k] += buf.field.ey[m];
        out.field.ez[k] += buf.field.ez[m];
      }
    }
  });
}

// Runs fn(c) for every chunk c = 0 .. count - 1, in parallel. A single chunk runs without entering an OpenMP region
// (its fork costs microseconds, a small system's whole evaluation).
template <class ChunkFn>
void for_each_chunk(std::size_t count, ChunkFn&& fn) {
  if (count > 1) {
    GIB_PRAGMA(omp parallel for schedule(dynamic, 1))
    for (std::ptrdiff_t c = 0; c < static_cast<std::ptrdiff_t>(count); ++c) fn(static_cast<std::size_t>(c));
  } else if (count == 1) {
    fn(0);
  }
}

// Runs rows(begin, end, buffer) for every chunk's rows [begin, end), chunks in parallel, then sums the buffers in
// chunk order into out.
template <class S, class RowsFn>
void run_chunk_rows(const std::vector<RowChunk>& chunks, std::vector<ChunkBuffer<S>>& buffers, std::size_t n,
                    PairResult<S>& out, RowsFn&& rows) {
  if (buffers.size() < chunks.size()) buffers.resize(chunks.size());
  for_each_chunk(chunks.size(), [&](std::size_t c) {
    const RowChunk& chunk = chunks[c];
    ChunkBuffer<S>& buf = buffers[c];
    buf.base = chunk.window_begin;
    buf.field.assign_zero(chunk.window_end - chunk.window_begin);
    buf.energy = S(0);
    buf.scratch.resize(n);
    rows(chunk.begin, chunk.end, buf);
  });
  sum_chunks(buffers, chunks.size(), n, out);
}

// The same, one row at a time: row(i, buffer) for every row of every chunk, in order.
template <class S, class RowFn>
void run_chunks(const std::vector<RowChunk>& chunks, std::vector<ChunkBuffer<S>>& buffers, std::size_t n,
                PairResult<S>& out, RowFn&& row) {
  run_chunk_rows(chunks, buffers, n, out, [&](std::size_t begin, std::size_t end, ChunkBuffer<S>& buf) {
    for (std::size_t i = begin; i < end; ++i) row(i, buf);
  });
}

}  // namespace gib::dipolar_spheres
