// A smooth toy model of N rigid particles for the particle-method tests (tests/test_particle_methods.cpp),
// independent of the dipolar-sphere problem. All pairs interact through
//   V_ij = k/2 (r - r0)^2 - c mu_i . mu_j + e (mu_i . r)(mu_j . r),   r = q_i - q_j,  r = |r|,  mu_i = Q_i mu-bar,
// springs, an orientational coupling and a term that couples orientation and position (so a method that pairs the
// wrong stage positions with the stage orientations is caught). V depends on q, Q only through r and the mu_i, so it
// is invariant under translations and rotations: the flow keeps sum p_i and sum (q_i x p_i + Q_i m_i). With
// 2 e |mu-bar|^2 < k it is bounded below. Masses and inertias differ per particle, to catch index mix-ups.
//
// Forces and torques by hand (the test checks them against central differences of V):
//   dV/dq_i = k (r - r0) r/r + e ((mu_j . r) mu_i + (mu_i . r) mu_j) = -F_i = F_j
//   spatial torque on i: c mu_i x mu_j - e (mu_j . r) mu_i x r;  on j: c mu_j x mu_i - e (mu_i . r) mu_j x r
//   body torque tau_i = Q_i^T (spatial torque), so that V(Q_i exp(eps eta)) = V - eps eta . tau_i + O(eps^2).
#pragma once

#include <Eigen/Core>
#include <cmath>
#include <random>
#include <vector>

#include "core/model.hpp"

namespace gib::test {

// Spring constant and rest length, orientational coupling, position-orientation coupling, reference dipole.
struct ToyConstants {
  double k = 1.0, r0 = 1.5, c = 0.3, e = 0.1;
  Vec3 mu_bar{0.3, 0.8, 0.5};
};

class ToyParticles final : public RigidParticlesModel {
 public:
  ToyParticles(std::vector<double> masses, std::vector<Vec3> inertias, ToyConstants k = {})
      : masses_(std::move(masses)), inertias_(std::move(inertias)), k_(k) {}

  int size() const override { return static_cast<int>(masses_.size()); }
  double mass(int i) const override { return masses_[static_cast<std::size_t>(i)]; }
  const Vec3& inertia(int i) const override { return inertias_[static_cast<std::size_t>(i)]; }

  double potential_energy(const ParticlesState& x) const override {
    double v = 0;
    for (int i = 0; i < size(); ++i)
      for (int j = i + 1; j < size(); ++j) {
        const Vec3 r = x.q.col(i) - x.q.col(j);
        const Vec3 mi = mu(x, i), mj = mu(x, j);
        const double d = r.norm() - k_.r0;
        v += 0.5 * k_.k * d * d - k_.c * mi.dot(mj) + k_.e * mi.dot(r) * mj.dot(r);
      }
    return v;
  }

  void forces_and_torques(const ParticlesState& x, Eigen::Matrix3Xd& F, Eigen::Matrix3Xd& tau) const override {
    const int n = size();
    F.setZero(3, n);
    Eigen::Matrix3Xd t = Eigen::Matrix3Xd::Zero(3, n);  // spatial torques
    for (int i = 0; i < n; ++i)
      for (int j = i + 1; j < n; ++j) {
        const Vec3 r = x.q.col(i) - x.q.col(j);
        const double dist = r.norm();
        const Vec3 mi = mu(x, i), mj = mu(x, j);
        const double a = mi.dot(r), b = mj.dot(r);
        const Vec3 grad = k_.k * (dist - k_.r0) / dist * r + k_.e * (b * mi + a * mj);
        F.col(i) -= grad;
        F.col(j) += grad;
        t.col(i) += k_.c * mi.cross(mj) - k_.e * b * mi.cross(r);
        t.col(j) += k_.c * mj.cross(mi) - k_.e * a * mj.cross(r);
      }
    tau.resize(3, n);
    for (int i = 0; i < n; ++i) tau.col(i) = x.Q[static_cast<std::size_t>(i)].transpose() * t.col(i);
  }

 private:
  Vec3 mu(const ParticlesState& x, int i) const { return x.Q[static_cast<std::size_t>(i)] * k_.mu_bar; }

  std::vector<double> masses_;
  std::vector<Vec3> inertias_;
  ToyConstants k_;
};

// Four particles with distinct masses and inertias.
inline ToyParticles toy_four() {
  return ToyParticles({1.0, 1.7, 0.8, 2.3},
                      {Vec3(1.0, 1.5, 2.2), Vec3(0.8, 1.3, 1.9), Vec3(1.2, 1.6, 2.5), Vec3(0.9, 1.1, 1.7)});
}

// A seeded state for toy_four: positions near the rest lengths, moderate momenta and spins, Haar-ish orientations
// (exp of a random vector), nonzero total linear and angular momentum.
inline ParticlesState toy_state(int n, unsigned seed, double momentum = 0.5, double spin = 0.8) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  auto vec = [&] { return Vec3(u(rng), u(rng), u(rng)); };
  ParticlesState x;
  x.q.resize(3, n);
  x.p.resize(3, n);
  x.m.resize(3, n);
  x.Q.resize(static_cast<std::size_t>(n));
  const Vec3 corners[4] = {Vec3(0, 0, 0), Vec3(1.4, 0.2, 0), Vec3(0.5, 1.3, 0.1), Vec3(0.6, 0.5, 1.2)};
  for (int i = 0; i < n; ++i) {
    x.q.col(i) = corners[i % 4] + 0.1 * vec() + Vec3(0, 0, 2.0 * (i / 4));
    x.p.col(i) = momentum * vec();
    x.m.col(i) = spin * vec();
    x.Q[static_cast<std::size_t>(i)] = so3::exp(Vec3(3.0 * vec()));
  }
  return x;
}

}  // namespace gib::test
