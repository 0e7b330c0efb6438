// Classical Runge-Kutta through Boost.Odeint on the embedded rigid-body ODE: the "what people use
// instead" baseline. The rotation is carried either as nine matrix entries or as a quaternion, next to
// Pi; nothing is renormalised or re-orthogonalised, so the drift off SO(3) is part of what we measure.
//   matrix:      Rdot = R hat(omega),            Pidot = Pi x omega + T(R)
//   quaternion:  qdot = q (x) (0, omega) / 2,    Pidot = Pi x omega + T(R(q)),  R(q) homogeneous (so3.hpp)
// Steppers: explicit Euler, classical RK4, Dormand-Prince 5(4) and Runge-Kutta-Fehlberg 7(8), all used
// with a fixed step (the higher-order solution is propagated; no error control).
// The embedded state is kept inside the stepper between steps (the quaternion is extracted from R only
// when the caller hands a state the stepper did not write: first step, after reset(), after an edit), so
// no hidden renormalisation happens. RHS evaluations per step: 1, 4, 6 (7 on the first Dormand-Prince
// step, which computes its FSAL derivative), 13; force_evals counts the same when the model has a potential.
// Rigid particles: the matrix-embedding methods also integrate (q, Q as nine entries, p, m) per particle
// (methods/classical/odeint_particles.hpp); the quaternion ones are rigid-body only.
#pragma once

#include <string>

#include "core/method.hpp"
#include "methods/rkmk/tableau.hpp"

namespace gib::classical {

enum class Scheme { euler, rk4, dopri5, rkf78 };
enum class Embedding { matrix, quaternion };

MethodInfo odeint_method(std::string id, Scheme scheme, Embedding embedding);

// Any explicit tableau (method files, family classical_rk, embeddings "rotation_matrix" and "quaternion") on the same
// embedded ODE, in the same loop, with a Runge-Kutta step written on the tableau's data. Rigid bodies only.
MethodInfo embedded_tableau_method(std::string id, std::string display_name, std::string citation,
                                   const rkmk::Tableau& tableau, Embedding embedding);

}  // namespace gib::classical
