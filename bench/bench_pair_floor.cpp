// The floor of the dipolar pair kernel on the machine that runs it (issue 24, item 1): how fast this CPU can do one
// pair's arithmetic at all, measured here rather than taken from a data sheet.
//
// A pair's operation mix is counted from the source: pair_terms (pair_math.hpp) run once on a counting scalar,
// plus the row loop's own operations per pair (pair_rows_simd.cpp: the separation, r^2, the j-side updates, the
// i-side sums), plus one square root and one division. Products of constants are not counted (the compiler hoists
// them). The floor benchmarks then issue exactly that mix, 4 lanes at a time, as independent chains in registers:
// no loads, no stores, no dependency longer than one operation, so the time is the CPU's throughput for the mix
// (its multiply, add and divide units working at once), the fastest any kernel with these operations can go.
//   pair_floor/mix/baseline   the x86-64 baseline (SSE2, 2 lanes per instruction)
//   pair_floor/mix/avx2       4 lanes, no fused multiply-add: the rules the kernel keeps for its bits
//   pair_floor/mix/avx2_fma   4 lanes, each add that can be paired with a multiply fused into one FMA: the
//                             hardware's floor (on Zen 3 the adds have units of their own, so it is no lower)
//   pair_floor/switched_mix/avx2  the cutoff kernel's pair inside the cutoff (pair terms, switch and the listed
//                             loop's own operations), AVX2 without FMA: the floor item 3's cutoff loop is held to
//   pair_floor/mix_2threads/avx2  the AVX2 mix on two threads at once (wall time per pair of both): what two threads
//                             can gain on this machine at best
// bench/pair_kernel.py reports the kernel (pair_kernel/all_pairs/1000) against the lowest of the mix floors.
// Compiled with -fno-math-errno -ffp-contract=off (bench/CMakeLists.txt), like the kernel.
#include <benchmark/benchmark.h>

#include <cmath>
#include <cstdint>
#include <string>

#include "problems/common/simd_pack.hpp"
#include "problems/dipolar_spheres/pair_math.hpp"

#if defined(__x86_64__)
#include <immintrin.h>
#endif
#if defined(_OPENMP)
#include <omp.h>
#endif

#include "problems/common/row_chunks.hpp"  // GIB_PRAGMA

#pragma GCC diagnostic ignored "-Wpsabi"  // packs by value, all inlined (simd_pack.hpp)

namespace {

namespace ds = gib::dipolar_spheres;
using gib::simd::Pack4;

// ---- The operation mix, counted ------------------------------------------------------------------------------

struct OpCount {
  int mul = 0, add = 0;
};
OpCount counted;

// A scalar that counts the multiplications and additions (subtractions) whose result varies from pair to pair.
struct Counted {
  double v = 0;
  bool varies = false;
  Counted() = default;
  Counted(double x, bool var = false) : v(x), varies(var) {}
  Counted(int x) : v(x) {}
};
Counted op(double v, const Counted& a, const Counted& b, int OpCount::*kind) {
  const bool varies = a.varies || b.varies;
  if (varies) ++(counted.*kind);
  return {v, varies};
}
Counted operator*(const Counted& a, const Counted& b) { return op(a.v * b.v, a, b, &OpCount::mul); }
Counted operator+(const Counted& a, const Counted& b) { return op(a.v + b.v, a, b, &OpCount::add); }
Counted operator-(const Counted& a, const Counted& b) { return op(a.v - b.v, a, b, &OpCount::add); }
// The switch's clamp to [0, 1]: comparisons and blends, not counted (no multiply or add unit's work).
bool operator<(const Counted& a, const Counted& b) { return a.v < b.v; }
bool operator>(const Counted& a, const Counted& b) { return a.v > b.v; }

// The row loop's operations per pair besides pair_terms (row_pack4 in pair_rows_simd.cpp): r = q_i - q_j (3 adds),
// r^2 (3 multiplications, 2 adds), the j-side force and field updates (6 adds), the i-side sums (7 adds).
constexpr OpCount kRowLoop{3, 3 + 2 + 6 + 7};

OpCount pair_mix() {
  counted = {};
  const ds::PairConstants<Counted> c = {};
  const Counted x(0.5, true);
  (void)ds::pair_terms(c, x, x, x, x, x, x, x, x, x, x);
  return {counted.mul + kRowLoop.mul, counted.add + kRowLoop.add};
}

// The cutoff kernel's pair inside the cutoff (issue 24 item 3): switched_pair_terms, plus the listed loop's own
// operations per pair (pair_rows_simd.cpp: listed_rows): the separation in the compaction and again in the block
// (3 adds each), r^2 in the compaction (3 multiplications, 2 adds), r = r^2 / r (1 multiplication), the j-side
// updates (6 adds) and the i-side sums (7 adds). The compaction's partners beyond the cutoff are not counted.
constexpr OpCount kListedLoop{3 + 1, 3 + 3 + 2 + 6 + 7};

OpCount switched_pair_mix() {
  counted = {};
  ds::PairConstants<Counted> c = {};
  c.cutoff = c.switch_start = c.inv_switch_width = Counted(1.0);
  const Counted x(0.5, true);
  (void)ds::switched_pair_terms(c, x, x, x, x, x, x, x, x, x, x, x);
  return {counted.mul + kListedLoop.mul, counted.add + kListedLoop.add};
}

// The mixes as compile-time counts, so the streams below are straight-line code; checked against pair_mix() and
// switched_pair_mix() before each run (a changed formula stops the benchmark with an error until these are updated).
constexpr int kMul = 56, kAdd = 42;
constexpr int kSwitchedMul = 65, kSwitchedAdd = 47;

// ---- The mix as independent chains -----------------------------------------------------------------------------

constexpr int kChains = 6;  // 3-cycle latency, 2 per cycle: 6 chains keep a unit busy

// A value the optimiser cannot see through. With the constants visible, GCC proved 1 + 1e-300 == 1, dropped every
// add chain from the loop as invariant, and merged the two identical division chains into one: the floor then timed
// the multiplications, one division and two square roots per two packs (the disassembly showed no vaddpd in the
// loop). Every chain now starts from, and every operand is, a value only known at run time.
template <class V>
[[gnu::always_inline]] inline V opaque(V v) {
  asm("" : "+x"(v));
  return v;
}

// Two packs per iteration (so the divider's two chains, square root and division, each have a pack's worth of
// time to finish): 2 kMul multiplications, 2 kAdd additions, 2 divisions, 2 square roots, round-robin over chains.
template <int Muls, int Adds, class V, class Mul, class Add, class Div, class Sqrt>
[[gnu::always_inline]] inline double run_mix(std::int64_t iterations, V one, V m, V d, Mul mul, Add add, Div div,
                                             Sqrt root) {
  V mc[kChains], ac[kChains];
  for (int k = 0; k < kChains; ++k) {
    mc[k] = opaque(one);
    ac[k] = opaque(one);
  }
  V q0 = opaque(one), q1 = opaque(one), s0 = opaque(one), s1 = opaque(one);
  m = opaque(m);
  d = opaque(d);
  for (std::int64_t it = 0; it < iterations; ++it) {
#pragma GCC unroll 256
    for (int k = 0; k < 2 * Muls; ++k) mc[k % kChains] = mul(mc[k % kChains], m);
#pragma GCC unroll 256
    for (int k = 0; k < 2 * Adds; ++k) ac[k % kChains] = add(ac[k % kChains], d);
    q0 = div(m, q0);
    q1 = div(m, q1);
    s0 = root(s0 + d);
    s1 = root(s1 + d);
  }
  V total = q0 + q1 + s0 + s1;
  for (int k = 0; k < kChains; ++k) total = total + mc[k] + ac[k];
  double sum = 0;
  for (int l = 0; l < static_cast<int>(sizeof(V) / sizeof(double)); ++l) sum += total[l];
  return sum;
}

typedef double VecD2 __attribute__((vector_size(16)));
using gib::simd::VecD4;

// The baseline does 4 lanes as two 2-lane halves; its count per iteration is doubled instead.
[[gnu::noinline]] double mix_baseline(std::int64_t iterations) {
  const VecD2 one = {1.0, 1.0}, m = {0.999999999, 0.999999999}, d = {1e-300, 1e-300};
  return run_mix<kMul, kAdd>(
      2 * iterations, one, m, d, [](VecD2 a, VecD2 b) { return a * b; }, [](VecD2 a, VecD2 b) { return a + b; },
      [](VecD2 a, VecD2 b) { return a / b; },
      [](VecD2 a) {
        VecD2 r;
        for (int l = 0; l < 2; ++l) r[l] = __builtin_sqrt(a[l]);
        return r;
      });
}

#if defined(__x86_64__)
template <int Muls, int Adds>
[[gnu::always_inline, gnu::target("avx2")]] inline double mix_avx2_of(std::int64_t iterations) {
  const VecD4 one = {1, 1, 1, 1}, m = {0.999999999, 0.999999999, 0.999999999, 0.999999999},
              d = {1e-300, 1e-300, 1e-300, 1e-300};
  return run_mix<Muls, Adds>(
      iterations, one, m, d, [](VecD4 a, VecD4 b) { return a * b; }, [](VecD4 a, VecD4 b) { return a + b; },
      [](VecD4 a, VecD4 b) { return a / b; }, [](VecD4 a) { return gib::simd::sqrt(a).v; });
}

[[gnu::noinline, gnu::target("avx2")]] double mix_avx2(std::int64_t iterations) {
  return mix_avx2_of<kMul, kAdd>(iterations);
}

// The cutoff kernel's switched pair, by the kernel's rules (AVX2, nothing fused).
[[gnu::noinline, gnu::target("avx2")]] double switched_mix_avx2(std::int64_t iterations) {
  return mix_avx2_of<kSwitchedMul, kSwitchedAdd>(iterations);
}

// FMA: min(kMul, kAdd) of the multiplications carry an addition each (a fused chain), the rest stay as they were.
[[gnu::noinline, gnu::target("avx2,fma")]] double mix_avx2_fma(std::int64_t iterations) {
  constexpr int fused = kMul < kAdd ? kMul : kAdd;
  const __m256d one = _mm256_set1_pd(1.0), m = opaque(_mm256_set1_pd(0.999999999)),
                d = opaque(_mm256_set1_pd(1e-300));
  __m256d fc[kChains], mc[kChains], ac[kChains];
  for (int k = 0; k < kChains; ++k) {
    fc[k] = opaque(one);
    mc[k] = opaque(one);
    ac[k] = opaque(one);
  }
  __m256d q0 = opaque(one), q1 = opaque(one), s0 = opaque(one), s1 = opaque(one);
  for (std::int64_t it = 0; it < iterations; ++it) {
#pragma GCC unroll 256
    for (int k = 0; k < 2 * fused; ++k) fc[k % kChains] = _mm256_fmadd_pd(fc[k % kChains], m, d);
#pragma GCC unroll 256
    for (int k = 0; k < 2 * (kMul - fused); ++k) mc[k % kChains] = _mm256_mul_pd(mc[k % kChains], m);
#pragma GCC unroll 256
    for (int k = 0; k < 2 * (kAdd - fused); ++k) ac[k % kChains] = _mm256_add_pd(ac[k % kChains], d);
    q0 = _mm256_div_pd(m, q0);
    q1 = _mm256_div_pd(m, q1);
    s0 = _mm256_sqrt_pd(_mm256_add_pd(s0, d));
    s1 = _mm256_sqrt_pd(_mm256_add_pd(s1, d));
  }
  __m256d total = _mm256_add_pd(_mm256_add_pd(q0, q1), _mm256_add_pd(s0, s1));
  for (int k = 0; k < kChains; ++k) total = _mm256_add_pd(total, _mm256_add_pd(fc[k], _mm256_add_pd(mc[k], ac[k])));
  alignas(32) double lanes[4];
  _mm256_store_pd(lanes, total);
  return lanes[0] + lanes[1] + lanes[2] + lanes[3];
}

#endif

void floor_mix(benchmark::State& state, double (*mix)(std::int64_t), bool supported, bool switched = false) {
  const OpCount c = switched ? switched_pair_mix() : pair_mix();
  const int want_mul = switched ? kSwitchedMul : kMul, want_add = switched ? kSwitchedAdd : kAdd;
  if (c.mul != want_mul || c.add != want_add) {
    state.SkipWithError(("the " + std::string(switched ? "switched " : "") + "pair's operation mix is now " +
                         std::to_string(c.mul) + " multiplications and " + std::to_string(c.add) +
                         " additions: update its counts in bench/bench_pair_floor.cpp")
                            .c_str());
    return;
  }
  if (!supported) {
    state.SkipWithError("this CPU lacks the instructions");
    return;
  }
  constexpr std::int64_t kIterations = 4096;  // 8192 packs, 32768 pairs
  for (auto _ : state) benchmark::DoNotOptimize(mix(kIterations));
  const double pairs = 2.0 * 4.0 * kIterations;
  state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(pairs));
  state.counters["time_per_pair"] =
      benchmark::Counter(pairs, benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
  state.counters["mul_per_pair"] = want_mul;
  state.counters["add_per_pair"] = want_add;
}

// The machine's own scaling (issue 24 item 4): the AVX2 mix on two threads at once, each its full count. Two vCPUs
// that are two cores double the throughput; two hyperthreads of one core share its units and do not. Wall time per
// pair of both threads' work: the floor for a kernel on two threads.
void floor_mix_two_threads(benchmark::State& state) {
#if defined(_OPENMP) && defined(__x86_64__)
  if (!__builtin_cpu_supports("avx2")) {
    state.SkipWithError("this CPU lacks the instructions");
    return;
  }
  constexpr std::int64_t kIterations = 4096;
  double sink[2] = {0, 0};
  for (auto _ : state) {
    GIB_PRAGMA(omp parallel num_threads(2))
    sink[omp_get_thread_num() & 1] += mix_avx2(kIterations);
    benchmark::DoNotOptimize(sink);
  }
  const double pairs = 2 * 2.0 * 4.0 * kIterations;
  state.counters["time_per_pair"] =
      benchmark::Counter(pairs, benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
  state.counters["mul_per_pair"] = kMul;
  state.counters["add_per_pair"] = kAdd;
#else
  state.SkipWithError("built without OpenMP");
#endif
}

}  // namespace

BENCHMARK(floor_mix_two_threads)->Name("pair_floor/mix_2threads/avx2")->UseRealTime();
BENCHMARK_CAPTURE(floor_mix, baseline, mix_baseline, true)->Name("pair_floor/mix/baseline");
#if defined(__x86_64__)
BENCHMARK_CAPTURE(floor_mix, avx2, mix_avx2, __builtin_cpu_supports("avx2"))->Name("pair_floor/mix/avx2");
BENCHMARK_CAPTURE(floor_mix, avx2_fma, mix_avx2_fma,
                  __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma"))->Name("pair_floor/mix/avx2_fma");
BENCHMARK_CAPTURE(floor_mix, switched_avx2, switched_mix_avx2, __builtin_cpu_supports("avx2"), true)
    ->Name("pair_floor/switched_mix/avx2");
#endif
