// Newtonian methods on rigid-body problems through the relaxed rotation (issue 7 deliverable 4): the adapter
// builds relaxed_rotation_model(body, relaxed_omega) and runs any Newtonian stepper on it, so the Zhang-Skeel
// family appears in the same convergence plots and rankings as RKMK, Krysl's and Buss's methods on the free body,
// the tops, the Coulomb body and the magnetized body.
//
// What the rigid-body harness sees:
//   * in:  q = vec(R), v = vec(R hat(I^-1 Pi));
//   * out: R = q unchanged (NOT re-orthogonalised: |R^T R - I| = O(penalty) is reported as the manifold residual)
//          and Pi = I vee(skew(R^T Rdot)) (relaxed_rotation_model.hpp says why);
//   * the error against the rigid body's reference includes the penalty model error, a floor that does not shrink
//     with h (measured in tests/test_relaxed_rotation.cpp and the report; it falls like relaxed_omega^-2).
// (R, Pi) has 12 numbers, the Newtonian state 18, so converting out and back in would lose the stretch rate
// every step. The stepper keeps its Newtonian state and reuses it when the incoming RigidBodyState is bitwise the
// one it wrote last; any other incoming state (a new run, a state changed by the caller) is converted afresh.
// That makes a run the Newtonian method's trajectory exactly, keeps Phi_{-h} o Phi_h = id for a symmetric inner
// method (within one stepper), and lets compositions (methods/composition/) chain sub-steps losslessly.
// reset() drops the kept state and resets the inner stepper.
//
// Parameter: "relaxed_omega", the penalty omega (default kDefaultRelaxedOmega, chosen from the measurements in the
// report of issue 7 and documented at its definition). Every other parameter goes to the Newtonian method.
#pragma once

#include "core/method.hpp"

namespace gib::relaxed_rotation {

// The default penalty: see relaxed_rotation_stepper.cpp for the measurements behind it.
extern const double kDefaultRelaxedOmega;
inline constexpr const char* kOmegaKey = "relaxed_omega";

// A rigid-body factory running `newtonian` on the relaxed form. params must hold "relaxed_omega" (a positive
// number; InputError otherwise); it is removed before the rest is handed to `newtonian`.
RigidBodyFactory relaxed_rotation(NewtonianFactory newtonian);

// The Newtonian method made available on rigid-body problems: rigid_body = relaxed_rotation(newtonian), and
// "relaxed_omega" added to default_params. On Newtonian problems relaxed_omega is ignored (stripped before the
// method's own factory sees it). Claims, id and names are the Newtonian method's; note that on rigid-body problems
// its order and invariant claims hold for the relaxed (penalised) system, whose solution differs from the rigid
// body's by the penalty model error. Throws std::invalid_argument if the method has no newtonian factory.
MethodInfo with_relaxed_rotation(MethodInfo newtonian_method);

}  // namespace gib::relaxed_rotation
