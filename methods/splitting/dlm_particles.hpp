// The molecular-dynamics standard on N rigid particles (dlm2's particles factory): velocity Verlet in translation,
// the DLM free-rotor splitting in rotation (Dullweber, Leimkuhler & McLachlan 1997),
//   p += h/2 F,  m += h/2 tau;     q += h p/M,  (Q_i, m_i) <- MR2 free-rotor step over h;     recompute F, tau;
//   p += h/2 F,  m += h/2 tau.
// Each piece is the exact flow of a Hamiltonian (V; p^2/2M; one axis term of the rotor kinetic energy), so the step
// is symplectic, symmetric and of order 2, and every Q stays on SO(3). Momenta: a kick adds h/2 sum F_i = 0 to
// sum p_i and h/2 sum (q_i x F_i + Q_i tau_i) = 0 to the total angular momentum when V is invariant under
// translations and rotations; the drift keeps q x p (p parallel to dq) and each rotor sub-step keeps Q_i m_i.
// The rotor is methods/splitting/'s MR2 step with mr2's parameters (ordering, rotation), one per particle.
//
// Cost: one force evaluation per step. The forces at the end of a step are kept and reused by the opening kick of
// the next step when the caller hands back the configuration (q, Q) the stepper left (bitwise check, 12N doubles;
// any other state, a negative or different step size included, is fine: forces depend on (q, Q) alone). reset()
// drops them.
#pragma once

#include <memory>

#include "core/method.hpp"

namespace gib::splitting {

std::unique_ptr<ParticlesStepper> make_dlm_particles_stepper(const RigidParticlesModel& model, const Json& params);

}  // namespace gib::splitting
