// Reproducible random draws. std::normal_distribution is implementation-defined, so gibench builds its
// draws from the raw std::mt19937_64 stream (whose sequence the standard fixes): same seed, same bits,
// on every compiler and library.
#pragma once

#include <cmath>
#include <cstdint>
#include <numbers>
#include <random>

#include "core/so3.hpp"

namespace gib::random {

class Stream {
 public:
  explicit Stream(std::uint64_t seed) : engine_(seed) {}

  // Uniform on [0, 1) with 53 random bits.
  double uniform() { return static_cast<double>(engine_() >> 11) * 0x1.0p-53; }
  double uniform(double lo, double hi) { return lo + (hi - lo) * uniform(); }

  // Standard normal by the Box-Muller transform (both values used in turn).
  double normal() {
    if (has_spare_) {
      has_spare_ = false;
      return spare_;
    }
    double u1 = uniform();
    while (u1 <= 0.0) u1 = uniform();
    const double u2 = uniform();
    const double r = std::sqrt(-2.0 * std::log(u1));
    spare_ = r * std::sin(2.0 * std::numbers::pi * u2);
    has_spare_ = true;
    return r * std::cos(2.0 * std::numbers::pi * u2);
  }

  so3::Vec3 normal3() {
    const double a = normal(), b = normal(), c = normal();
    return {a, b, c};
  }

  // Unit vector uniform on the sphere (a normalised Gaussian).
  so3::Vec3 unit3() {
    so3::Vec3 v = normal3();
    while (v.norm() == 0.0) v = normal3();
    return v.normalized();
  }

  // Haar-distributed rotation: a normalised Gaussian quaternion is uniform on S^3.
  so3::Mat3 rotation() {
    Eigen::Vector4d q;
    do {
      for (int i = 0; i < 4; ++i) q(i) = normal();
    } while (q.norm() == 0.0);
    q.normalize();
    return so3::matrix_from_quaternion<double>(q);
  }

 private:
  std::mt19937_64 engine_;
  bool has_spare_ = false;
  double spare_ = 0.0;
};

// Derive independent seeds from a base seed and a label (splitmix64 mixing), so that per-cell and
// per-purpose streams never depend on the order in which they are created.
inline std::uint64_t derive_seed(std::uint64_t base, std::uint64_t salt) {
  std::uint64_t z = base + 0x9E3779B97F4A7C15ULL * (salt + 1);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

}  // namespace gib::random
