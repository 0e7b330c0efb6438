// The Newtonian integrators of Tao & Owhadi 2014 (spec 2.2-2.9, issue 7), family "zhang_skeel": one function per
// method, used by methods/registry.cpp and by the relaxed-rotation wrappers (which call the same newtonian
// factories). Every factory takes only "beta" (the Newmark parameter, default 0.4) and, for newmark_1iter, "guess".
//
//   id                   scheme                                                    order  symm.  sympl.  solve
//   zs                   Zhang-Skeel, eq. (3), with the V''' correction (spec 2.4)   2     yes    yes     linear
//   zss                  Z&Ss, eq. (18), without V''' (spec 2.5)                     2     yes    no      linear
//   zs_stiff             Integrator 5, eq. (19), Hess of the stiff part only (2.6)   2     yes    no      linear
//   newmark              Newmark gamma = 1/2, eq. (12), full Newton (2.2)            2     yes    conj.   Newton
//   newmark_1iter        Newmark with one Newton iteration per step (2.2, A5)        2     no     no      linear
//   newmark_pushforward  push-forward Newmark, eq. (14), full Newton (2.3)           2     yes    yes     Newton
//   velocity_verlet      velocity Verlet (2.9)                                       2     yes    yes     none
//   implicit_midpoint    implicit midpoint rule (2.9 table)                          2     yes    yes     Newton
//   rattle               SHAKE/RATTLE on the constrained, unpenalised system (2.9)  2     yes    yes     Newton (m)
//   zs4                  triple jump of zs (2.8)                                     4     yes    yes     linear
//   zs_euler             symplectic-Euler form of the variational Z&S (2.11)         1     no     yes     linear
//
// States: (x, v) with p = M v for every method; for zs, zss, zs_stiff and newmark_pushforward q holds the
// push-forward variable x of spec 2.3 (the paper feeds x_0 = q_0, spec A7). Newmark's state is (q, qdot).
#pragma once

#include "core/method.hpp"

namespace gib::zhang_skeel {

MethodInfo zs();
MethodInfo zss();
MethodInfo zs_stiff();
MethodInfo newmark();
MethodInfo newmark_1iter();
MethodInfo newmark_pushforward();
MethodInfo velocity_verlet();
MethodInfo implicit_midpoint();
MethodInfo rattle();
MethodInfo zs4();
MethodInfo zs_euler();

}  // namespace gib::zhang_skeel
