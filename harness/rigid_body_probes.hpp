// Structure probes of a rigid-body method (McLachlan-Quispel spec 11 M6, M9; spec 5.5's Poisson and reversibility
// tests of the free-body splitting): measured on the one-step map psi_h at given states, with fresh steppers.
#pragma once

#include <string>
#include <vector>

#include "core/method.hpp"
#include "core/model.hpp"

namespace gib::rigid_body_probes {

struct Probes {
  // M9 on the momentum map of a torque-free body, Pi -> Pi' (independent of R there): the Lie-Poisson condition
  // D J(Pi) D^T = J(Pi') with J(Pi) = hat(Pi), and the lectures' printed D^T J D = J(Pi') (erratum E1). NaN under
  // torque, where the momentum map depends on R and the condition involves the whole state.
  double poisson = NAN, poisson_printed = NAN;
  // M6 with rho(R, Pi) = (R, -Pi): |rho psi_h(rho psi_h(x)) - x| as |dR|_F + |dPi|.
  double reversibility = NAN;
  std::vector<std::string> notes;
};

Probes probe(const MethodInfo& m, const RigidBodyModel& model, const Json& params, const std::vector<RigidBodyState>& points,
             double h);

}  // namespace gib::rigid_body_probes
