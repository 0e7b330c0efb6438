// Implicit (backward) Euler on a general vector field, x+ = x + h f(x+) (McLachlan-Quispel spec 12; the adjoint of
// explicit Euler, spec 2.3): Newton with the field's analytic Jacobian from the explicit Euler predictor; a step whose
// Newton iteration does not converge is StepStatus::solver_failed. Order 1, not symmetric. Its exact tangent map is
// (I - h f'(x+))^-1 (TangentMap). Cost: one f and one Jacobian per Newton iteration, plus the predictor's f.
#pragma once

#include "core/method.hpp"

namespace gib::classical {

MethodInfo implicit_euler();

}  // namespace gib::classical
