// Problem: N dipolar soft spheres (Kjer 2017 section 3.2; spec 5, 6, 7 items 9, 15-19, 22, 27).
//   kjer2017_n100, kjer2017_n10   the thesis's 3D runs: M = 1, sigma = eps = 1, I = (1, 1.88, 2.88),
//                                 mu_bar = (0, 1, 1) (|mu| = sqrt 2), p = m = 0, q uniform in [-N, N]^3,
//                                 Haar Q; free space, all pairs
//   kjer2017_2d_n2, _2d_n10       the planar runs of Figs 3.11-3.14: q in the plane, mu_bar = (1, 1, 0),
//                                 Q_i = R_z(theta_i)
//   lammps_compatible             a peer-comparison setup LAMMPS represents exactly (atom_style hybrid
//                                 sphere dipole, lj/cut/dipole/cut): isotropic inertia, Lennard-Jones
//                                 short range, small random p and m
// Parameters pair_separation and pair_angles replace the draw by one planar pair at rest with chosen dipole
// directions (N = 2, dimension 2): Kjer's Fig 3.12 rule ("orientations differing by more than 90 degrees
// repel") is a statement about orientations, which one seeded pair cannot test.
// The model and its kernels: dipolar_model.hpp, pair_kernel.hpp, cutoff_kernel.hpp.
//
// Time scale: 1/omega of the fastest small oscillation of a head-to-tail dipole pair at its bond distance
// r* (radial, reduced mass M/2, or the libration of one dipole in its partner's field 2|mu|/r*^3 about the
// smallest moment): 0.0998 for the Kjer presets (spec 5.4: V'' = 50, omega = 10, period 0.63). The same
// meaning as 1/|omega| for a rigid body, so battery steps (0.2 time scales) resolve a bond.
#pragma once

#include "core/problem.hpp"

namespace gib::dipolar_spheres {

ProblemInfo info();

}  // namespace gib::dipolar_spheres
