// A heavy top for tests that need a torque of their own, outside the problem registry: V(R) = m R33 (centre
// of mass on the body's third axis, field along space e3). With V(R exp(eps eta)) = V(R) - eps eta . T
// the body torque is T = m (R32, -R31, 0); tests/test_support_heavy_top.cpp checks torque and Jacobian
// against finite differences of V.
#pragma once

#include "core/model.hpp"

namespace gib::test {

class HeavyTop final : public RigidBodyPotential {
 public:
  explicit HeavyTop(double m) : m_(m) {}
  double energy(const Mat3& R) const override { return m_ * R(2, 2); }
  Vec3 body_torque(const Mat3& R) const override { return m_ * Vec3(R(2, 1), -R(2, 0), 0.0); }
  // Gamma = R^T e3 moves as Gamma + Gamma x eta under R exp(eta), and T = m P Gamma with P the
  // rotation by -90 degrees in the 1-2 plane, so dT/deta = m P hat(Gamma).
  Mat3 body_torque_jacobian(const Mat3& R) const override {
    Mat3 P;
    P << 0, 1, 0, -1, 0, 0, 0, 0, 0;
    return m_ * P * so3::hat(Vec3(R.row(2).transpose()));
  }

 private:
  double m_;
};

}  // namespace gib::test
