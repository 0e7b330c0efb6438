// The Newtonian kind's structure claims (harness/model_kinds.hpp NewtonianKind::structure_claims), checked by the
// battery at its coarse step:
//   - "on_constraints", for methods that enforce the constraints (RATTLE, GLA + RATTLE): g(q) = 0 and G(q) v = 0
//     after every step of a 2000-step run;
//   - "kinetic_temperature", for stochastic methods (MethodClaims::stochastic): the kinetic temperature sampled
//     after a burn-in is the bath's 1/beta.
#include <Eigen/Dense>
#include <algorithm>
#include <cmath>

#include "harness/json_util.hpp"
#include "harness/model_kinds.hpp"

namespace gib {

namespace {

// g(q) = 0 and G v = 0 after every step. A Newton solve that stops when its update moves q by 1e-12 |q| leaves
// |g| ~ |G| 1e-12 |q| at worst (RATTLE's test; quadratic convergence usually leaves round-off), and the velocity
// solve leaves |G v| at round-off of |G| |v|: both are judged relative to those scales, with a factor 100 of room
// for the accumulation over 2000 steps. A method that only penalises the constraints leaves |g| ~ 1/omega^2.
StructureClaim constraint_claim(const MethodInfo& m, const NewtonianProblem& p, const Json& params, double h) {
  constexpr int kSteps = 2000;
  const ConstraintSet& g = *p.model().constraint_set();
  auto stepper = m.newtonian(p.model(), params);
  stepper->reset();
  NewtonianState x = p.initial_state();
  OpCounters c;
  Eigen::VectorXd values;
  Eigen::MatrixXd G;
  double worst_position = 0, worst_velocity = 0;
  int steps = 0;
  std::string failure;
  for (; steps < kSteps; ++steps) {
    if (stepper->step(x, h, c) != StepStatus::ok) {
      failure = "the step failed (status solver_failed) at step " + std::to_string(steps + 1);
      break;
    }
    if (!x.q.allFinite() || !x.v.allFinite()) {
      failure = "the state is not finite at step " + std::to_string(steps + 1);
      break;
    }
    g.values(x.q, values);
    g.jacobian(x.q, G);
    const double g_scale = std::max(1.0, G.norm()) * std::max(1.0, x.q.norm());
    worst_position = std::max(worst_position, values.cwiseAbs().maxCoeff() / g_scale);
    worst_velocity = std::max(worst_velocity, (G * x.v).cwiseAbs().maxCoeff() / (std::max(1.0, G.norm()) * std::max(1.0, x.v.norm())));
  }
  const double bound = 100 * 1e-12;
  const double measured = failure.empty() ? std::max(worst_position, worst_velocity) : INFINITY;
  std::string detail = "max |g(q)| / (|G| |q|) = " + short_number(worst_position) + ", max |G v| / (|G| |v|) = " + short_number(worst_velocity) +
                       " over " + std::to_string(steps) + " steps at h = " + short_number(h) + ", bound " + short_number(bound);
  if (!failure.empty()) detail = failure + "; " + detail;
  return {"on_constraints", measured <= bound, measured, bound, detail};
}

// Equipartition: in the canonical measure exp(-beta H) the velocities are Gaussian with covariance M^-1 / beta on
// the tangent space of the constraints, so <v^T M v> = d / beta with d = n - m unconstrained degrees of freedom (the
// penalised model keeps all n). The run uses a friction of its own, gamma = m_max / (10 h), so that the heaviest
// coordinate's Ornstein-Uhlenbeck flow forgets its velocity within 10 steps (the spec's gamma = 0.01 takes
// m / gamma = 1600 time units on a water oxygen): any gamma > 0 samples the same measure. After a burn-in of 1000
// steps, 20 batches of 200 steps give the mean of T_kin beta = v^T M v beta / d and its standard error from the batch
// means (batches 200 steps long are far longer than the velocity's 10-step memory); the claim holds within 5
// standard errors. A thermostat at the wrong temperature (beta off by 2: a mean of 0.5 or 2) or counting the
// constrained degrees of freedom (d off by m / n, a third for rigid water) fails it.
StructureClaim temperature_claim(const MethodInfo& m, const NewtonianProblem& p, const Json& params, double h) {
  constexpr int kBurnIn = 1000, kBatches = 20, kBatchSteps = 200;
  const NewtonianModel& model = p.model();
  const Eigen::Index n = model.dim();
  const ConstraintSet* g = model.constraint_set();
  const Eigen::Index constrained = m.enforces_constraints && g != nullptr ? g->size() : 0;
  const double dof = static_cast<double>(n - constrained);
  const double beta = params.value(kInverseTemperatureParam, NAN);
  Json run = params;
  run[kFrictionParam] = model.mass_matrix().diagonal().maxCoeff() / (10 * h);
  auto stepper = m.newtonian(model, run);
  stepper->reset();
  NewtonianState x = p.initial_state();
  OpCounters c;
  std::vector<double> batch(kBatches, 0.0);
  std::string failure;
  for (int k = 0; k < kBurnIn + kBatches * kBatchSteps && failure.empty(); ++k) {
    if (stepper->step(x, h, c) != StepStatus::ok || !x.q.allFinite() || !x.v.allFinite()) {
      failure = "the run failed or left the finite numbers at step " + std::to_string(k + 1);
      break;
    }
    if (k >= kBurnIn) batch[static_cast<std::size_t>((k - kBurnIn) / kBatchSteps)] += 2 * model.kinetic_energy(x.v) * beta / dof / kBatchSteps;
  }
  if (!failure.empty() || !(beta > 0))
    return {"kinetic_temperature", false, INFINITY, 0,
            !failure.empty() ? failure : "the method's parameters have no inverse_temperature > 0"};
  double mean = 0;
  for (double b : batch) mean += b / kBatches;
  double var = 0;
  for (double b : batch) var += (b - mean) * (b - mean) / (kBatches - 1);
  const double se = std::sqrt(var / kBatches);
  const double bound = 5 * se;
  const double measured = std::abs(mean - 1);
  return {"kinetic_temperature", measured <= bound, measured, bound,
          "T_kin beta = " + short_number(mean) + " +- " + short_number(se) + " (batch-means SE; 1 expected: " + std::to_string(n - constrained) +
              " degrees of freedom) over " + std::to_string(kBatches * kBatchSteps) + " steps after " + std::to_string(kBurnIn) +
              " at h = " + short_number(h) + ", friction " + short_number(run[kFrictionParam].get<double>()) + ", beta = " + short_number(beta) +
              "; bound 5 SE = " + short_number(bound)};
}

}  // namespace

std::vector<StructureClaim> NewtonianKind::structure_claims(const MethodInfo& m, const NewtonianProblem& p,
                                                            const Json& params, double h) {
  std::vector<StructureClaim> out;
  if (m.enforces_constraints && p.model().constraint_set() != nullptr) out.push_back(constraint_claim(m, p, params, h));
  if (m.claims.stochastic) out.push_back(temperature_claim(m, p, params, h));
  return out;
}

}  // namespace gib
