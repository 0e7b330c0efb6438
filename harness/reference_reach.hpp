// How far a numerical reference may be asked to integrate. Its adaptive integrations (problems/common/
// numerical_reference.hpp, newtonian_reference.hpp, particles_reference.hpp) take steps in proportion to
// t / time scale: 5 to 15 steps per time scale on the Newtonian presets, where the steps are counted. A request
// far beyond what a study needs (reference --times 1e9, a run with a huge T) would integrate for days or exhaust
// the reference's memory, so it is refused before anything runs, with the limit in the message. Closed-form
// (exact) references are not limited.
#pragma once

#include <string>

#include "core/problem.hpp"

namespace gib {

// Time scales a numerical reference integrates at most: about 1e7 steps, minutes of work (README, Bad input).
// The largest in the repository's figures and baselines is 2.6e4 (Krysl's Coulomb body to t = 20000).
constexpr double kMaxReferenceTimeScales = 1e6;

// Throws InputError("<what>: ...") when p's reference is numerical and t lies beyond kMaxReferenceTimeScales of
// p's time scales.
void check_reference_reach(const Problem& p, double t, const std::string& what);

}  // namespace gib
