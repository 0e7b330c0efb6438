// Velocity Verlet with the DLM free rotor on rigid particles (see the header).
#include "methods/splitting/dlm_particles.hpp"

#include <cstdint>
#include <vector>

#include "methods/particle_common.hpp"
#include "methods/splitting/mclachlan_reich.hpp"

namespace gib::splitting {
namespace {

using particles::at;
using particles::ForceBuffer;
using particles::ParticleConstants;
using particles::copy_configuration;
using particles::same_configuration;

class DlmParticlesStepper final : public ParticlesStepper {
 public:
  DlmParticlesStepper(const RigidParticlesModel& model, const Json& params) : model_(model), constants_(model) {
    // The rotor steppers keep a reference to their model: reserve first so that the models never move.
    rotor_models_.reserve(static_cast<std::size_t>(model.size()));
    rotors_.reserve(static_cast<std::size_t>(model.size()));
    for (int i = 0; i < model.size(); ++i) {
      rotor_models_.emplace_back(model.inertia(i));
      rotors_.push_back(free_rotor_stepper(rotor_models_.back(), params));
    }
  }

  StepStatus step(ParticlesState& x, double h, OpCounters& c) override { return advance(x, h, 1, c).status; }

  // The forces of one step's end are the next one's start: within the loop they belong to x by construction, so
  // the configuration they were evaluated at is compared on entry and recorded on return only.
  Advanced advance(ParticlesState& x, double h, std::int64_t n, OpCounters& c) override {
    if (n <= 0) return {StepStatus::ok, 0};
    if (!have_forces_ || !same_configuration(x, forces_at_)) forces_.evaluate(model_, x, c);
    for (std::int64_t i = 0; i < n; ++i) {
      kick(x, 0.5 * h);
      drift_and_rotate(x, h, c);
      forces_.evaluate(model_, x, c);
      kick(x, 0.5 * h);
    }
    copy_configuration(x, forces_at_);
    have_forces_ = true;
    return {StepStatus::ok, n};
  }

  void reset() override { have_forces_ = false; }

 private:

  // The exact flow of V over tau: (q, Q) fixed, so F and tau are constant along it.
  void kick(ParticlesState& x, double tau) const {
    x.p += tau * forces_.F;
    x.m += tau * forces_.tau;
  }

  // The exact flow of the translational kinetic energy, then each particle's MR2 rotor step (the rigid-body one,
  // through one virtual call per particle: negligible next to its five sine-cosine pairs).
  void drift_and_rotate(ParticlesState& x, double h, OpCounters& c) {
    for (int i = 0; i < x.size(); ++i) {
      x.q.col(i) += (h * constants_.inv_mass(i)) * x.p.col(i);
      body_.R = x.Q[at(i)];
      body_.Pi = x.m.col(i);
      rotors_[at(i)]->step(body_, h, c);
      x.Q[at(i)] = body_.R;
      x.m.col(i) = body_.Pi;
    }
  }

  const RigidParticlesModel& model_;  // owned by the problem; outlives the stepper
  ParticleConstants constants_;
  std::vector<RigidBodyModel> rotor_models_;
  std::vector<std::unique_ptr<RigidBodyStepper>> rotors_;
  RigidBodyState body_;
  ForceBuffer forces_;
  ParticlesState forces_at_;  // the configuration forces_ belongs to
  bool have_forces_ = false;
};

}  // namespace

std::unique_ptr<ParticlesStepper> make_dlm_particles_stepper(const RigidParticlesModel& model, const Json& params) {
  return std::make_unique<DlmParticlesStepper>(model, params);
}

}  // namespace gib::splitting
