#include "problems/pendulum_chain/chain_problem.hpp"

#include <Eigen/Eigenvalues>
#include <cmath>
#include <sstream>

#include "core/errors.hpp"
#include "core/random.hpp"
#include "problems/common/newtonian_reference.hpp"

namespace gib::pendulum_chain {
namespace {

constexpr std::uint64_t kRandomIcBase = 0x70656E64756C756DULL;  // "pendulum"
constexpr double kConsistencyTolerance = 1e-12;
constexpr double kCheckpointInterval = 10.0;  // a pendulum period is ~2 pi sqrt(L/g)

// stem + k, appended in place ("x" + std::to_string(k) trips GCC 12's -Wrestrict false positive at -O3).
std::string numbered(const char* stem, int k) {
  std::string s(stem);
  s += std::to_string(k);
  return s;
}

// 1/omega_max at q0, omega_max^2 = largest eigenvalue of M^-1/2 H M^-1/2 (M is diagonal).
double fastest_oscillation_time(const NewtonianModel& model, const Eigen::VectorXd& q0) {
  Eigen::MatrixXd H;
  model.hessian(q0, H);
  const Eigen::VectorXd s = model.mass_matrix().diagonal().cwiseSqrt().cwiseInverse();
  const Eigen::MatrixXd scaled = s.asDiagonal() * H * s.asDiagonal();
  const double top = Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd>(scaled, Eigen::EigenvaluesOnly).eigenvalues().maxCoeff();
  return top > 0 && std::isfinite(top) ? 1.0 / std::sqrt(top) : 1.0;
}

Json parameters_json(const ChainProblemDefinition& d) {
  Json p = d.parameters;
  p["V"] = "gravity_sign * gravity * sum m_i y_i + 1/2 omega^2 sum g_i^2, g_1 = |x_1|^2 - L_1^2, "
           "g_i = |x_i - x_{i-1}|^2 - L_i^2";
  p["masses"] = d.chain.masses;
  p["lengths"] = d.chain.lengths;
  p["gravity"] = d.chain.gravity;
  p["gravity_sign"] = d.chain.gravity_sign;
  p["omega"] = d.omega;
  p["reference"] = d.reference == ReferenceChoice::constrained ? "constrained" : "penalized";
  return p;
}

std::vector<NewtonianObservable> observables(const ChainProblemDefinition& d,
                                             const std::shared_ptr<const DistanceConstraints>& rods) {
  std::vector<NewtonianObservable> out;
  const double w2 = d.omega * d.omega;
  out.push_back({"omega2_g_norm", [rods, w2](const NewtonianState& x) {
                   Eigen::VectorXd g;
                   rods->values(x.q, g);
                   return w2 * g.norm();
                 }});
  if (d.rod_observables)
    for (int i = 0; i < rods->size(); ++i)
      out.push_back({numbered("omega2_g", i + 1), [rods, w2, i](const NewtonianState& x) {
                       Eigen::VectorXd g;
                       rods->values(x.q, g);
                       return w2 * g(i);
                     }});
  for (int bob : d.observed_bobs) {
    const int i = 2 * (bob - 1);
    out.push_back({numbered("x", bob), [i](const NewtonianState& x) { return x.q(i); }});
    out.push_back({numbered("y", bob), [i](const NewtonianState& x) { return x.q(i + 1); }});
  }
  return out;
}

}  // namespace

void check_consistent(const planar_chain::Chain& chain, const NewtonianState& x0, const std::string& problem) {
  const auto rods = planar_chain::rods(chain);
  Eigen::VectorXd g;
  Eigen::MatrixXd G;
  rods->values(x0.q, g);
  rods->jacobian(x0.q, G);
  const Eigen::VectorXd Gv = G * x0.v;
  const double speed = x0.v.cwiseAbs().maxCoeff();
  for (int i = 0; i < chain.size(); ++i) {
    const double L = chain.lengths[static_cast<std::size_t>(i)];
    std::ostringstream msg;
    msg.precision(3);
    if (std::abs(g(i)) > kConsistencyTolerance * (1 + L * L))
      msg << problem << ": the initial positions violate rod " << i + 1 << " (|x_i - x_{i-1}|^2 - L^2 = " << g(i)
          << "); q0 must put every bob at its rod length";
    else if (std::abs(Gv(i)) > kConsistencyTolerance * (1 + L * speed))
      msg << problem << ": the initial velocities stretch rod " << i + 1 << " ((G v0)_" << i + 1 << " = " << Gv(i)
          << "); v0 must be tangent to the constraints";
    if (!msg.str().empty()) throw InputError(msg.str());
  }
}

NewtonianState random_state(const planar_chain::Chain& chain, std::uint64_t k, const Eigen::VectorXd& center,
                            double angle_spread, double rate_spread) {
  random::Stream rng(random::derive_seed(kRandomIcBase, k));
  const int n = chain.size();
  Eigen::VectorXd theta(n), theta_dot(n);
  for (int i = 0; i < n; ++i) theta(i) = center(i) + rng.uniform(-angle_spread, angle_spread);
  for (int i = 0; i < n; ++i) theta_dot(i) = rng.uniform(-rate_spread, rate_spread);
  return planar_chain::cartesian_state(chain, theta, theta_dot);
}

ReferenceChoice read_reference(const Json& v, const std::string& problem) {
  if (v == "penalized") return ReferenceChoice::penalized;
  if (v == "constrained") return ReferenceChoice::constrained;
  throw InputError(problem + ": reference must be \"penalized\" or \"constrained\", got " + v.dump());
}

double read_gravity_sign(const Json& v, const std::string& problem) {
  if (v.is_number() && (v.get<double>() == 1.0 || v.get<double>() == -1.0)) return v.get<double>();
  throw InputError(problem + ": gravity_sign must be 1 (hanging, the fix) or -1 (as printed: inverted), got " +
                   v.dump());
}

std::unique_ptr<Problem> make_chain_problem(ChainProblemDefinition d) {
  const auto model = planar_chain::penalized_model(d.chain, d.omega);
  const auto rods = planar_chain::rods(d.chain);
  const Json params = parameters_json(d);
  NewtonianProblem::Extras extras;
  extras.observables = observables(d, rods);
  const int n = d.chain.size();
  extras.tip = {2 * n - 2, 2 * n - 1};

  // The trajectories' keys: the physics and the initial state, not which of them reference() returns.
  Json key = params;
  key.erase("reference");
  key["q0"] = Json(std::vector<double>(d.x0.q.data(), d.x0.q.data() + d.x0.q.size()));
  key["v0"] = Json(std::vector<double>(d.x0.v.data(), d.x0.v.data() + d.x0.v.size()));
  Json constrained_key = key;
  constrained_key.erase("omega");
  const NewtonianReferenceSettings settings{kCheckpointInterval};
  const planar_chain::Chain chain = d.chain;
  const NewtonianState x0 = d.x0;
  extras.constrained_reference = shared_newtonian_reference("constrained planar chain " + constrained_key.dump(), [&] {
    return std::make_shared<const NewtonianNumericalReference>(planar_chain::constrained_ode(chain, x0), settings);
  });
  auto penalized = shared_newtonian_reference("penalized planar chain " + key.dump(), [&] {
    return std::make_shared<const NewtonianNumericalReference>(newtonian_ode(model, x0), settings);
  });
  auto reference = d.reference == ReferenceChoice::constrained ? extras.constrained_reference : penalized;
  const double scale = fastest_oscillation_time(*model, d.x0.q);
  return std::make_unique<NewtonianProblem>(d.id, d.preset, d.ic, model, d.x0, params, scale, std::move(reference),
                                            std::move(extras));
}

}  // namespace gib::pendulum_chain
