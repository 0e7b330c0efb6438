// The cutoff kernel's Verlet list (problems/dipolar_spheres/verlet_list.*): reused within a run while no particle has
// moved half the skin, with results equal to a fresh list's to round-off even after pairs crossed the cutoff;
// rebuilt once one has; and a run's bits independent of what ran before it and of the thread count.
#include <catch2/catch.hpp>
#include <cmath>
#include <random>
#include <vector>

#ifdef _OPENMP
#include <omp.h>
#endif

#include "core/run_scope.hpp"
#include "problems/dipolar_spheres/verlet_list.hpp"
#include "support/dipole_gas.hpp"

namespace gibench_test_verlet_list {

namespace {

namespace ds = gib::dipolar_spheres;

constexpr double kCutoff = 2.5;
constexpr double kSkin = 0.25;

const ds::PairConstants<double>& constants() {
  static const auto c = ds::pair_constants(1.0, 1.0, ds::ShortRange::soft_sphere, kCutoff, 0.8);
  return c;
}

// The gas moved k steps along fixed random directions of length `step` per particle.
std::vector<ds::ParticleArrays<double>> walk(const ds::ParticleArrays<double>& p0, int steps, double step) {
  std::mt19937_64 rng(99);
  std::normal_distribution<double> g(0.0, 1.0);
  const std::size_t n = p0.size();
  std::vector<double> dx(n), dy(n), dz(n);
  for (std::size_t i = 0; i < n; ++i) {
    const double a = g(rng), b = g(rng), c = g(rng), norm = std::sqrt(a * a + b * b + c * c);
    dx[i] = step * a / norm;
    dy[i] = step * b / norm;
    dz[i] = step * c / norm;
  }
  std::vector<ds::ParticleArrays<double>> out{p0};
  for (int k = 1; k <= steps; ++k) {
    ds::ParticleArrays<double> p = p0;
    for (std::size_t i = 0; i < n; ++i) {
      p.x[i] += k * dx[i];
      p.y[i] += k * dy[i];
      p.z[i] += k * dz[i];
    }
    out.push_back(p);
  }
  return out;
}

std::vector<double> flat(const ds::PairResult<double>& r) {
  std::vector<double> v{r.energy};
  for (const auto* a : {&r.field.fx, &r.field.fy, &r.field.fz, &r.field.ex, &r.field.ey, &r.field.ez})
    v.insert(v.end(), a->begin(), a->end());
  return v;
}

using gibench_test_support::same_bits;

// max |a - b| over every output, relative to max |b|.
double relative_difference(const ds::PairResult<double>& a, const ds::PairResult<double>& b) {
  const std::vector<double> u = flat(a), v = flat(b);
  double worst = 0, size = 0;
  for (std::size_t k = 0; k < u.size(); ++k) {
    worst = std::max(worst, std::abs(u[k] - v[k]));
    size = std::max(size, std::abs(v[k]));
  }
  return worst / size;
}

ds::PairResult<double> fresh(const ds::ParticleArrays<double>& p) {
  ds::ListedWorkspace ws;
  ds::PairResult<double> r;
  ds::cutoff_pairs_listed(p, constants(), kSkin, ws, r);
  return r;
}

std::size_t pairs_inside(const ds::ParticleArrays<double>& p) {
  std::size_t count = 0;
  for (std::size_t i = 0; i < p.size(); ++i)
    for (std::size_t j = i + 1; j < p.size(); ++j) {
      const double dx = p.x[i] - p.x[j], dy = p.y[i] - p.y[j], dz = p.z[i] - p.z[j];
      count += dx * dx + dy * dy + dz * dz < kCutoff * kCutoff;
    }
  return count;
}

}  // namespace

TEST_CASE("Verlet list: reused while every particle moved less than half the skin, then rebuilt",
          "[dipolar][verlet]") {
  // Steps of 0.04: after 3 every particle has moved 0.12 < skin / 2 = 0.125, after 4 all have moved 0.16.
  const auto states = walk(gibench_test_support::dipole_gas(500, 7), 4, 0.04);
  // Pairs entered and left the cutoff on the way: the reused list must hold the new ones.
  REQUIRE(pairs_inside(states[0]) > 2000);
  REQUIRE(pairs_inside(states[3]) != pairs_inside(states[0]));
  ds::ListedWorkspace ws;
  const gib::RunScope run;
  for (int k = 0; k <= 4; ++k) {
    INFO("state " << k);
    ds::PairResult<double> r;
    ds::cutoff_pairs_listed(states[static_cast<std::size_t>(k)], constants(), kSkin, ws, r);
    CHECK(ws.list.builds == (k < 4 ? 1 : 2));
    CHECK(relative_difference(r, fresh(states[static_cast<std::size_t>(k)])) <= 1e-13);
  }
  // (1 + skin / cutoff)^3 = 1.33 candidates per pair, up to the free surfaces and sampling.
  const double per_pair = static_cast<double>(ws.list.partners.size()) / static_cast<double>(pairs_inside(states[4]));
  CHECK(per_pair > 1.1);
  CHECK(per_pair < 1.6);
}

TEST_CASE("Verlet list: outside a run it is rebuilt at every call", "[dipolar][verlet]") {
  const auto states = walk(gibench_test_support::dipole_gas(200, 8), 2, 0.01);
  ds::ListedWorkspace ws;
  ds::PairResult<double> r;
  for (const auto& p : states) ds::cutoff_pairs_listed(p, constants(), kSkin, ws, r);
  CHECK(ws.list.builds == 3);
  CHECK(same_bits(r, fresh(states.back())));
}

TEST_CASE("Verlet list: a run's bits do not depend on what ran before it on the thread, nor on the thread count",
          "[dipolar][verlet]") {
  // Moves of 0.02 per step keep all three states within half the skin of each other, so a list built at any of them
  // would pass the displacement test at the others: only the run's identity tells them apart.
  const auto states = walk(gibench_test_support::dipole_gas(4000, 9), 2, 0.02);
  ds::ListedWorkspace ws;
  auto run = [&](int threads) {
#ifdef _OPENMP
    const int saved = omp_get_max_threads();
    omp_set_num_threads(threads);
#else
    (void)threads;
#endif
    const gib::RunScope scope;
    std::vector<ds::PairResult<double>> out(states.size());
    for (std::size_t k = 0; k < states.size(); ++k) ds::cutoff_pairs_listed(states[k], constants(), kSkin, ws, out[k]);
#ifdef _OPENMP
    omp_set_num_threads(saved);
#endif
    return out;
  };
  const auto first = run(1);
  // Another run that ends with its list built at the last state (a translated copy first, so that the last state
  // finds a list to rebuild): the next run must not start from it.
  {
    const gib::RunScope other;
    ds::ParticleArrays<double> away = states.back();
    for (double& x : away.x) x += 1.0;
    ds::PairResult<double> r;
    ds::cutoff_pairs_listed(away, constants(), kSkin, ws, r);
    ds::cutoff_pairs_listed(states.back(), constants(), kSkin, ws, r);
  }
  const auto again = run(2);
  REQUIRE(ws.list.chunks.size() > 1);  // the threads really split the rows
  for (std::size_t k = 0; k < states.size(); ++k) {
    INFO("state " << k);
    CHECK(same_bits(first[k], again[k]));
  }
  // A list built where the run starts gives that run's bits; one built at the last state orders the sums otherwise,
  // so the comparison above would have told a reused foreign list.
  CHECK(same_bits(first[0], fresh(states[0])));
  CHECK_FALSE(same_bits(fresh(states.back()), first.back()));
}

}  // namespace gibench_test_verlet_list
