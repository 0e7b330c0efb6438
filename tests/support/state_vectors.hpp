// States as flat vectors in a chosen scalar, for tests that compare final states entry by entry: a rigid body as R
// row-major then Pi, N rigid particles as q, Q row-major, p, m per particle (any state type with those members and
// any scalar that converts to T).
#pragma once

#include <Eigen/Core>
#include <cstddef>
#include <vector>

namespace gib::test {

template <class T, class Rotation, class Vector>
std::vector<T> body_vector(const Rotation& R, const Vector& Pi) {
  std::vector<T> v;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) v.push_back(static_cast<T>(R(i, j)));
  for (int i = 0; i < 3; ++i) v.push_back(static_cast<T>(Pi(i)));
  return v;
}

template <class T, class Particles> std::vector<T> particles_vector(const Particles& x) {
  std::vector<T> v;
  for (Eigen::Index p = 0; p < x.q.cols(); ++p) {
    for (int i = 0; i < 3; ++i) v.push_back(static_cast<T>(x.q(i, p)));
    const auto& Q = x.Q[static_cast<std::size_t>(p)];
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) v.push_back(static_cast<T>(Q(i, j)));
    for (int i = 0; i < 3; ++i) v.push_back(static_cast<T>(x.p(i, p)));
    for (int i = 0; i < 3; ++i) v.push_back(static_cast<T>(x.m(i, p)));
  }
  return v;
}

}  // namespace gib::test
