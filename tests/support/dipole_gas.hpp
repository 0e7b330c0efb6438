// A gas of unit dipoles at density 0.3, positions at least 0.8 apart (so no pair overflows), in structure-of-arrays
// form: the input of the pair-kernel tests that call the kernels directly.
#pragma once

#include <cmath>
#include <cstddef>
#include <random>

#include "problems/dipolar_spheres/kernel_arrays.hpp"

namespace gibench_test_support {

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
