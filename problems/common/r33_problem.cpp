#include "problems/common/r33_problem.hpp"

#include <Eigen/SVD>
#include <cmath>
#include <sstream>

#include "core/errors.hpp"
#include "core/metrics.hpp"
#include "core/user_input.hpp"
#include "problems/common/numerical_reference.hpp"

namespace gib::r33_problem {

namespace {
constexpr std::uint64_t kRandomIcBase = 0x6672625F6963ULL;  // the free body's ("frb_ic")
constexpr double kCheckpointTimeScales = 10;                // the battery's order runs span 10 time scales
}  // namespace

Json R33Problem::parameters() const {
  Json p = RigidBodyProblem::parameters();
  p["potential"] = potential_;
  return p;
}

double R33Problem::time_scale() const { return r33_problem::time_scale(model(), initial_state()); }

std::vector<RigidBodyInvariant> R33Problem::invariants() const {
  std::vector<RigidBodyInvariant> out = RigidBodyProblem::invariants();
  out.push_back({Invariant::vertical_momentum, metrics::vertical_momentum_err.name, InvariantErrorKind::absolute,
                 [](const RigidBodyState& x) { return InvariantValue::Constant(1, x.R.row(2).dot(x.Pi)); }});
  if (model().inertia()(0) == model().inertia()(1))
    out.push_back({Invariant::axial_momentum, metrics::axial_momentum_err.name, InvariantErrorKind::absolute,
                   [](const RigidBodyState& x) { return InvariantValue::Constant(1, x.Pi(2)); }});
  return out;
}

namespace {
// |dT/deta(R0)|_2, the torque's stiffness at the start (0 without a potential).
double stiffness(const RigidBodyModel& model, const RigidBodyState& x0) {
  const RigidBodyPotential* v = model.potential();
  return v == nullptr ? 0.0 : Eigen::JacobiSVD<Mat3>(v->body_torque_jacobian(x0.R)).singularValues()(0);
}

// Parameters of a sensible size can still describe a body whose momenta overflow a double within a step
// (--set weight=1e308): refused here, with the numbers, rather than met as a non-finite state or a reference
// that cannot place its checkpoints. |Pi|^2 reaches about 2 I_max E, E the initial kinetic energy plus the
// stiffness (the potential's swing over O(1) of rotation); kMaxMomentumSquared leaves room for the sums and
// products of the integrators and the invariants.
constexpr double kMaxMomentumSquared = 1e300;
void check_scale(const RigidBodyModel& model, const RigidBodyState& x0, const std::string& problem) {
  const double kinetic = 0.5 * x0.Pi.dot(model.angular_velocity(x0.Pi));
  const double energy = kinetic + stiffness(model, x0);
  const double momentum_squared = 2 * model.inertia().maxCoeff() * energy;
  if (momentum_squared <= kMaxMomentumSquared) return;
  throw InputError(problem + ": the parameters give an energy scale E = " + number_text(energy) +
                   " (initial kinetic energy plus the torque's stiffness), and the momenta, |Pi|^2 ~ 2 I_max E, must "
                   "stay below " + number_text(kMaxMomentumSquared) + " for a run in double precision");
}
}  // namespace

double time_scale(const RigidBodyModel& model, const RigidBodyState& x0) {
  const double rate = std::max(model.angular_velocity(x0.Pi).norm(), std::sqrt(stiffness(model, x0) / model.inertia().minCoeff()));
  return rate > 0 && std::isfinite(rate) ? 1.0 / rate : 1.0;
}

void check_triangle_inequality(const Vec3& I, const std::string& problem) {
  for (int i = 0; i < 3; ++i) {
    if (I(i) <= I((i + 1) % 3) + I((i + 2) % 3)) continue;
    std::ostringstream msg;
    msg << problem << ": inertia (" << number_text(I(0)) << ", " << number_text(I(1)) << ", " << number_text(I(2))
        << ") is not a rigid body's: I"
        << i + 1 << " exceeds the sum of the other two moments";
    throw InputError(msg.str());
  }
}

random::Stream random_stream(std::uint64_t k) { return random::Stream(random::derive_seed(kRandomIcBase, k)); }

std::unique_ptr<Problem> make(Definition d) {
  RigidBodyModel model(d.inertia, d.potential);
  check_scale(model, d.x0, d.id);
  const double interval = kCheckpointTimeScales * time_scale(model, d.x0);
  auto reference = std::make_shared<NumericalReference>(
      NumericalReferenceSetup{d.inertia, d.x0, r33_body_torque_ld(std::move(d.slope)), interval});
  auto problem = std::make_unique<R33Problem>(std::move(d.id), std::move(d.preset), std::move(d.ic), std::move(model),
                                              d.x0, reference, std::move(d.potential_parameters));
  reference->attach_cache(ReferenceCacheSettings::from_environment(), problem->parameter_hash(), problem->parameters());
  return problem;
}

}  // namespace gib::r33_problem
