// The all-pairs row kernel for double, written in fixed 4-lane packs (problems/common/simd_pack.hpp) and compiled
// twice: for the baseline x86-64 ISA and, in the same library, for AVX2 (pair_rows_simd.cpp). The process runs the
// AVX2 one where the CPU has it. Both give the same bits: the grouping of every sum is fixed by the source, and no
// multiply-add is fused (tests/test_pair_rows_simd.cpp compares them on every machine that has AVX2).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "problems/common/simd_dispatch.hpp"
#include "problems/dipolar_spheres/deterministic_chunks.hpp"
#include "problems/dipolar_spheres/pair_math.hpp"

namespace gib::dipolar_spheres {

using simd::best_simd_path;
using simd::simd_path_name;
using simd::SimdPath;

// The pairs (i, j), j in [lo, hi), lo > i, by the given path (which the CPU must support): adds the j sides to buf
// and the i side to sums, as row_segment<double> does, with the sums grouped by lanes of 4.
void row_segment_simd(SimdPath path, const ParticleArrays<double>& p, const PairConstants<double>& c, std::size_t i,
                      std::size_t lo, std::size_t hi, ChunkBuffer<double>& buf, RowSums<double>& sums);

// The listed cutoff kernel's rows (verlet_list.hpp), in the same 4-lane code. Particles are records of kRecord
// doubles in the list's sorted order, so that a partner is one cache line: x, y, z, mx, my, mz and two zeros in
// the inputs; fx, fy, fz, ex, ey, ez and two zeros in a chunk's force window. Four partners' records are loaded
// whole and transposed into lanes, and their outputs transposed back and added record by record: no per-pair
// packing or scattering of separate arrays, which cost more than the pair terms themselves.
inline constexpr std::size_t kRecord = 8;

struct ListedRows {
  const double* records = nullptr;             // the sorted particles' input records
  const std::uint32_t* start = nullptr;        // row s's partners are partners[start[s], start[s + 1])
  const std::uint32_t* partners = nullptr;     // sorted indices, each > its row
  double cutoff2 = 0.0;
};

struct ListedBuffer {
  std::size_t base = 0;          // sorted index of force record 0
  std::vector<double> field;     // the chunk's force window, kRecord doubles per particle
  double energy = 0.0;
  // A row's partners inside the cutoff (index and squared distance), padded to whole blocks of 4;
  // room for the longest row + 4.
  std::vector<std::uint32_t> index;
  std::vector<double> r2;
};

// Rows [begin, end): for each, the listed partners closer than the cutoff now, switched; the partners' sides added
// to buf's records, then the row's own sums (grouped by lanes of 4 as row_segment_simd's) to its record and to
// buf.energy. The bits are those of evaluating the same pairs packed contiguously: lane l of a row sums its
// partners l, l + 4, ..., and a row's last block is completed with partners beyond the cutoff (r = 2 cutoff,
// mu = 0), which the switch makes exact zeros and which are added to the row sums but stored nowhere.
void listed_rows_simd(SimdPath path, const PairConstants<double>& c, const ListedRows& rows, std::size_t begin,
                      std::size_t end, ListedBuffer& buf);

}  // namespace gib::dipolar_spheres
