#include "problems/common/r33_problem.hpp"

#include <Eigen/SVD>
#include <cmath>
#include <sstream>

#include "core/errors.hpp"
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
  out.push_back({Invariant::vertical_momentum, "vertical_momentum_err", InvariantErrorKind::absolute,
                 [](const RigidBodyState& x) { return InvariantValue::Constant(1, x.R.row(2).dot(x.Pi)); }});
  if (model().inertia()(0) == model().inertia()(1))
    out.push_back({Invariant::axial_momentum, "axial_momentum_err", InvariantErrorKind::absolute,
                   [](const RigidBodyState& x) { return InvariantValue::Constant(1, x.Pi(2)); }});
  return out;
}

double time_scale(const RigidBodyModel& model, const RigidBodyState& x0) {
  double rate = model.angular_velocity(x0.Pi).norm();
  if (const RigidBodyPotential* v = model.potential()) {
    const double stiffness = Eigen::JacobiSVD<Mat3>(v->body_torque_jacobian(x0.R)).singularValues()(0);
    rate = std::max(rate, std::sqrt(stiffness / model.inertia().minCoeff()));
  }
  return rate > 0 && std::isfinite(rate) ? 1.0 / rate : 1.0;
}

void check_triangle_inequality(const Vec3& I, const std::string& problem) {
  for (int i = 0; i < 3; ++i) {
    if (I(i) <= I((i + 1) % 3) + I((i + 2) % 3)) continue;
    std::ostringstream msg;
    msg << problem << ": inertia (" << I(0) << ", " << I(1) << ", " << I(2) << ") is not a rigid body's: I"
        << i + 1 << " exceeds the sum of the other two moments";
    throw InputError(msg.str());
  }
}

std::optional<std::uint64_t> random_index(const std::string& ic) {
  if (ic == "preset") return std::nullopt;
  const std::string prefix = "random:";
  if (ic.rfind(prefix, 0) != 0)
    throw InputError("initial condition '" + ic + "' must be \"preset\" or \"random:K\" with K >= 1");
  const std::string digits = ic.substr(prefix.size());
  std::uint64_t k = 0;
  try {
    std::size_t used = 0;
    k = std::stoull(digits, &used);
    if (used != digits.size() || digits.empty() || digits[0] == '-' || k == 0) throw std::invalid_argument(ic);
  } catch (const std::exception&) {
    throw InputError("initial condition '" + ic + "' must be \"random:K\" with an integer K >= 1");
  }
  return k;
}

random::Stream random_stream(std::uint64_t k) { return random::Stream(random::derive_seed(kRandomIcBase, k)); }

std::unique_ptr<Problem> make(Definition d) {
  RigidBodyModel model(d.inertia, d.potential);
  const double interval = kCheckpointTimeScales * time_scale(model, d.x0);
  auto reference = std::make_shared<NumericalReference>(
      NumericalReferenceSetup{d.inertia, d.x0, r33_body_torque_ld(std::move(d.slope)), interval});
  auto problem = std::make_unique<R33Problem>(std::move(d.id), std::move(d.preset), std::move(d.ic), std::move(model),
                                              d.x0, reference, std::move(d.potential_parameters));
  reference->attach_cache(ReferenceCacheSettings::from_environment(), problem->parameter_hash(), problem->parameters());
  return problem;
}

}  // namespace gib::r33_problem
