// Row chunks for thread-count-independent symmetric pair loops (the dipolar spheres' kernels, the water cluster's
// intermolecular forces): rows cut into chunks whose number and boundaries depend only on the work per row, never on
// the thread count, so that per-chunk buffers summed in chunk order give the same bits for any number of threads
// (problems/dipolar_spheres/deterministic_chunks.hpp explains the trade against evaluating each pair twice).
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

// OpenMP pragmas only when OpenMP is on, so that a build without it stays free of -Wunknown-pragmas.
#if defined(_OPENMP)
#define GIB_PRAGMA(x) _Pragma(#x)
#else
#define GIB_PRAGMA(x)
#endif

namespace gib {

// Below this many pairs per chunk the buffers cost more than the parallelism gains (about 0.1 ms of work).
inline constexpr std::int64_t kPairsPerChunk = 16384;
inline constexpr std::int64_t kMaxChunks = 32;

struct RowChunk {
  std::size_t begin = 0, end = 0;                // rows [begin, end)
  std::size_t window_begin = 0, window_end = 0;  // the particles those rows write to
};

// row_work[i]: pairs in row i; reach[i]: one past the largest particle index row i writes to (rows write
// to themselves, so reach[i] > i). Chunks hold about equal work.
inline void partition_rows(const std::vector<std::int64_t>& row_work, const std::vector<std::size_t>& reach,
                           std::vector<RowChunk>& chunks) {
  const std::size_t n = row_work.size();
  std::int64_t total = 0;
  for (std::int64_t w : row_work) total += w;
  const std::int64_t count = std::clamp<std::int64_t>(total / kPairsPerChunk, 1, kMaxChunks);
  chunks.clear();
  std::size_t row = 0;
  std::int64_t done = 0;
  for (std::int64_t c = 1; c <= count && row < n; ++c) {
    const std::int64_t target = total * c / count;
    RowChunk chunk;
    chunk.begin = chunk.window_begin = row;
    chunk.window_end = row + 1;
    while (row < n && (done < target || c == count || row == chunk.begin)) {
      done += row_work[row];
      chunk.window_end = std::max(chunk.window_end, reach[row]);
      ++row;
    }
    chunk.end = row;
    chunks.push_back(chunk);
  }
}

inline std::vector<RowChunk> partition_rows(const std::vector<std::int64_t>& row_work,
                                            const std::vector<std::size_t>& reach) {
  std::vector<RowChunk> chunks;
  partition_rows(row_work, reach, chunks);
  return chunks;
}

}  // namespace gib
