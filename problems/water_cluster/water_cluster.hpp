// A cluster of rigid TIP3P waters (Tao-Owhadi spec 4.3, Figs 4-7) as a Newtonian problem: the intermolecular
// potential of problems/water_cluster/tip3p_model.hpp plus the rigid-water constraints (eq. 25: |H1 - O| = |H2 - O| =
// r_OH, |H1 - H2| = r_HH), as the penalised model 1/2 omega^2 sum g^2 (eq. 26) that every Newtonian method runs on and
// Integrator 5 splits (its stiff part: one 9x9 block per molecule), and as constraints for SHAKE/RATTLE, whose errors
// are measured against the constrained reference (problems/common/newtonian_reference.hpp).
//
// Initial conditions [spec ASSUMPTION, none are printed]: the N sites of a cubic lattice of spacing `spacing` (3.0 A)
// nearest its centre, ties broken lexicographically (N = 7: the octahedron and its centre), one oxygen on each; each
// molecule at the TIP3P geometry in a Haar-random orientation; Maxwell-Boltzmann velocities at inverse temperature
// beta (50 mol/kcal, about 10 K), the centre-of-mass drift removed, then projected per molecule onto the constraints'
// tangent space in the mass metric (which keeps the total momentum: each bond's force pair sums to zero). Drawn from
// a stream fixed by the initial condition: "preset" and "random:K" are different draws of the same recipe.
// Invariants beyond energy: total linear and angular momentum (a free cluster conserves both).
#pragma once

#include "core/problem.hpp"

namespace gib::water_cluster {

ProblemInfo info();

}  // namespace gib::water_cluster
