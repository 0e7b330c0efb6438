// The all-pairs row kernel for double, written in fixed 4-lane packs (problems/common/simd_pack.hpp) and compiled
// twice: for the baseline x86-64 ISA and, in the same library, for AVX2 (pair_rows_simd.cpp). The process runs the
// AVX2 one where the CPU has it. Both give the same bits: the grouping of every sum is fixed by the source, and no
// multiply-add is fused (tests/test_pair_rows_simd.cpp compares them on every machine that has AVX2).
#pragma once

#include <cstddef>

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

// The pairs packed in q[0, m) for row i of the cutoff kernel (mu_i = (mix, miy, miz)), switched: the j sides into
// q's outputs, the i side added to sums, grouped by lanes of 4 as above. m must be a multiple of 4: pad_packed
// fills a row's last block with partners beyond the cutoff, which add exact zeros (q's arrays need room for them).
void pad_packed(const PairConstants<double>& c, std::size_t m, PackedPairs<double>& q);
void packed_pairs_simd(SimdPath path, const PairConstants<double>& c, double mix, double miy, double miz,
                       std::size_t m, PackedPairs<double>& q, RowSums<double>& sums);

}  // namespace gib::dipolar_spheres
