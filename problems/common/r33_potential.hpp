// Potentials that depend on the attitude only through R33 = e_z . (R E3), the height of the body's third
// axis (Krysl spec 1): the Lagrange top (V = m g l R33, linear, a uniform field) and Krysl's Coulomb
// soft-wall body (V = k/r - eps/r^10 with r = offset + R33). With Gamma = R^T e_z = (R31, R32, R33):
//   body torque  T = f'(R33) (Gamma x E3) = f'(R33) (R32, -R31, 0)
//   dT/d eta     = -f''(R33) (Gamma x E3)(Gamma x E3)^T - f'(R33) hat(E3) hat(Gamma)   (body-side R exp(eta))
// so V(R exp(eps eta)) = V(R) - eps eta . T + O(eps^2), the convention of core/model.hpp. The spatial
// torque e_z-component is zero, so e_z . R Pi is conserved by the flow.
//
// Euclidean extension (issue 7, the relaxed rotation R in R^{3x3} of Tao-Owhadi 4.5): V(R) = f(R33) for every
// 3x3 matrix, so with E33 = e3 e3^T
//   Frobenius gradient  f'(R33) E33,   Hessian a = f''(R33) a33 E33,   V'''(R)[a, a] = f'''(R33) a33^2 E33.
// On SO(3) it agrees with the torque: T = -vee(R^T G - G^T R) for G the Frobenius gradient.
#pragma once

#include <memory>
#include <string>

#include "core/model.hpp"

namespace gib {

// f and its first three derivatives at R33.
struct R33Profile {
  double f = 0, df = 0, d2f = 0, d3f = 0;
};

class R33Potential : public RigidBodyPotential {
 public:
  double energy(const Mat3& R) const override { return profile(R(2, 2)).f; }
  Vec3 body_torque(const Mat3& R) const override;
  Mat3 body_torque_jacobian(const Mat3& R) const override;
  bool has_euclidean_extension() const override { return true; }
  Mat3 euclidean_gradient(const Mat3& R) const override;
  Mat3 euclidean_hessian_apply(const Mat3& R, const Mat3& a) const override;
  Mat3 euclidean_third_contracted(const Mat3& R, const Mat3& a) const override;
  virtual R33Profile profile(double r33) const = 0;
};

// V = weight * R33 (a heavy top with its centre of mass on body axis 3 above the pivot; weight = m g l).
std::shared_ptr<const R33Potential> uniform_gravity_potential(double weight);

// V = k / r - eps / r^10 with r = offset + R33 (Krysl spec 7.4, the printed torque); sign = -1 gives the
// physically worded potential -k/r + eps/r^10. Throws InputError unless offset > 1 (r > 0 for every R).
std::shared_ptr<const R33Potential> coulomb_wall_potential(double k, double eps, double offset, double sign = 1.0);

}  // namespace gib
