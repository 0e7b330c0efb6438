// N identical rigid dipolar spheres (Kjer spec 5.1): mass M, principal inertia (I1, I2, I3), body dipole
// mu_bar (mu_i = Q_i mu_bar), short-range repulsion 4 eps (sigma/r)^12 (or Lennard-Jones) plus the
// point-dipole energy, summed over all pairs in free space; optionally over pairs closer than a cutoff with
// a C2 switch (not the paper's setting; cutoff_kernel.hpp).
//
// Forces are space-frame; the body torque is tau_i = (Q_i^T E_i) x mu_bar = mu_bar x (Q_i^T B_i) with
// E_i = dV/dmu_i = -B_i (spec 5.3), which is the convention of core/model.hpp:
// V(Q_i exp(eps eta)) = V - eps eta . tau_i + O(eps^2).
#pragma once

#include "core/model.hpp"
#include "problems/dipolar_spheres/kernel_arrays.hpp"
#include "problems/dipolar_spheres/pair_math.hpp"

namespace gib::dipolar_spheres {

struct DipoleParameters {
  int n = 100;
  double mass = 1.0;
  Vec3 inertia{1.0, 1.88, 2.88};
  Vec3 mu_bar{0.0, 1.0, 1.0};
  double sigma = 1.0;
  double epsilon = 1.0;
  ShortRange short_range = ShortRange::soft_sphere;
  double cutoff = 0.0;           // 0: all pairs (the paper)
  double switch_fraction = 0.8;  // the switch acts on [switch_fraction cutoff, cutoff]
};

// Positions and space-frame dipoles mu_i = Q_i mu_bar in the kernels' structure-of-arrays form.
void gather_particle_arrays(const ParticlesState& x, const Vec3& mu_bar, ParticleArrays<double>& out);

class DipolarSpheresModel final : public RigidParticlesModel {
 public:
  explicit DipolarSpheresModel(const DipoleParameters& p);

  int size() const override { return p_.n; }
  double mass(int) const override { return p_.mass; }
  const Vec3& inertia(int) const override { return p_.inertia; }
  double potential_energy(const ParticlesState& x) const override;
  void forces_and_torques(const ParticlesState& x, Eigen::Matrix3Xd& F, Eigen::Matrix3Xd& tau) const override;
  double min_pair_distance(const ParticlesState& x) const override;

  const DipoleParameters& parameters() const { return p_; }
  // Energy, forces and dV/dmu_i in structure-of-arrays form (the kernel's own output).
  void evaluate(const ParticlesState& x, PairResult<double>& out) const;

 private:
  DipoleParameters p_;
  PairConstants<double> constants_;
};

}  // namespace gib::dipolar_spheres
