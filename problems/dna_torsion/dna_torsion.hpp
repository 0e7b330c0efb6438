// Problem: the Mezic DNA torsion chain (Tao-Owhadi spec 4.4, Fig 8), model in dna_model.hpp: N angles, M = I,
// a = 7, x0 = 0.3, eps = 1/1400, periodic bonds [ASSUMPTION, spec A14; "boundary": "free" for free ends].
//   taoowhadi2014  N = 200, theta_k(0) = 0.8 + 0.1 xi_k (xi i.i.d. N(0, 1) from the seeded stream of
//                  core/random.hpp, seed 1 [the paper's is unknown]), theta_k'(0) = cos(4 pi k / N) / sqrt N,
//                  k = 1..N. Not in the per-commit battery (the same claims hold on n20 at a tenth of the cost)
//   n20            the same with N = 20
// "random:K" redraws xi from a seed derived from (seed, K); the velocities keep their formula.
// Observables: mean_angle = sum theta_k / N (the slow reaction coordinate of Fig 8, metastable near 0.795 and
// 5.49) and mean_angle_rate. No constraints. Reference: numerical (problems/common/newtonian_reference.hpp).
// Time scale: 1/omega_max with omega_max^2 = 4 + eps max(U''(theta_k(0)), 0) >= the largest eigenvalue of Hess V
// (the Laplacian's is 4 at most; Gershgorin), ~0.5: Velocity Verlet is stable below h ~ 1 (spec 8.3).
#pragma once

#include "core/problem.hpp"

namespace gib::dna_torsion {

ProblemInfo info();

}  // namespace gib::dna_torsion
