// State types of the three model kinds (GUIDE 2). Plain data; methods and problems agree on them.
#pragma once

#include <Eigen/Core>
#include <cstring>
#include <vector>

#include "core/so3.hpp"

namespace gib {

using so3::Mat3;
using so3::Vec3;

// One rigid body about a fixed point: R maps body to space, Pi is the body angular momentum.
struct RigidBodyState {
  Mat3 R = Mat3::Identity();
  Vec3 Pi = Vec3::Zero();
};

// Bitwise equality, NaN-safe: a stepper that carries history (a multistep method, a cached momentum) keeps it only
// while the caller hands back, bit for bit, the state it wrote; a diverged state handed back unchanged still counts.
inline bool same_bits(const RigidBodyState& a, const RigidBodyState& b) {
  return std::memcmp(a.R.data(), b.R.data(), 9 * sizeof(double)) == 0 &&
         std::memcmp(a.Pi.data(), b.Pi.data(), 3 * sizeof(double)) == 0;
}

// N rigid particles, structure of arrays: column i of q, p, m belongs to particle i.
// m is the body angular momentum of each particle (left trivialisation, as Kjer).
struct ParticlesState {
  Eigen::Matrix3Xd q, p, m;
  std::vector<Mat3> Q;
  int size() const { return static_cast<int>(q.cols()); }
};

// A mechanical system on a vector space, M qdd = -grad V (+ constraint forces).
struct NewtonianState {
  Eigen::VectorXd q, v;
};

}  // namespace gib
