// "Runge-Kutta" as Buss (2001) ran it (spec 5.10): classical RK4 weights applied to the angular velocities
// of four stage rotations, averaged as rotation vectors. Order 2 on SO(3) (no dexp^-1 correction).
#pragma once

#include "core/method.hpp"

namespace gib::buss {

// Id buss_rk_rotvec. Parameter "average": "rotation_vector" (default; reproduces the paper's tables) or
// "quaternion" (normalised (1,2,2,1)/6 mean of the four stage-update quaternions, the paper's wording;
// it differs from the tables at large steps, spec 5.10).
MethodInfo rotation_vector_rk();

// One step with the rotation-vector average, given nu = J^-1 Pi of x already evaluated (the AB-AM start
// reuses it). Counts 3 angular-velocity evaluations and 4 rotations.
void rk_rotvec_step(RigidBodyState& x, const Vec3& inv_inertia, const Vec3& nu, double h, OpCounters& c);

}  // namespace gib::buss
