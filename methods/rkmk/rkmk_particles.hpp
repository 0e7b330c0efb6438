// Explicit RKMK on N rigid particles, ((R^3 x SO(3)) x| (R^3 x so(3)*))^N, left version: the corrected kernel of
// Kjer spec 3.5. Per particle and stage, with U = h sum_j a_rj K_j:
//   stage state y_n exp(U):  q + U_q,  Q exp(U_Q),  p + U_p,  exp(U_Q)^T m + J_r(U_Q) U_m
//   f at the stage state of all particles (one force evaluation): (p/M, I^-1 m, F, tau)
//   K_r = dexp^{-1}_U f truncated after `truncation` ad terms, with the series sign of the y exp(sigma) action
//         (+1/2, +1/12, ...); the translation block is abelian, so its components pass through unchanged.
// The rotation block of each particle is exactly the rigid-body RKMK's (core/tso3.hpp act and dexp_inv_series),
// so one particle without forces reproduces the rigid-body RKMK bit for bit. Translational momentum changes only by
// h sum_r b_r F_r, so sum_i p_i is kept to round-off when the pair forces cancel.
#pragma once

#include <memory>

#include "core/method.hpp"
#include "methods/rkmk/tableau.hpp"

namespace gib::rkmk {

// Largest number of stages the particle RKMK stepper takes (the stage buffers are fixed per stepper).
inline constexpr int kMaxRkmkStages = 8;

// flipped_sign: the ablation that uses the exp(sigma) y series sign with the y exp(sigma) action (spec 3.7).
std::unique_ptr<ParticlesStepper> make_particles_stepper(const RigidParticlesModel& model, const Tableau& tableau,
                                                         int truncation, bool flipped_sign);

}  // namespace gib::rkmk
