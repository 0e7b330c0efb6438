// The stepping loop every gibench Odeint embedding runs between two observations, shared so that all of them
// step the same way: Odeint's own integrate_n_steps, as a plain Odeint program would.
#pragma once

#include <boost/numeric/odeint/integrate/integrate_n_steps.hpp>
#include <boost/numeric/odeint/stepper/stepper_categories.hpp>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <type_traits>

namespace gib::classical {

// Only an FSAL stepper (Dormand-Prince 5) carries something from one step to the next, its last derivative.
template <class OdeStepper>
inline constexpr bool odeint_fsal_v =
    std::is_same_v<typename OdeStepper::stepper_category, boost::numeric::odeint::explicit_error_stepper_fsal_tag>;

// n fixed steps of size h from time t; returns the time reached. integrate_n_steps takes its stepper by value,
// which suits the others: their stage temporaries are scratch, and a copy the compiler can keep in registers is
// what made gibench's RK4 step as cheap as plain Odeint's (methods/classical/odeint_embedded.cpp). An FSAL
// stepper goes by reference so that its derivative survives the call.
template <class OdeStepper, class System, class State>
double odeint_n_steps(OdeStepper& stepper, const System& system, State& y, double t, double h, std::int64_t n) {
  namespace odeint = boost::numeric::odeint;
  const auto steps = static_cast<std::size_t>(n);
  if constexpr (odeint_fsal_v<OdeStepper>)
    return odeint::integrate_n_steps(std::ref(stepper), system, y, t, h, steps);
  else
    return odeint::integrate_n_steps(stepper, system, y, t, h, steps);
}

// Forget what a stepper carries between steps (FSAL steppers drop their derivative).
template <class OdeStepper> void reset_odeint(OdeStepper& s) {
  if constexpr (requires { s.reset(); }) s.reset();
}

}  // namespace gib::classical
