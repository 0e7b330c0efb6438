#include <catch2/catch.hpp>

#include "core/random.hpp"
#include "support/heavy_top.hpp"

namespace gibench_test_support_heavy_top {

TEST_CASE("test heavy top: torque and Jacobian match finite differences of V", "[support]") {
  const gib::test::HeavyTop top(1.3);
  gib::random::Stream rng(7);
  for (int k = 0; k < 5; ++k) {
    const gib::Mat3 R = rng.rotation();
    const double e = 1e-6;
    gib::Vec3 fd_torque;
    gib::Mat3 fd_jac;
    for (int j = 0; j < 3; ++j) {
      const gib::Vec3 d = gib::Vec3::Unit(j) * e;
      const gib::Mat3 Rp = R * gib::so3::exp(d), Rm = R * gib::so3::exp(gib::Vec3(-d));
      fd_torque(j) = -(top.energy(Rp) - top.energy(Rm)) / (2 * e);
      fd_jac.col(j) = (top.body_torque(Rp) - top.body_torque(Rm)) / (2 * e);
    }
    CHECK((fd_torque - top.body_torque(R)).norm() < 1e-9);
    CHECK((fd_jac - top.body_torque_jacobian(R)).norm() < 1e-8);
  }
}

}  // namespace gibench_test_support_heavy_top
