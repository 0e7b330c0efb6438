// The "steps" figure check: how many steps a method needs to reach an error eps at time T (Buss's
// Figures 6 and 7), by the steps-to-accuracy search, against the paper's N or its "failed" cap.
#pragma once

#include "harness/sweep.hpp"

namespace gib {

// Fields of c: statement, source, paper_value (N or "failed"), problem (default free_rigid_body),
// preset, overrides, ic, method, params, T, eps, cap (the paper's cap; default 1e6), n_min (default 10),
// metric (default rot_geodesic_final), abs_steps / rel (tolerance on N; default exact), reason.
Json check_steps(const Json& c, const SweepOptions& opt);

}  // namespace gib
