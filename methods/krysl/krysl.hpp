// Krysl (2006), "Dynamically equivalent implicit algorithms for the integration of rigid body rotations"
// (spec ../shared/spec/krysl-2006-imid-trap.md): the four proposed methods, the three published references,
// BBTRAPWD and the generic implicit Munthe-Kaas RK. All are implicit, second order (MKRK: the tableau's order),
// stay on SO(3), work with or without torque, and take the solver parameters of methods/implicit/ (solver, start,
// tol, max_iter, safeguard). Torques are sampled exactly where the spec puts them. Claims follow the property
// matrix of spec 5.10, each checked in tests/test_krysl_methods.cpp on the heavy top and the Coulomb body.
#pragma once

#include "core/method.hpp"

namespace gib::krysl {

MethodInfo imid();      // bE then fE, rate form (5.2)
MethodInfo trap();      // fE then bE, rate form (5.1)
MethodInfo imidm();     // bE_M then fE_M, momentum form (5.5); also on rigid particles (methods/krysl/imidm_particles.hpp)
MethodInfo trapm();     // fE_M then bE_M, momentum form (5.4)
MethodInfo akw();       // Austin-Krishnaprasad-Wang midpoint with Cayley (5.6)
MethodInfo swc1();      // Simo-Wong ALGO_C1 with the midpoint-configuration torque (5.7)
MethodInfo bbtrap();    // Bottasso-Borri trapezoid, dexp^{-1} truncated to 1 (5.8)
MethodInfo bbtrapwd();  // Bottasso-Borri trapezoid with the full dexp^{-1}: a 6-unknown solve, not symmetric (5.8)
// Implicit MKRK (5.9), parameter tableau: "midpoint" (default; = IMIDM), "backward_euler" (order 1), "trapezoid"
// (= BBTRAPWD), "gauss4" (2-stage Gauss, order 4; not symmetric: MKRK centres its coordinates at the step start).
// The claims are those of the default tableau.
MethodInfo mkrk_implicit();

}  // namespace gib::krysl
