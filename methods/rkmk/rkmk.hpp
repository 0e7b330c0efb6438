// Explicit Runge-Kutta-Munthe-Kaas methods on T*SO(3) (Kjer 2017, Algorithm 1 with the corrected
// kernel of spec 3.5). Parameters:
//   truncation: "thesis" (K = p - 1, the thesis rule), "minimal" (K = max(p - 2, 0), Munthe-Kaas),
//               or an integer K (number of ad terms kept in dexp^{-1});
//   trivialisation: "left" (body momentum, y exp(sigma), the thesis experiments; default) or
//               "right" (spatial momentum, exp(sigma) y);
//   dexpinv_sign: "consistent" (default; the series sign that matches the action side) or "flipped"
//               (an ablation: the thesis's printed sign with the y exp(sigma) action, order drops to 2).
// Bodies and rigid particles run one kernel (kernel.hpp) on their groups (rigid_body_group.hpp, particles_group.hpp);
// on particles (rkmk_particles.hpp, spec 3.5) truncation and dexpinv_sign mean the same and trivialisation must be
// "left" (InputError otherwise).
#pragma once

#include "core/method.hpp"
#include "methods/rkmk/tableau.hpp"

namespace gib::rkmk {

MethodInfo method(std::string id, std::string display_name, Tableau tableau);

}  // namespace gib::rkmk
