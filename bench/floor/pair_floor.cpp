// The floor of the dipolar pair kernel on the machine that runs it (issue 24 item 1): gibench's own row kernel
// (row_segment of problems/dipolar_spheres/pair_kernel.hpp, the same operation mix: 1/r^2, a packet sqrt, the
// pair terms, the j-side updates and the row reductions) on 64 particles whose arrays stay in L1, compiled for
// the best vector instructions this compiler and CPU have (-march=native, bench/CMakeLists.txt). A separate
// executable, linked to nothing of gibench's library, so that its instantiation of the header templates cannot
// take the place of the library's, which is built for the baseline ISA.
//   pair_floor/row/N      one row of N - 1 pairs per call, repeated, N = 64, 128, 256: the smallest time_per_pair
//                         (the longest row, whose fixed cost per row is spread widest) is the floor
// bench/pair_kernel.py runs it next to gibench_bench's pair_kernel benchmarks and reports the kernel against it.
#include <benchmark/benchmark.h>

#include <cmath>
#include <cstdint>
#include <random>

#include "problems/dipolar_spheres/pair_kernel.hpp"

namespace {

namespace ds = gib::dipolar_spheres;

// Positions on a jittered cubic lattice of spacing 1.3 (no pair closer than about 1 sigma: the arithmetic does not
// depend on the values, but a NaN or an overflow would), unit dipoles in random directions.
ds::ParticleArrays<double> particles(std::size_t n) {
  std::mt19937_64 rng(2026);
  std::uniform_real_distribution<double> jitter(-0.1, 0.1), normal_ish(-1.0, 1.0);
  ds::ParticleArrays<double> p;
  p.resize(n);
  for (std::size_t k = 0; k < n; ++k) {
    p.x[k] = 1.3 * static_cast<double>(k % 4) + jitter(rng);
    p.y[k] = 1.3 * static_cast<double>((k / 4) % 4) + jitter(rng);
    p.z[k] = 1.3 * static_cast<double>(k / 16) + jitter(rng);
    double mx = normal_ish(rng), my = normal_ish(rng), mz = normal_ish(rng);
    const double norm = std::sqrt(mx * mx + my * my + mz * mz);
    p.mx[k] = mx / norm;
    p.my[k] = my / norm;
    p.mz[k] = mz / norm;
  }
  return p;
}

void row_floor(benchmark::State& state) {
  const auto n = static_cast<std::size_t>(state.range(0));
  const ds::ParticleArrays<double> p = particles(n);
  const ds::PairConstants<double> c = ds::pair_constants(1.0, 1.0, ds::ShortRange::soft_sphere);
  ds::ChunkBuffer<double> buf;
  buf.base = 0;
  buf.field.assign_zero(n);
  buf.scratch.resize(n);
  for (auto _ : state) {
    ds::RowSums<double> sums;
    ds::row_segment(p, c, 0, 1, n, buf, sums);
    benchmark::DoNotOptimize(sums);
    benchmark::ClobberMemory();
  }
  const double pairs = static_cast<double>(n - 1);
  state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(n - 1));
  state.counters["time_per_pair"] =
      benchmark::Counter(pairs, benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
}

}  // namespace

// Rows of 63, 127 and 255 pairs: 13 arrays of n doubles, 26 kB at n = 256, within a 32 kB L1. (At n = 512 the
// arrays are 4 kB apart and their loads and stores alias in the store buffer: 8 ns per pair here, an artifact.)
BENCHMARK(row_floor)->Name("pair_floor/row")->Arg(64)->Arg(128)->Arg(256);

BENCHMARK_MAIN();
