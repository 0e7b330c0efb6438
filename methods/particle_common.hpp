// Pieces shared by the methods on N rigid particles (ModelKind::rigid_particles, Kjer spec 2.3): the group is the
// direct product of one T*SO(3) factor per particle (methods reuse core/tso3.hpp column by column) and the abelian
// translation block R^3 x R^3, whose exponential is the identity and whose action is addition.
//
// Steppers keep every per-step buffer here, sized on the first step (and again only if N changes), so a step
// allocates nothing; forces are evaluated into buffers the model resizes at most once.
#pragma once

#include <Eigen/Core>
#include <cstddef>
#include <vector>

#include "core/counters.hpp"
#include "core/model.hpp"
#include "core/state.hpp"

namespace gib::particles {

// Column i of a 3xN block, as the std::size_t index of the orientation vector.
inline std::size_t at(int i) { return static_cast<std::size_t>(i); }

// Per-particle constants read once from the model (virtual calls stay out of the stage loops).
struct ParticleConstants {
  Eigen::VectorXd inv_mass;        // 1 / M_i
  Eigen::Matrix3Xd inv_inertia;    // column i: 1 / (principal moments of particle i)
  explicit ParticleConstants(const RigidParticlesModel& model);
  int size() const { return static_cast<int>(inv_mass.size()); }
};

// Forces (space frame) and body torques of one configuration.
struct ForceBuffer {
  Eigen::Matrix3Xd F, tau;
  // One model call, counted as one force evaluation.
  void evaluate(const RigidParticlesModel& model, const ParticlesState& x, OpCounters& c) {
    ++c.force_evals;
    model.forces_and_torques(x, F, tau);
  }
};

// Gives y the shape of a state with n particles (allocates only when the size changes).
void shape(ParticlesState& y, int n);
void shape(Eigen::Matrix3Xd& a, int n);

// The configuration (q, Q) is what forces depend on: bitwise comparison (NaN-safe) and copy, for force caches
// that must notice when the caller hands in a state the stepper did not leave.
bool same_configuration(const ParticlesState& a, const ParticlesState& b);
void copy_configuration(const ParticlesState& from, ParticlesState& to);

}  // namespace gib::particles
