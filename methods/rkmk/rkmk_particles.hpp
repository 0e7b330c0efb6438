// Explicit RKMK on N rigid particles, ((R^3 x SO(3)) x| (R^3 x so(3)*))^N, left version: the corrected kernel of
// Kjer spec 3.5, i.e. kernel.hpp on the product group of particles_group.hpp (stage states y_n exp(U), one force
// evaluation per stage, dexp^{-1} truncated after `truncation` ad terms with the series sign of the y exp(sigma)
// action). One particle without forces reproduces the rigid-body RKMK bit for bit. Translational momentum changes
// only by h sum_r b_r F_r, so sum_i p_i is kept to round-off when the pair forces cancel.
#pragma once

#include <memory>

#include "core/method.hpp"
#include "methods/rkmk/tableau.hpp"

namespace gib::rkmk {

// Throws InputError on a tableau with more than kMaxStages stages. flipped_sign: the ablation that uses the
// exp(sigma) y series sign with the y exp(sigma) action (spec 3.7).
std::unique_ptr<ParticlesStepper> make_particles_stepper(const RigidParticlesModel& model, const Tableau& tableau,
                                                         int truncation, bool flipped_sign);

}  // namespace gib::rkmk
