// Two rigid 3-site molecules under a harmonic site-site potential (McLachlan-Quispel lectures 3.4-3.5, the
// rigid-body molecular dynamics the DLM splitting was made for; the spec's reproducible test, spec 6.3), on the
// rigid-particles kind: per molecule q, p, Q, body angular momentum pi.
#pragma once

#include "core/problem.hpp"

namespace gib::rigid_molecules {

ProblemInfo info();

}  // namespace gib::rigid_molecules
