// Classical Runge-Kutta through Boost.Odeint on the embedded rigid-particle ODE, the non-geometric baseline
// (Kjer spec 3.8): per particle 18 numbers, q, the nine entries of Q (row-major), p, m, with
//   q' = p/M,   Q' = Q hat(I^-1 m),   p' = F,   m' = m x I^-1 m + tau,
// F and tau evaluated by the model at the embedded (not re-orthogonalised) Q. Nothing keeps Q on SO(3), which is
// what the baseline shows. The p-equation is linear in the forces, so sum_i p_i is kept to round-off when the
// pair forces cancel; nothing else is.
// Same steppers and conventions as the rigid-body ones in odeint_embedded.hpp (fixed step; Dormand-Prince and Fehlberg
// propagate their higher-order solution; the embedded state and odeint's FSAL derivative are kept while the caller
// hands back the state the stepper wrote). One rhs and one force evaluation per odeint stage.
#pragma once

#include <memory>

#include "core/method.hpp"
#include "methods/classical/odeint_embedded.hpp"

namespace gib::classical {

std::unique_ptr<ParticlesStepper> make_odeint_particles_stepper(Scheme scheme, const RigidParticlesModel& model);

}  // namespace gib::classical
