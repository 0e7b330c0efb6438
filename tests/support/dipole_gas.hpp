// For the pair-kernel tests that call the kernels directly: a gas of unit dipoles at density 0.3, positions at least
// 0.8 apart (so no pair overflows), in structure-of-arrays form, and a bitwise comparison of two results.
#pragma once

#include <cmath>
#include <cstddef>
#include <cstring>
#include <random>
#include <vector>

#include "problems/dipolar_spheres/kernel_arrays.hpp"

namespace gibench_test_support {

// Every output of two kernel results, energy included, bit for bit (memcmp: -0 is not +0, a NaN equals its copy).
inline bool same_bits(const gib::dipolar_spheres::PairResult<double>& a,
                      const gib::dipolar_spheres::PairResult<double>& b) {
  const auto same = [](const std::vector<double>& u, const std::vector<double>& v) {
    return u.size() == v.size() && std::memcmp(u.data(), v.data(), u.size() * sizeof(double)) == 0;
  };
  return std::memcmp(&a.energy, &b.energy, sizeof(double)) == 0 && same(a.field.fx, b.field.fx) &&
         same(a.field.fy, b.field.fy) && same(a.field.fz, b.field.fz) && same(a.field.ex, b.field.ex) &&
         same(a.field.ey, b.field.ey) && same(a.field.ez, b.field.ez);
}

inline gib::dipolar_spheres::ParticleArrays<double> dipole_gas(std::size_t n, unsigned seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  const double side = std::cbrt(static_cast<double>(n) / 0.3);
  gib::dipolar_spheres::ParticleArrays<double> p;
  p.resize(n);
  for (std::size_t k = 0; k < n; ++k) {
    for (bool placed = false; !placed;) {
      p.x[k] = side * u(rng);
      p.y[k] = side * u(rng);
      p.z[k] = side * u(rng);
      placed = true;
      for (std::size_t j = 0; j < k && placed; ++j) {
        const double dx = p.x[k] - p.x[j], dy = p.y[k] - p.y[j], dz = p.z[k] - p.z[j];
        placed = dx * dx + dy * dy + dz * dz > 0.64;
      }
    }
    const double a = u(rng) - 0.5, b = u(rng) - 0.5, c = u(rng) - 0.5, norm = std::sqrt(a * a + b * b + c * c);
    p.mx[k] = a / norm;
    p.my[k] = b / norm;
    p.mz[k] = c / norm;
  }
  return p;
}

}  // namespace gibench_test_support
