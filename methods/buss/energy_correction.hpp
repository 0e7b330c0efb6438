// Buss's energy correction ("energy preservation", paper sec. 4, spec 5.12) as a wrapper: any free-body
// method becomes its "+EC" variant, which runs the base step and then rotates the body so that its kinetic
// energy is the initial energy of the run, leaving the world momentum R Pi untouched.
#pragma once

#include <string>

#include "core/method.hpp"

namespace gib::buss {

enum class CorrectionOutcome {
  applied,
  singular,         // the 3x3 system is singular (no wobble: rotation about a principal axis, all alpha = 0)
  negative_square,  // the solution has some s_k = rho'_k^2 < 0 (very large steps)
  invalid,          // zero momentum or energy, or a non-finite state
};

// One correction of x toward kinetic energy E0 (body inertia J = diag(inertia)). On anything but
// `applied` the state is left as it was.
CorrectionOutcome correct_energy(RigidBodyState& x, const Vec3& inertia, double E0);

// The wrapped method: id base.id + "_ec", display name base + " + EC", torque-free only. Claims: the base
// claims with `order` (why_order says where the number comes from; it is appended to the citation),
// exact energy (torque-free), exact Casimir and spatial momentum (torque-free) when the base stays on
// SO(3); not symplectic, not symmetric. A step whose correction fails is left uncorrected and counted in
// counters.solver_failures.
MethodInfo energy_corrected(MethodInfo base, int order, std::string why_order);

}  // namespace gib::buss
