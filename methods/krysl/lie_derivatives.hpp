// Derivatives of SO(3) maps that the Newton Jacobians of the Krysl methods need and core/so3.hpp does not
// provide (Krysl spec 3.5 gives the exp ones, which so3::dexp_left/right cover):
//   * the right-trivialised differential of the Cayley map (AKW),
//   * the derivative of psi -> dexp_inv_right(psi) w (BBTRAPWD and implicit MKRK keep the full dexp^{-1}).
// tests/test_nonlinear_solver.cpp checks both against central differences.
#pragma once

#include <cmath>

#include "core/so3.hpp"

namespace gib::krysl {

using so3::Mat3;
using so3::Vec3;

// cay(a + d) = cay(a) cay-increment with body-side rate (4 / (4 + |a|^2)) (I - hat(a)/2) d: from
// d cay = (I - A/2)^{-1} dA (I - A/2)^{-1} and M hat(v) M^T = det(M) hat(M^{-T} v) with M = (I + A/2)^{-1}.
inline Mat3 cayley_right_jacobian(const Vec3& a) {
  return (4.0 / (4.0 + a.squaredNorm())) * (Mat3::Identity() - 0.5 * so3::hat(a));
}

// d/ds of the dexp^{-1} coefficient d(s) = (1 - (t/2) cot(t/2)) / s, s = t^2. Below t = 0.5 the derivative
// of the series that so3 evaluates (its coefficient table), above it the closed form, which does not cancel there.
inline double dexp_inv_coefficient_derivative(double s) {
  const auto& c = so3::detail::kDexpInv;
  constexpr std::size_t n = sizeof(c) / sizeof(c[0]);
  if (s < so3::detail::kSeriesAngle * so3::detail::kSeriesAngle) {
    double r = 0;
    for (std::size_t k = n - 1; k >= 1; --k) r = r * s + static_cast<double>(k) * static_cast<double>(c[k]);
    return r;
  }
  const double x = std::sqrt(s) / 2;  // half angle
  const double cot = 1 / std::tan(x), sin = std::sin(x);
  const double cx = x * cot;
  const double dc_ds = (cot - x / (sin * sin)) / (8 * x);
  return -(dc_ds * s + (1 - cx)) / (s * s);
}

// d/dpsi [dexp_inv_right(psi) w] with dexp_inv_right(psi) = I + hat(psi)/2 + d(|psi|^2) hat(psi)^2, using
// hat(psi)^2 w = psi (psi . w) - w |psi|^2.
inline Mat3 dexp_inv_right_jacobian(const Vec3& psi, const Vec3& w) {
  const double s = psi.squaredNorm();
  const Vec3 psi_psi_w = psi * psi.dot(w) - w * s;
  Mat3 d_inner = psi.dot(w) * Mat3::Identity() + psi * w.transpose() - 2.0 * w * psi.transpose();
  return -0.5 * so3::hat(w) + 2.0 * dexp_inv_coefficient_derivative(s) * psi_psi_w * psi.transpose() +
         so3::dexp_inv_coefficient(s) * d_inner;
}

}  // namespace gib::krysl
