#include "problems/dipolar_spheres/dipolar_model.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>

#include "problems/dipolar_spheres/pair_kernel.hpp"
#include "problems/dipolar_spheres/verlet_list.hpp"

namespace gib::dipolar_spheres {
namespace {

// Scratch reused across evaluations. One set per calling thread: methods may be stepped from several
// threads at once (the harness runs cells in parallel), each with its own state. The cutoff kernel's Verlet list
// lives here too; it is kept only within one RunScope (verlet_list.hpp), so a run never sees another's list.
struct Scratch {
  ParticleArrays<double> particles;
  AllPairsWorkspace<double> all_pairs;
  ListedWorkspace cutoff;
  PairResult<double> result;
};

Scratch& scratch() {
  thread_local Scratch s;
  return s;
}

}  // namespace

void gather_particle_arrays(const ParticlesState& x, const Vec3& mu_bar, ParticleArrays<double>& out) {
  const auto n = static_cast<std::size_t>(x.size());
  out.resize(n);
  for (std::size_t i = 0; i < n; ++i) {
    const auto col = static_cast<Eigen::Index>(i);
    const Vec3 mu = x.Q[i] * mu_bar;
    out.x[i] = x.q(0, col);
    out.y[i] = x.q(1, col);
    out.z[i] = x.q(2, col);
    out.mx[i] = mu(0);
    out.my[i] = mu(1);
    out.mz[i] = mu(2);
  }
}

DipolarSpheresModel::DipolarSpheresModel(const DipoleParameters& p)
    : p_(p), constants_(pair_constants(p.sigma, p.epsilon, p.short_range, p.cutoff, p.switch_fraction)) {}

void DipolarSpheresModel::evaluate(const ParticlesState& x, PairResult<double>& out) const {
  Scratch& s = scratch();
  gather_particle_arrays(x, p_.mu_bar, s.particles);
  if (p_.cutoff > 0)
    cutoff_pairs_listed(s.particles, constants_, kSkinFraction * p_.cutoff, s.cutoff, out);
  else
    all_pairs(s.particles, constants_, s.all_pairs, out);
}

double DipolarSpheresModel::potential_energy(const ParticlesState& x) const {
  PairResult<double>& r = scratch().result;
  evaluate(x, r);
  return r.energy;
}

void DipolarSpheresModel::forces_and_torques(const ParticlesState& x, Eigen::Matrix3Xd& F,
                                             Eigen::Matrix3Xd& tau) const {
  PairResult<double>& r = scratch().result;
  evaluate(x, r);
  const Eigen::Index n = x.size();
  F.resize(3, n);
  tau.resize(3, n);
  for (Eigen::Index i = 0; i < n; ++i) {
    const auto k = static_cast<std::size_t>(i);
    F.col(i) = Vec3(r.field.fx[k], r.field.fy[k], r.field.fz[k]);
    const Vec3 e_body = x.Q[k].transpose() * Vec3(r.field.ex[k], r.field.ey[k], r.field.ez[k]);
    tau.col(i) = e_body.cross(p_.mu_bar);
  }
}

// All pairs, also with a cutoff: the closest pair may be farther apart than the cutoff. Min is exact, so
// the parallel reduction is deterministic.
double DipolarSpheresModel::min_pair_distance(const ParticlesState& x) const {
  const Eigen::Index n = x.size();
  double best = std::numeric_limits<double>::infinity();
  GIB_PRAGMA(omp parallel for schedule(dynamic, 64) reduction(min : best) if (n > 2000))
  for (Eigen::Index i = 0; i < n; ++i) {
    const double xi = x.q(0, i), yi = x.q(1, i), zi = x.q(2, i);
    double row = std::numeric_limits<double>::infinity();
    for (Eigen::Index j = i + 1; j < n; ++j) {
      const double dx = xi - x.q(0, j), dy = yi - x.q(1, j), dz = zi - x.q(2, j);
      row = std::min(row, dx * dx + dy * dy + dz * dz);
    }
    best = std::min(best, row);
  }
  return std::sqrt(best);
}

}  // namespace gib::dipolar_spheres
