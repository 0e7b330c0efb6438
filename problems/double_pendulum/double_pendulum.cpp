#include "problems/double_pendulum/double_pendulum.hpp"

#include <cmath>
#include <numbers>
#include <optional>

#include "core/errors.hpp"
#include "core/user_input.hpp"
#include "problems/common/overrides.hpp"
#include "problems/common/r33_problem.hpp"
#include "problems/pendulum_chain/chain_problem.hpp"

namespace gib::double_pendulum {
namespace {

using pendulum_chain::ReferenceChoice;

constexpr const char* kId = "double_pendulum";
// "random:K": theta, phi within 0.5 rad of hanging, rates within 0.5 rad per time unit (a modest swing).
constexpr double kRandomAngle = 0.5, kRandomRate = 0.5;

struct Setup {
  planar_chain::Chain chain{{1.0, 1.0}, {1.0, std::numbers::sqrt2}, 1.0, 1.0};
  double omega = 20;
  ReferenceChoice reference = ReferenceChoice::penalized;
  bool printed_lengths = true;  // the preset's q0 is printed for L = (1, sqrt 2)
  std::optional<Eigen::VectorXd> q0, v0;
};

Setup preset_setup(const std::string& preset) {
  Setup s;
  if (preset == "taoowhadi2014") return s;
  if (preset == "taoowhadi2014_omega2000") {
    s.omega = 2000;
    return s;
  }
  throw InputError("unknown preset " + quote_excerpt(preset) + " for problem double_pendulum (valid: taoowhadi2014 "
                   "taoowhadi2014_omega2000)");
}

std::vector<double> read_numbers(const Json& v, const std::string& key, std::size_t n, bool positive) {
  if (!v.is_array() || v.size() != n)
    throw InputError(std::string(kId) + ": " + key + " must be an array of " + std::to_string(n) + " numbers, got " +
                     v.dump());
  std::vector<double> out;
  for (std::size_t i = 0; i < n; ++i) {
    const std::string k = key + "[" + std::to_string(i) + "]";
    out.push_back(positive ? overrides::read_positive(v[i], k) : overrides::read_finite(v[i], k));
  }
  return out;
}

Eigen::VectorXd to_vector(const std::vector<double>& v) {
  return Eigen::Map<const Eigen::VectorXd>(v.data(), static_cast<Eigen::Index>(v.size()));
}

void apply_overrides(Setup& s, const Json& o) {
  overrides::check_keys(o, {"omega", "masses", "lengths", "gravity", "gravity_sign", "q0", "v0", "reference"}, kId);
  if (o.is_null()) return;
  if (o.contains("omega")) s.omega = overrides::read_positive(o["omega"], "omega");
  if (o.contains("masses")) s.chain.masses = read_numbers(o["masses"], "masses", 2, true);
  if (o.contains("lengths")) {
    s.chain.lengths = read_numbers(o["lengths"], "lengths", 2, true);
    s.printed_lengths = false;
  }
  if (o.contains("gravity")) {
    s.chain.gravity = overrides::read_finite(o["gravity"], "gravity");
    if (s.chain.gravity < 0)
      throw InputError(std::string(kId) + ": gravity must be >= 0 (gravity_sign sets the direction), got " +
                       o["gravity"].dump());
  }
  if (o.contains("gravity_sign")) s.chain.gravity_sign = pendulum_chain::read_gravity_sign(o["gravity_sign"], kId);
  if (o.contains("q0")) s.q0 = to_vector(read_numbers(o["q0"], "q0", 4, false));
  if (o.contains("v0")) s.v0 = to_vector(read_numbers(o["v0"], "v0", 4, false));
  if (o.contains("reference")) s.reference = pendulum_chain::read_reference(o["reference"], kId);
}

// The printed IC (0, -1, 1, -2) at rest; with other lengths, the same angles theta0 = 0, phi0 = pi/4.
NewtonianState preset_state(const Setup& s) {
  if (s.printed_lengths) return {(Eigen::VectorXd(4) << 0.0, -1.0, 1.0, -2.0).finished(), Eigen::VectorXd::Zero(4)};
  return planar_chain::cartesian_state(s.chain, Eigen::Vector2d(0.0, std::numbers::pi / 4), Eigen::VectorXd::Zero(2));
}

NewtonianState initial_state(const Setup& s, const std::string& ic) {
  if (const auto k = random_ic_index(ic)) {
    if (s.q0 || s.v0) throw InputError(std::string(kId) + ": q0 and v0 cannot be combined with initial condition " + ic);
    return pendulum_chain::random_state(s.chain, *k, Eigen::VectorXd::Zero(2), kRandomAngle, kRandomRate);
  }
  NewtonianState x = preset_state(s);
  if (s.q0) x.q = *s.q0;
  if (s.v0) x.v = *s.v0;
  return x;
}

std::unique_ptr<Problem> make(const std::string& preset, const Json& o, const std::string& ic) {
  Setup s = preset_setup(preset);
  apply_overrides(s, o);
  NewtonianState x0 = initial_state(s, ic);
  pendulum_chain::check_consistent(s.chain, x0, kId);
  pendulum_chain::ChainProblemDefinition d;
  d.id = kId;
  d.preset = preset;
  d.ic = ic;
  d.chain = s.chain;
  d.omega = s.omega;
  d.x0 = std::move(x0);
  d.reference = s.reference;
  d.observed_bobs = {2};
  d.rod_observables = true;
  return pendulum_chain::make_chain_problem(std::move(d));
}

}  // namespace

ProblemInfo info() {
  ProblemInfo p;
  p.id = kId;
  p.display_name = "Penalised double pendulum";
  p.citation = "Tao and Owhadi 2014 section 4.1 (Figs 1, 2); constrained benchmark in generalised coordinates";
  p.kind = ModelKind::newtonian;
  p.torque_free = false;
  p.constrained = true;
  const std::string common =
      "Cartesian, M = I, V = g (y1 + y2) + 1/2 omega^2 g^T g (gravity sign fixed, spec A2), L1 = 1, L2 = sqrt 2, "
      "q0 = (0, -1, 1, -2), v0 = 0 [spec 4.1]";
  p.presets = {
      {"taoowhadi2014", common + ", omega = 20; Figs 1, 2"},
      {"taoowhadi2014_omega2000",
       common + ", omega = 2000 (stiffness 4e6: the paper's instability case, spec 4.1, A25). A stress case, not in "
                "the per-commit battery",
       true, false},
  };
  p.parameters = {
      {"omega", "penalty frequency, positive (stiffness omega^2)"},
      {"masses", "[m1, m2], positive"},
      {"lengths", "[L1, L2], positive (the preset's q0 then keeps theta0 = 0, phi0 = pi/4)"},
      {"gravity", "g >= 0"},
      {"gravity_sign", "1: V = +g sum m_i y_i, the bobs hang (the fix); -1: as printed, the inverted pendulum"},
      {"q0", "initial (x1, y1, x2, y2); must satisfy both rods to 1e-12"},
      {"v0", "initial velocities [4]; must be tangent to the rods (G v0 = 0) to 1e-12"},
      {"reference", "penalized (default): reference() solves the penalised ODE; constrained: the rod-angle solution"},
  };
  p.make = make;
  return p;
}

}  // namespace gib::double_pendulum
