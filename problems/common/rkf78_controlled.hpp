// Boost.Odeint's Runge-Kutta-Fehlberg 7(8) stepper under a plain step-size controller, shared by the
// long double references for bodies and particles. Written out because odeint's controlled_runge_kutta
// copies uninitialised stepper buffers (-Wuninitialized).
//
// Each call starts a fresh control with the first trial step `first_step`, so the result depends only on
// (x, from, to): the references restart at checkpoints and stay functions of t alone. A step is accepted
// when the embedded error estimate, scaled by tolerance (1 + |x_i|), is <= 1; the next step is
// 0.9 err^(-1/8) times this one, within [0.2, 5].
#pragma once

#include <algorithm>
#include <boost/numeric/odeint/stepper/runge_kutta_fehlberg78.hpp>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

namespace gib {

template <class State, class LD, class System>
void rkf78_controlled(const System& system, State& x, LD from, LD to, LD first_step, LD tolerance, const char* who) {
  if (!(to > from)) return;
  boost::numeric::odeint::runge_kutta_fehlberg78<State, LD, State, LD> stepper;
  State out = x, err = x;
  LD t = from, dt = std::min(to - from, first_step);
  while (t < to) {
    const bool last = t + dt >= to;
    const LD h = last ? to - t : dt;
    stepper.do_step(system, x, t, out, h, err);
    LD e = 0;
    for (std::size_t i = 0; i < x.size(); ++i) e = std::max(e, std::abs(err[i]) / (tolerance * (1 + std::abs(out[i]))));
    if (!std::isfinite(e) || (!last && h < std::numeric_limits<LD>::epsilon() * std::max(LD(1), std::abs(t))))
      throw std::runtime_error(std::string(who) + ": step-size control failed at t = " + std::to_string(double(t)));
    if (e <= 1) {
      x = out;
      t = last ? to : t + h;
    }
    dt = h * std::clamp(LD(0.9) * std::pow(std::max(e, LD(1e-30)), LD(-1) / 8), LD(0.2), LD(5));
  }
}

}  // namespace gib
