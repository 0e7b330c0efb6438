// The dispatched row kernels (problems/dipolar_spheres/pair_rows_simd.*), all-pairs and the listed cutoff kernel's
// rows: their baseline and AVX2 builds give the same bits on every row length (every tail of the 4-lane blocks), both
// agree with the scalar template kernel to round-off, and the model's all_pairs runs the path best_simd_path() names.
#include <catch2/catch.hpp>
#include <algorithm>
#include <cstdint>
#include <cmath>
#include <cstring>
#include <vector>

#include "problems/dipolar_spheres/cutoff_kernel.hpp"
#include "problems/dipolar_spheres/pair_kernel.hpp"
#include "problems/dipolar_spheres/pair_rows_simd.hpp"
#include "support/dipole_gas.hpp"

namespace gibench_test_pair_rows_simd {

namespace {

namespace ds = gib::dipolar_spheres;

ds::ParticleArrays<double> gas(std::size_t n, unsigned seed) { return gibench_test_support::dipole_gas(n, seed); }

struct Rows {
  ds::ChunkBuffer<double> buf;
  std::vector<ds::RowSums<double>> sums;
};

// Every row i over [i + 1, n) into one buffer, by the given row function.
template <class RowFn>
Rows all_rows(const ds::ParticleArrays<double>& p, RowFn&& row) {
  const std::size_t n = p.size();
  Rows r;
  r.buf.base = 0;
  r.buf.field.assign_zero(n);
  r.buf.scratch.resize(n);
  r.sums.resize(n);
  const auto c = ds::pair_constants(1.0, 1.0, ds::ShortRange::soft_sphere);
  for (std::size_t i = 0; i < n; ++i) row(p, c, i, i + 1, n, r.buf, r.sums[i]);
  return r;
}

std::vector<double> flat(const Rows& r) {
  std::vector<double> v;
  for (const auto* a : {&r.buf.field.fx, &r.buf.field.fy, &r.buf.field.fz, &r.buf.field.ex, &r.buf.field.ey,
                        &r.buf.field.ez})
    v.insert(v.end(), a->begin(), a->end());
  for (const auto& s : r.sums) v.insert(v.end(), {s.energy, s.fx, s.fy, s.fz, s.ex, s.ey, s.ez});
  return v;
}

bool same_bits(const std::vector<double>& a, const std::vector<double>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(double)) == 0;
}

}  // namespace

TEST_CASE("pair rows: the AVX2 and baseline builds give the same bits on every tail length", "[dipolar][simd]") {
  if (ds::best_simd_path() != ds::SimdPath::avx2) {
    WARN("this CPU has no AVX2: only the baseline path runs here, so the comparison is skipped");
    return;
  }
  for (const std::size_t n : {1, 2, 3, 4, 5, 6, 7, 8, 9, 13, 64, 101}) {
    INFO("n = " << n);
    const ds::ParticleArrays<double> p = gas(n, 17 + static_cast<unsigned>(n));
    auto by = [&](ds::SimdPath path) {
      return flat(all_rows(p, [&](auto&&... a) { ds::row_segment_simd(path, a...); }));
    };
    CHECK(same_bits(by(ds::SimdPath::avx2), by(ds::SimdPath::baseline)));
  }
}

TEST_CASE("pair rows: the 4-lane kernel agrees with the scalar template kernel to round-off", "[dipolar][simd]") {
  for (const std::size_t n : {2, 5, 64, 101}) {
    INFO("n = " << n);
    const ds::ParticleArrays<double> p = gas(n, 5 + static_cast<unsigned>(n));
    const std::vector<double> scalar = flat(all_rows(p, [](auto&&... a) { ds::row_segment<double>(a...); }));
    const std::vector<double> packed =
        flat(all_rows(p, [](auto&&... a) { ds::row_segment_simd(ds::best_simd_path(), a...); }));
    REQUIRE(scalar.size() == packed.size());
    double worst = 0, size = 0;
    for (std::size_t k = 0; k < scalar.size(); ++k) {
      worst = std::max(worst, std::abs(scalar[k] - packed[k]));
      size = std::max(size, std::abs(scalar[k]));
    }
    INFO("largest difference " << worst << " of " << size);
    REQUIRE(size > 1e-3);
    CHECK(worst <= 1e-13 * size);
  }
}

TEST_CASE("pair rows: all_pairs<double> runs the dispatched kernel", "[dipolar][simd]") {
  const ds::ParticleArrays<double> p = gas(37, 3);
  const auto c = ds::pair_constants(1.0, 1.0, ds::ShortRange::soft_sphere);
  ds::AllPairsWorkspace<double> ws;
  ds::PairResult<double> r;
  ds::all_pairs(p, c, ws, r);
  const Rows rows = all_rows(p, [](auto&&... a) { ds::row_segment_simd(ds::best_simd_path(), a...); });
  // One chunk at this size: the buffer is the result, and the energy is the rows' sums in row order.
  double energy = 0;
  for (const auto& s : rows.sums) energy += s.energy;
  CHECK(r.energy == energy);
  std::vector<double> fx = rows.buf.field.fx;
  for (std::size_t i = 0; i < fx.size(); ++i) fx[i] += rows.sums[i].fx;
  CHECK(same_bits(r.field.fx, fx));
}

// Every row i of the listed cutoff kernel with all j > i listed, through listed_rows_simd by the given path: the force
// records and the energy, flattened.
std::vector<double> listed_rows(const ds::ParticleArrays<double>& p, double cutoff, ds::SimdPath path) {
  const auto c = ds::pair_constants(1.0, 1.0, ds::ShortRange::soft_sphere, cutoff, 0.8);
  const std::size_t n = p.size();
  std::vector<double> records(ds::kRecord * n, 0.0);
  std::vector<std::uint32_t> start{0}, partners;
  for (std::size_t i = 0; i < n; ++i) {
    const double values[6] = {p.x[i], p.y[i], p.z[i], p.mx[i], p.my[i], p.mz[i]};
    std::copy(values, values + 6, records.begin() + static_cast<std::ptrdiff_t>(ds::kRecord * i));
    for (std::size_t j = i + 1; j < n; ++j) partners.push_back(static_cast<std::uint32_t>(j));
    start.push_back(static_cast<std::uint32_t>(partners.size()));
  }
  ds::ListedBuffer buf;
  buf.field.assign(ds::kRecord * n, 0.0);
  buf.index.resize(n + 4);
  buf.r2.resize(n + 4);
  const ds::ListedRows rows{records.data(), start.data(), partners.data(), cutoff * cutoff};
  ds::listed_rows_simd(path, c, rows, 0, n, buf);
  std::vector<double> out = buf.field;
  out.push_back(buf.energy);
  return out;
}

TEST_CASE("listed cutoff rows: the AVX2 and baseline builds give the same bits on every tail length",
          "[dipolar][simd]") {
  if (ds::best_simd_path() != ds::SimdPath::avx2) {
    WARN("this CPU has no AVX2: only the baseline path runs here, so the comparison is skipped");
    return;
  }
  // Cutoff 2.5 with the switch from 2.0 puts pairs on both sides of the switch and beyond it (where they must add
  // exact zeros); a cutoff of 1000 keeps every partner, so row i has n - 1 - i pairs: every tail of the blocks.
  for (const double cutoff : {2.5, 1000.0})
    for (const std::size_t n : {2, 3, 4, 5, 6, 9, 13, 64, 101}) {
      INFO("n = " << n << ", cutoff " << cutoff);
      const ds::ParticleArrays<double> p = gas(n, 29 + static_cast<unsigned>(n));
      const std::vector<double> avx2 = listed_rows(p, cutoff, ds::SimdPath::avx2);
      CHECK(same_bits(avx2, listed_rows(p, cutoff, ds::SimdPath::baseline)));
      // And the scalar template's cutoff kernel (cell list, packed partners) to round-off.
      ds::CutoffWorkspace<double> ws;
      ds::PairResult<double> scalar;
      ds::cutoff_pairs(p, ds::pair_constants(1.0, 1.0, ds::ShortRange::soft_sphere, cutoff, 0.8), ws, scalar);
      double worst = std::abs(avx2.back() - scalar.energy), size = std::abs(scalar.energy);
      for (std::size_t i = 0; i < n; ++i) {
        const double* f = avx2.data() + ds::kRecord * i;
        const double want[6] = {scalar.field.fx[i], scalar.field.fy[i], scalar.field.fz[i],
                                scalar.field.ex[i], scalar.field.ey[i], scalar.field.ez[i]};
        for (int d = 0; d < 6; ++d) {
          worst = std::max(worst, std::abs(f[d] - want[d]));
          size = std::max(size, std::abs(want[d]));
        }
      }
      CHECK(size > 0.0);
      CHECK(worst <= 1e-13 * size);
    }
}

}  // namespace gibench_test_pair_rows_simd
