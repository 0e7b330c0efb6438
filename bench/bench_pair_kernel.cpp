// Google Benchmark of the dipolar soft-sphere pair kernel, one thread (OpenMP set to 1 inside each run) unless named:
//   pair_kernel/all_pairs/N     N = 10, 100, 1000, 10000: the paper's free-space all-pairs sum, Kjer
//                               parameters, positions uniform in [-N, N]^3 (the cost does not depend on them)
//   pair_kernel/cutoff/N        N = 1000, 10000: cutoff 3 sigma with cell lists, number density 0.5
//                               (box half-width 0.5 (2N)^(1/3), no pair closer than 0.9 sigma), a dense
//                               liquid-like state: 28 pairs per particle inside the cutoff in the bulk, 20-24
//                               on average with the free surfaces of a finite cluster
//                               Outside a run (gib::RunScope) the Verlet list is rebuilt at every call: this is
//                               the cost of an evaluation that builds its list.
//   pair_kernel/cutoff_listed/N N = 1000, 10000, 100000: the same cutoff and density on a jittered simple cubic
//                               lattice (spacing 2^(1/3), +-0.15 per coordinate, random orientations), inside one
//                               RunScope with the positions fixed, so the list is built once and reused: the cost
//                               between rebuilds. Adds list_per_pair (list entries per pair inside) and
//                               list_bytes_per_particle (the list's memory)
//   pair_kernel/cutoff_rows/N   N = 1000, 10000, 100000: cutoff_listed's pair loop alone (the listed rows of every
//                               chunk), without the O(N) work of an evaluation around it
//   pair_kernel/all_pairs_2threads/N  N = 1000, 10000: all pairs on two OpenMP threads (wall time)
//   pair_kernel/plain/1000      the plain peer: the same pair formula in an untuned i < j loop over 3-vectors
//   pair_kernel_alt/full_rows/N the rejected thread-deterministic scheme (every row sums over all j != i,
//                               each pair computed twice), for the comparison in deterministic_chunks.hpp
// Each iteration is one forces_and_torques call (energy, forces, body torques), what a method pays per stage.
// Counters (seconds, so JSON consumers read them as numbers): time_per_pair (time / interacting pairs:
// N(N-1)/2, or the pairs inside the cutoff), time_per_particle (time / N per evaluation); cutoff runs add
// pairs_per_particle and candidates_per_particle (pairs the cell stencil with cells of the cutoff visits, per
// particle: what the kernel visited before its Verlet list).
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "core/problem.hpp"
#include "core/run_scope.hpp"
#include "core/so3.hpp"
#include "problems/dipolar_spheres/cell_list.hpp"
#include "problems/dipolar_spheres/dipolar_model.hpp"
#include "problems/dipolar_spheres/pair_kernel.hpp"
#include "problems/dipolar_spheres/pair_rows_simd.hpp"
#include "problems/dipolar_spheres/verlet_list.hpp"

#ifdef _OPENMP
#include <omp.h>
#endif

namespace {

namespace ds = gib::dipolar_spheres;

constexpr double kCutoff = 3.0;
constexpr double kDensity = 0.5;

// OpenMP's thread count for one scope (one by default: the per-core figures).
class Threads {
 public:
#ifdef _OPENMP
  explicit Threads(int n = 1) : saved_(omp_get_max_threads()) { omp_set_num_threads(n); }
  ~Threads() { omp_set_num_threads(saved_); }

 private:
  int saved_;
#else
  explicit Threads(int = 1) {}
#endif
};

// Problems are drawn once per (kind, N) and kept: the N = 10000 draw checks distances in O(N^2).
std::shared_ptr<const gib::ParticlesProblem> problem(bool cutoff, int n) {
  static std::map<std::pair<bool, int>, std::shared_ptr<const gib::ParticlesProblem>> cache;
  auto& slot = cache[{cutoff, n}];
  if (!slot) {
    gib::Json o = {{"N", n}};
    if (cutoff) {
      o["box"] = 0.5 * std::cbrt(n / kDensity);
      o["min_start_distance"] = 0.9;
      o["cutoff"] = kCutoff;
    }
    auto made = gib::find_problem("dipolar_spheres").make("kjer2017_n10", o, "preset");
    slot.reset(dynamic_cast<gib::ParticlesProblem*>(made.release()));
  }
  return slot;
}

// The stencil's candidates and, among them, the pairs closer than the cutoff (the cell list finds every such pair:
// tests/test_dipolar_spheres.cpp checks it against all pairs), in O(N) so that N = 100000 is counted in a moment.
struct PairCounts {
  double candidates = 0, inside = 0;
};

PairCounts count_pairs(const gib::ParticlesState& x) {
  ds::CellList cells;
  std::vector<double> px(static_cast<std::size_t>(x.size())), py(px.size()), pz(px.size());
  for (int i = 0; i < x.size(); ++i) {
    const auto k = static_cast<std::size_t>(i);
    px[k] = x.q(0, i);
    py[k] = x.q(1, i);
    pz[k] = x.q(2, i);
  }
  cells.build(px.data(), py.data(), pz.data(), px.size(), kCutoff);
  std::int64_t candidates = 0, inside = 0;
  ds::CellList::Ranges ranges;
  const auto& order = cells.order();
  for (std::size_t s = 0; s < px.size(); ++s) {
    const int used = cells.forward_ranges(s, ranges);
    const std::size_t i = order[s];
    for (int r = 0; r < used; ++r) {
      const ds::IndexRange& range = ranges[static_cast<std::size_t>(r)];
      candidates += static_cast<std::int64_t>(range.end - range.begin);
      for (std::size_t t = range.begin; t < range.end; ++t) {
        const std::size_t j = order[t];
        const double dx = px[i] - px[j], dy = py[i] - py[j], dz = pz[i] - pz[j];
        inside += dx * dx + dy * dy + dz * dz < kCutoff * kCutoff;
      }
    }
  }
  return {static_cast<double>(candidates), static_cast<double>(inside)};
}

void set_counters(benchmark::State& state, double pairs, double n) {
  using benchmark::Counter;
  state.counters["time_per_pair"] = Counter(pairs, Counter::kIsIterationInvariantRate | Counter::kInvert);
  state.counters["time_per_particle"] = Counter(n, Counter::kIsIterationInvariantRate | Counter::kInvert);
  state.SetItemsProcessed(static_cast<std::int64_t>(pairs) * state.iterations());
}

void bench_model(benchmark::State& state, bool cutoff, int n, int threads) {
  const Threads team(threads);
  const auto p = problem(cutoff, n);
  const gib::ParticlesState& x = p->initial_state();
  Eigen::Matrix3Xd F, tau;
  for (auto _ : state) {
    p->model().forces_and_torques(x, F, tau);
    benchmark::DoNotOptimize(F.data());
    benchmark::DoNotOptimize(tau.data());
    benchmark::ClobberMemory();
  }
  state.SetLabel(std::string("simd ") + ds::simd_path_name(ds::best_simd_path()));
  if (!cutoff) {
    set_counters(state, 0.5 * n * (n - 1.0), n);
    return;
  }
  const PairCounts counts = count_pairs(x);
  set_counters(state, counts.inside, n);
  state.counters["pairs_per_particle"] = counts.inside / n;
  state.counters["candidates_per_particle"] = counts.candidates / n;
}

// N sites of a simple cubic lattice at density kDensity, filled layer by layer, each coordinate jittered by
// +-0.15, orientations uniform (exp of a random rotation vector): a dense liquid-like state of any size at once
// (the problem's random placement with a minimum distance costs O(N^2)).
gib::ParticlesState jittered_lattice(int n) {
  const double spacing = std::cbrt(1.0 / kDensity);
  const int side = static_cast<int>(std::ceil(std::cbrt(static_cast<double>(n)) - 1e-9));
  std::mt19937_64 rng(2026);
  std::uniform_real_distribution<double> jitter(-0.15, 0.15), angle(-1.0, 1.0);
  gib::ParticlesState x;
  x.q.resize(3, n);
  x.p = Eigen::Matrix3Xd::Zero(3, n);
  x.m = Eigen::Matrix3Xd::Zero(3, n);
  for (int k = 0; k < n; ++k) {
    const int site[3] = {k % side, (k / side) % side, k / (side * side)};
    for (int d = 0; d < 3; ++d) x.q(d, k) = spacing * site[d] + jitter(rng);
    const gib::Vec3 u(angle(rng), angle(rng), angle(rng));
    x.Q.push_back(gib::so3::exp<double>(3.0 * u));
  }
  return x;
}

// The model's cutoff path inside one run with the positions fixed: the Verlet list is built at the first call and
// reused at every other (the steady state between rebuilds).
void bench_listed(benchmark::State& state, int n) {
  const Threads team(1);
  ds::DipoleParameters params;
  params.n = n;
  params.cutoff = kCutoff;
  const ds::DipolarSpheresModel model(params);
  const gib::ParticlesState x = jittered_lattice(n);
  Eigen::Matrix3Xd F, tau;
  {
    const gib::RunScope run;
    model.forces_and_torques(x, F, tau);  // builds the list, outside the timed loop
    for (auto _ : state) {
      model.forces_and_torques(x, F, tau);
      benchmark::DoNotOptimize(F.data());
      benchmark::DoNotOptimize(tau.data());
      benchmark::ClobberMemory();
    }
  }
  state.SetLabel(std::string("simd ") + ds::simd_path_name(ds::best_simd_path()));
  const PairCounts counts = count_pairs(x);
  set_counters(state, counts.inside, n);
  state.counters["pairs_per_particle"] = counts.inside / n;
  // The list the model holds, rebuilt here from the same arrays (the model keeps its own out of reach).
  ds::ParticleArrays<double> a;
  ds::gather_particle_arrays(x, params.mu_bar, a);
  ds::ListedWorkspace ws;
  ds::PairResult<double> r;
  ds::cutoff_pairs_listed(a, ds::pair_constants(1.0, 1.0, ds::ShortRange::soft_sphere, kCutoff, 0.8),
                          ds::kSkinFraction * kCutoff, ws, r);
  state.counters["list_per_pair"] = static_cast<double>(ws.list.partners.size()) / counts.inside;
  state.counters["list_bytes_per_particle"] = static_cast<double>(ws.list_bytes()) / n;
}

// The listed rows alone: the pair loop of cutoff_listed (list reused, every chunk on one thread) without the O(N)
// work of an evaluation around it (the model's gather and torques, the records, the buffers' zeroing and sum), so the
// report can tell the two apart. The buffers keep accumulating from one iteration to the next, which costs the same.
void bench_listed_rows(benchmark::State& state, int n) {
  const Threads team(1);
  ds::DipoleParameters params;
  params.n = n;
  params.cutoff = kCutoff;
  const gib::ParticlesState x = jittered_lattice(n);
  ds::ParticleArrays<double> a;
  ds::gather_particle_arrays(x, params.mu_bar, a);
  const auto c = ds::pair_constants(1.0, 1.0, ds::ShortRange::soft_sphere, kCutoff, 0.8);
  ds::ListedWorkspace ws;
  ds::PairResult<double> r;
  const gib::RunScope run;
  ds::cutoff_pairs_listed(a, c, ds::kSkinFraction * kCutoff, ws, r);  // the list, records and buffers
  const ds::ListedRows rows{ws.records.data(), ws.list.start.data(), ws.list.partners.data(), kCutoff * kCutoff};
  const ds::SimdPath path = ds::best_simd_path();
  for (auto _ : state) {
    for (std::size_t k = 0; k < ws.list.chunks.size(); ++k)
      ds::listed_rows_simd(path, c, rows, ws.list.chunks[k].begin, ws.list.chunks[k].end, ws.buffers[k]);
    benchmark::DoNotOptimize(ws.buffers.data());
    benchmark::ClobberMemory();
  }
  state.SetLabel(std::string("simd ") + ds::simd_path_name(path));
  const PairCounts counts = count_pairs(x);
  set_counters(state, counts.inside, n);
  state.counters["pairs_per_particle"] = counts.inside / n;
}

// Rows over all j != i (two runs, before and after i), each pair twice, no writes to j: thread-safe and
// deterministic without buffers.
void full_rows(const ds::ParticleArrays<double>& p, const ds::PairConstants<double>& c, ds::ChunkBuffer<double>& buf,
               ds::PairResult<double>& out) {
  const std::size_t n = p.size();
  out.energy = 0;
  for (std::size_t i = 0; i < n; ++i) {
    double e = 0, fx = 0, fy = 0, fz = 0, ex = 0, ey = 0, ez = 0;
    for (const auto& [lo, hi] : {std::pair<std::size_t, std::size_t>{0, i}, {i + 1, n}}) {
      if (hi <= lo) continue;
      double* t = buf.scratch.data();
      ds::inverse_distances(p, i, lo, hi, t);
      const double xi = p.x[i], yi = p.y[i], zi = p.z[i];
      GIB_PRAGMA(omp simd reduction(+ : e, fx, fy, fz, ex, ey, ez))
      for (std::size_t j = lo; j < hi; ++j) {
        const auto q = ds::pair_terms(c, xi - p.x[j], yi - p.y[j], zi - p.z[j], t[j - lo], p.mx[i], p.my[i], p.mz[i],
                                      p.mx[j], p.my[j], p.mz[j]);
        e += q.energy;
        fx -= q.gx;
        fy -= q.gy;
        fz -= q.gz;
        ex += q.eix;
        ey += q.eiy;
        ez += q.eiz;
      }
    }
    out.energy += 0.5 * e;
    out.field.fx[i] = fx;
    out.field.fy[i] = fy;
    out.field.fz[i] = fz;
    out.field.ex[i] = ex;
    out.field.ey[i] = ey;
    out.field.ez[i] = ez;
  }
}

void bench_full_rows(benchmark::State& state, int n) {
  const auto p = problem(false, n);
  const auto& model = dynamic_cast<const ds::DipolarSpheresModel&>(p->model());
  ds::ParticleArrays<double> a;
  a.resize(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) {
    const auto k = static_cast<std::size_t>(i);
    const gib::Vec3 mu = p->initial_state().Q[k] * model.parameters().mu_bar;
    a.x[k] = p->initial_state().q(0, i);
    a.y[k] = p->initial_state().q(1, i);
    a.z[k] = p->initial_state().q(2, i);
    a.mx[k] = mu(0);
    a.my[k] = mu(1);
    a.mz[k] = mu(2);
  }
  const auto c = ds::pair_constants(1.0, 1.0, ds::ShortRange::soft_sphere);
  ds::ChunkBuffer<double> buf;
  buf.scratch.resize(a.size());
  ds::PairResult<double> out;
  out.field.assign_zero(a.size());
  for (auto _ : state) {
    full_rows(a, c, buf, out);
    benchmark::DoNotOptimize(out.field.fx.data());
    benchmark::ClobberMemory();
  }
  set_counters(state, 0.5 * n * (n - 1.0), n);
}

// The plain peer of issue 24: the same pair formula (pair_terms) in the loop one writes without tuning: positions
// and dipoles as 3-vectors (array of structures), i < j with std::sqrt per pair, each pair's terms added to both
// particles at once. Checked once against the model's forces before it is timed.
void plain_all_pairs(const std::vector<gib::Vec3>& q, const std::vector<gib::Vec3>& mu, const ds::PairConstants<double>& c,
                     std::vector<gib::Vec3>& force, std::vector<gib::Vec3>& field, double& energy) {
  const std::size_t n = q.size();
  energy = 0;
  for (std::size_t i = 0; i < n; ++i) {
    force[i].setZero();
    field[i].setZero();
  }
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = i + 1; j < n; ++j) {
      const gib::Vec3 r = q[i] - q[j];
      const auto t = ds::pair_terms(c, r(0), r(1), r(2), 1.0 / std::sqrt(r.squaredNorm()), mu[i](0), mu[i](1), mu[i](2),
                                    mu[j](0), mu[j](1), mu[j](2));
      energy += t.energy;
      const gib::Vec3 g(t.gx, t.gy, t.gz);
      force[i] -= g;
      force[j] += g;
      field[i] += gib::Vec3(t.eix, t.eiy, t.eiz);
      field[j] += gib::Vec3(t.ejx, t.ejy, t.ejz);
    }
}

void bench_plain(benchmark::State& state, int n) {
  const auto p = problem(false, n);
  const auto& model = dynamic_cast<const ds::DipolarSpheresModel&>(p->model());
  const gib::ParticlesState& x = p->initial_state();
  std::vector<gib::Vec3> q(static_cast<std::size_t>(n)), mu(q.size()), force(q.size()), field(q.size());
  for (int i = 0; i < n; ++i) {
    q[static_cast<std::size_t>(i)] = x.q.col(i);
    mu[static_cast<std::size_t>(i)] = x.Q[static_cast<std::size_t>(i)] * model.parameters().mu_bar;
  }
  const auto c = ds::pair_constants(1.0, 1.0, ds::ShortRange::soft_sphere);
  double energy = 0;
  plain_all_pairs(q, mu, c, force, field, energy);
  Eigen::Matrix3Xd F, tau;
  {
    const Threads one;
    model.forces_and_torques(x, F, tau);
  }
  double worst = 0, scale = 0;
  for (int i = 0; i < n; ++i) {
    worst = std::max(worst, (F.col(i) - force[static_cast<std::size_t>(i)]).norm());
    scale = std::max(scale, F.col(i).norm());
  }
  if (!(worst <= 1e-10 * scale)) {
    state.SkipWithError(("the plain kernel's forces differ from the model's by " + std::to_string(worst)).c_str());
    return;
  }
  for (auto _ : state) {
    plain_all_pairs(q, mu, c, force, field, energy);
    benchmark::DoNotOptimize(force.data());
    benchmark::DoNotOptimize(energy);
    benchmark::ClobberMemory();
  }
  set_counters(state, 0.5 * n * (n - 1.0), n);
}

const bool registered = [] {
  for (int n : {10, 100, 1000, 10000})
    benchmark::RegisterBenchmark(("pair_kernel/all_pairs/" + std::to_string(n)).c_str(), bench_model, false, n, 1)
        ->Unit(benchmark::kMicrosecond);
  for (int n : {1000, 10000})
    benchmark::RegisterBenchmark(("pair_kernel/cutoff/" + std::to_string(n)).c_str(), bench_model, true, n, 1)
        ->Unit(benchmark::kMicrosecond);
  for (int n : {1000, 10000, 100000}) {
    benchmark::RegisterBenchmark(("pair_kernel/cutoff_listed/" + std::to_string(n)).c_str(), bench_listed, n)
        ->Unit(benchmark::kMicrosecond);
    benchmark::RegisterBenchmark(("pair_kernel/cutoff_rows/" + std::to_string(n)).c_str(), bench_listed_rows, n)
        ->Unit(benchmark::kMicrosecond);
  }
  // Two threads (issue 24 item 4): the same evaluation; bench/pair_kernel.py reports the speed-up over one thread.
  // Wall time, since CPU time sums over threads.
  for (int n : {1000, 10000})
    benchmark::RegisterBenchmark(("pair_kernel/all_pairs_2threads/" + std::to_string(n)).c_str(), bench_model, false,
                                 n, 2)
        ->Unit(benchmark::kMicrosecond)
        ->UseRealTime();
  benchmark::RegisterBenchmark("pair_kernel_alt/full_rows/1000", bench_full_rows, 1000)->Unit(benchmark::kMicrosecond);
  benchmark::RegisterBenchmark("pair_kernel/plain/1000", bench_plain, 1000)->Unit(benchmark::kMicrosecond);
  return true;
}();

}  // namespace
