// McLachlan-Reich explicit symplectic splitting of the free rigid body (`mr2`): H = sum_x Pi_x^2/(2 I_x)
// split into its three axis terms, each flow an exact rotation about one body axis with Pi_x fixed,
// composed symmetrically (Strang). Buss 2001 section 5.8 (spec 5.8); McLachlan-Quispel lectures
// section 3.5 (spec 5.3-5.4). Higher orders (`mr4`, `mr6`) are symmetric compositions of it
// (methods/composition/symmetric_composition.hpp).
//
// Parameters:
//   ordering: "123", "132", "213", "231", "312" or "321". "abc" is the step
//             UPDATE[a, h/2] UPDATE[b, h/2] UPDATE[c, h] UPDATE[b, h/2] UPDATE[a, h/2], applied left to right,
//             with the preset's axis labels 1, 2, 3. Default "231", Buss's best ordering (his Figures 4-7);
//             the ordering changes the error constant a lot (on buss2001, 1-2-3 needs 514 steps where
//             2-3-1 needs 39 for the same accuracy, spec 8.2), never the order.
//   rotation: "exact" (default; sin and cos of the sub-step angle) or "cayley" (Buss's Cayley option:
//             the rotation by 2 atan(theta/2) instead of theta, still orthogonal, symplectic, symmetric
//             and of order 2, without trigonometric functions).
//
// Torque-free bodies only (MethodInfo::torque_free_only); methods/splitting/dlm.hpp wraps it in torque
// kicks for bodies with a potential.
#pragma once

#include <array>
#include <memory>

#include "core/method.hpp"

namespace gib::splitting {

// The outer, middle and inner axis of the palindrome, 0-based (the parameter spells them 1-based).
struct AxisOrdering {
  std::array<int, 3> axis{1, 2, 0};
};
// Reads the "ordering" parameter; throws InputError unless it is one of the six permutations of "123"
// (a string, or the integer the command line makes of `--param ordering=123`).
AxisOrdering parse_ordering(const Json& value);

enum class RotationKind { exact, cayley };
// Reads the "rotation" parameter; throws InputError unless it is "exact" or "cayley".
RotationKind parse_rotation(const Json& value);

MethodInfo mr2();

// The MR2 step of the kinetic part alone, with mr2's parameters: the potential of `model`, if any, is
// ignored (the DLM splitting adds it as kicks).
std::unique_ptr<RigidBodyStepper> free_rotor_stepper(const RigidBodyModel& model, const Json& params);

}  // namespace gib::splitting
