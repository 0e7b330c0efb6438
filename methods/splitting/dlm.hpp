// Dullweber-Leimkuhler-McLachlan splitting for a rigid body with a potential V(R) (`dlm2`): half kick,
// free rotor, half kick,
//   Pi <- Pi + (h/2) T(R);   (R, Pi) <- MR2 free-rotor step over h;   Pi <- Pi + (h/2) T(R),
// the Strang splitting H = V + (kinetic part), with the kinetic flow itself split into exact axis
// rotations (McLachlan-Reich). Dullweber, Leimkuhler & McLachlan, J. Chem. Phys. 107 (1997); McLachlan-
// Quispel lectures 3 (spec 5.5). Every piece is the exact flow of a Hamiltonian on T*SO(3), so the step is
// symplectic and, as a palindrome of self-adjoint flows, symmetric and of order 2; R stays on SO(3).
// A kick changes the spatial momentum by (h/2) R T = (h/2) t_space, so any component the torque never has
// (e_z for potentials of R33 alone: tops, Krysl's Coulomb body) is kept exactly; torque-free, dlm2 is mr2.
//
// Parameters: mr2's (ordering, rotation). Cost: one torque evaluation per step (the closing kick's torque
// is reused by the next step's opening kick when R has not changed), plus mr2's five planar rotations.
// The fourth-order method `dlm4` is its triple jump (methods/composition/).
// Rigid particles: velocity Verlet in translation around the same kicks and free rotor, one force evaluation per
// step (methods/splitting/dlm_particles.hpp); dlm4 composes it the same way.
#pragma once

#include "core/method.hpp"

namespace gib::splitting {

MethodInfo dlm2();

}  // namespace gib::splitting
