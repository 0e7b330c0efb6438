// Krysl's IMIDM on N rigid particles (imidm's particles factory): the implicit midpoint rule in translation and
// IMIDM (Krysl spec 5.5) in rotation, coupled through the forces and torques at the midpoint configuration. As on
// the rigid body it is fE_M o bE_M with half steps h = dt/2 and the midpoint momenta as unknowns z = (p-bar, m-bar):
//   midpoint configuration   q-bar = q + h p-bar/M,   Q-bar = Q exp(h I^-1 m-bar)
//   fixed point z = G(z):    p-bar = p + h F-bar,     m-bar = exp(-h I^-1 m-bar) m + h tau-bar
//   then forward half step:  q' = q-bar + h G_p/M,    p' = G_p + h F-bar,
//                            Q' = Q-bar exp(h I^-1 G_m),   m' = exp(-h I^-1 G_m) (G_m + h tau-bar)
// with F-bar, tau-bar = forces and body torques at the midpoint configuration of all particles. In translation
// this is q' = q + dt (p + p')/(2M), p' = p + dt F((q + q')/2): the implicit midpoint rule.
//
// Properties (checked in tests/test_particle_methods.cpp): order 2, symmetric, every Q on SO(3). p' = p + dt F-bar
// keeps sum p_i to round-off; the spatial rotational momentum moves by dt Q-bar tau-bar exactly and q x p by
// dt q-bar x F-bar up to (h/M) (z_p - G_p(z)) x p, so for a translation- and rotation-invariant V the total angular
// momentum is kept to the solver tolerance, as Krysl's torque-free pi.
//
// The solve: one force evaluation per iteration, the iterate whose map was evaluated last is the root (no extra
// sweep). Parameters are the rigid-body imidm's (methods/implicit/nonlinear_solver.hpp) with these meanings here:
//   solver "fixed_point": z <- G(z);
//          "newton" (default): Newton on z - G(z) with the Jacobian of the free-rotor part (per particle, 3x3, the
//          rigid body's momentum-form Jacobian without its torque term); the force and torque derivatives, which
//          RigidParticlesModel does not provide, are left out, so the translational block is a fixed-point update
//          and convergence is linear with rate O(dt^2 |Hess V| / M);
//   start "predictor" (explicit Euler half step: one extra force evaluation) or "previous" (p, m);
//   tol, max_iter as on the rigid body (per solve; relative to max(1, |z|) over all 6N unknowns), and an iteration
//          that stalls at its round-off floor within 100 tol max(1, |z|) counts as converged (the floor grows with
//          the size of the positions; Hairer-Lubich-Wanner GNI VIII.6 stop such iterations when the increment stops
//          decreasing);
//   safeguard: the root-plausibility test and cross-check of the rigid-body solver (fallback: fixed point from the
//          predictor). The rigid body's energy-jump test is left out: it would cost two O(N^2) energy sums a step.
// A solve that does not converge (or produces non-finite values) leaves the state unchanged and returns
// StepStatus::solver_failed, counted in OpCounters::solver_failures; nothing throws.
#pragma once

#include <memory>

#include "core/method.hpp"

namespace gib::krysl {

// Reads the solver parameters (throws InputError on a bad value, naming method_id).
std::unique_ptr<ParticlesStepper> make_imidm_particles_stepper(const RigidParticlesModel& model, const Json& params,
                                                               const std::string& method_id);

}  // namespace gib::krysl
