// Classical explicit Runge-Kutta through Boost.Odeint on a general vector field x' = f(x) (McLachlan-Quispel
// spec 12: Euler, RK2 as the explicit midpoint rule, RK4): the baselines the lectures compare geometric methods
// with. Fixed step; one right-hand-side evaluation per stage (1, 2, 4).
#pragma once

#include <memory>

#include "core/method.hpp"

namespace gib::classical {

enum class VectorFieldScheme { euler, rk2_midpoint, rk4 };

MethodInfo odeint_vector_field_method(std::string id, VectorFieldScheme scheme);

// The scheme's stepper itself (the two-step midpoint rule starts with one step of it).
std::unique_ptr<VectorFieldStepper> odeint_vector_field_stepper(VectorFieldScheme scheme, const VectorFieldModel& model);

}  // namespace gib::classical
