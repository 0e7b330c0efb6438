#include "methods/particle_common.hpp"

#include <cstring>

namespace gib::particles {

ParticleConstants::ParticleConstants(const RigidParticlesModel& model)
    : inv_mass(model.size()), inv_inertia(3, model.size()) {
  for (int i = 0; i < model.size(); ++i) {
    inv_mass(i) = 1.0 / model.mass(i);
    // cwiseInverse, as RigidBodyModel does, so that one particle without forces reproduces the rigid-body
    // steppers bit for bit.
    inv_inertia.col(i) = model.inertia(i).cwiseInverse();
  }
}

void shape(Eigen::Matrix3Xd& a, int n) {
  if (a.cols() != n) a.resize(3, n);
}

void shape(ParticlesState& y, int n) {
  shape(y.q, n);
  shape(y.p, n);
  shape(y.m, n);
  if (static_cast<int>(y.Q.size()) != n) y.Q.assign(at(n), Mat3::Identity());
}

bool same_configuration(const ParticlesState& a, const ParticlesState& b) {
  const int n = a.size();
  if (b.size() != n || a.Q.size() != b.Q.size()) return false;
  // Mat3 is a plain array of nine doubles, so the vector of them is one contiguous block.
  return std::memcmp(a.q.data(), b.q.data(), sizeof(double) * 3 * at(n)) == 0 &&
         std::memcmp(a.Q.data(), b.Q.data(), sizeof(Mat3) * a.Q.size()) == 0;
}

void copy_configuration(const ParticlesState& from, ParticlesState& to) {
  to.q = from.q;  // same size after the first call: no allocation
  to.Q = from.Q;
}

}  // namespace gib::particles
