// DLM splitting `dlm2` (see the header for the method, its sources and claims).
#include "methods/splitting/dlm.hpp"

#include <memory>

#include "methods/splitting/dlm_particles.hpp"
#include "methods/splitting/mclachlan_reich.hpp"

namespace gib::splitting {
namespace {

class DlmStepper final : public RigidBodyStepper {
 public:
  DlmStepper(const RigidBodyModel& model, const Json& params)
      : model_(model), rotor_(free_rotor_stepper(model, params)) {}

  StepStatus step(RigidBodyState& x, double h, OpCounters& c) override {
    kick(x, 0.5 * h, c);
    rotor_->step(x, h, c);
    kick(x, 0.5 * h, c);
    return StepStatus::ok;
  }

  void reset() override { have_torque_ = false; }

 private:
  // The exact flow of V over tau: R fixed, so the body torque is constant along it.
  void kick(RigidBodyState& x, double tau, OpCounters& c) {
    if (model_.torque_free()) return;
    if (!have_torque_ || x.R != torque_at_) {
      torque_ = model_.body_torque(x.R);
      torque_at_ = x.R;
      have_torque_ = true;
      ++c.force_evals;
    }
    x.Pi += tau * torque_;
  }

  const RigidBodyModel& model_;  // owned by the problem; outlives the stepper
  std::unique_ptr<RigidBodyStepper> rotor_;
  bool have_torque_ = false;
  Mat3 torque_at_ = Mat3::Zero();
  Vec3 torque_ = Vec3::Zero();
};

}  // namespace

MethodInfo dlm2() {
  MethodInfo m = mr2();
  m.id = "dlm2";
  m.display_name = "DLM 2 (kick, McLachlan-Reich rotor, kick)";
  m.citation = "Dullweber, Leimkuhler & McLachlan 1997; McLachlan-Quispel lectures 3 (spec 5.5); rotor: " + m.citation;
  // Torque-free it is mr2; with a potential the energy error stays bounded (symplectic) and e_z . R Pi is
  // exact wherever the spatial torque has no e_z component (the problem declares that invariant).
  m.claims.invariants = {{Invariant::casimir, Preservation::exact, Applies::torque_free},
                         {Invariant::spatial_momentum, Preservation::exact, Applies::torque_free},
                         {Invariant::vertical_momentum, Preservation::exact, Applies::always},
                         {Invariant::energy, Preservation::bounded, Applies::always},
                         // Rigid particles (methods/splitting/dlm_particles.hpp): kicks of pair forces and torques of
                         // a translation- and rotation-invariant V, a drift along p and exact rotor sub-steps.
                         {Invariant::linear_momentum, Preservation::exact, Applies::always},
                         {Invariant::angular_momentum, Preservation::exact, Applies::always}};
  m.torque_free_only = false;
  m.rigid_body = [](const RigidBodyModel& model, const Json& params) -> std::unique_ptr<RigidBodyStepper> {
    return std::make_unique<DlmStepper>(model, params);
  };
  // Velocity Verlet in translation around the same kicks and rotor, one per particle.
  m.particles = [](const RigidParticlesModel& model, const Json& params) -> std::unique_ptr<ParticlesStepper> {
    return make_dlm_particles_stepper(model, params);
  };
  return m;
}

}  // namespace gib::splitting
