// Odeint's error-controlled Dormand-Prince 5(4) on a general vector field (`odeint_dopri5_adaptive`): the stand-in
// for MATLAB's ode45 in the lectures' Fig 5.3 (spec 7.4 [INFERENCE]: RelTol 1e-3, AbsTol 1e-6, params rtol, atol).
// Each outer step h (the run's observation interval) is covered by as many controlled steps as the tolerances ask
// for, the last one clipped to land on the interval's end; the step size the controller proposes carries over to
// the next interval, as a continuous ode45 run's would.
#pragma once

#include "core/method.hpp"

namespace gib::classical {

MethodInfo odeint_dopri5_adaptive();

}  // namespace gib::classical
