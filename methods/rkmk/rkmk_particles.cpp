// RKMK on N rigid particles: the kernel on the particle product group (see the header).
#include "methods/rkmk/rkmk_particles.hpp"

#include "methods/particle_common.hpp"
#include "methods/rkmk/kernel.hpp"
#include "methods/rkmk/particles_group.hpp"

namespace gib::rkmk {
namespace {

using Group = RigidParticlesGroup<ParticlesState, const RigidParticlesModel>;

class RkmkParticlesStepper final : public ParticlesStepper {
 public:
  RkmkParticlesStepper(const RigidParticlesModel& model, const particles::ParticleConstants& constants,
                       const Tableau& t, int truncation, bool flipped_sign)
      // The consistent series for y exp(sigma) is the right_multiply one; the ablation takes the other side's.
      : kernel_(Group(model, constants.inv_mass, constants.inv_inertia, truncation,
                      flipped_sign ? so3::ActionSide::left_multiply : so3::ActionSide::right_multiply),
                t) {}

  StepStatus step(ParticlesState& x, double h, OpCounters& c) override {
    kernel_.step(x, h, c);
    return StepStatus::ok;
  }

 private:
  Kernel<Group> kernel_;
};

}  // namespace

std::unique_ptr<ParticlesStepper> make_particles_stepper(const RigidParticlesModel& model, const Tableau& tableau,
                                                         int truncation, bool flipped_sign) {
  return std::make_unique<RkmkParticlesStepper>(model, particles::ParticleConstants(model), tableau, truncation,
                                                flipped_sign);
}

}  // namespace gib::rkmk
