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
// For any dense double matrix or vector (same shape, same bits), and below for each model kind's state.
template <class Derived>
bool same_bits(const Eigen::PlainObjectBase<Derived>& a, const Eigen::PlainObjectBase<Derived>& b) {
  return a.rows() == b.rows() && a.cols() == b.cols() &&
         std::memcmp(a.data(), b.data(), sizeof(double) * static_cast<std::size_t>(a.size())) == 0;
}
inline bool same_bits(const RigidBodyState& a, const RigidBodyState& b) { return same_bits(a.R, b.R) && same_bits(a.Pi, b.Pi); }

// N rigid particles, structure of arrays: column i of q, p, m belongs to particle i.
// m is the body angular momentum of each particle (left trivialisation, as Kjer).
struct ParticlesState {
  Eigen::Matrix3Xd q, p, m;
  std::vector<Mat3> Q;
  int size() const { return static_cast<int>(q.cols()); }
};
inline bool same_bits(const ParticlesState& a, const ParticlesState& b) {
  if (a.Q.size() != b.Q.size() || !same_bits(a.q, b.q) || !same_bits(a.p, b.p) || !same_bits(a.m, b.m)) return false;
  for (std::size_t i = 0; i < a.Q.size(); ++i)
    if (!same_bits(a.Q[i], b.Q[i])) return false;
  return true;
}

// A mechanical system on a vector space, M qdd = -grad V (+ constraint forces).
struct NewtonianState {
  Eigen::VectorXd q, v;
};
inline bool same_bits(const NewtonianState& a, const NewtonianState& b) { return same_bits(a.q, b.q) && same_bits(a.v, b.v); }

}  // namespace gib
