#include "problems/pendulum_chain/pendulum_chain.hpp"

#include <cmath>

#include "core/errors.hpp"
#include "core/user_input.hpp"
#include "problems/common/overrides.hpp"
#include "problems/common/r33_problem.hpp"
#include "problems/pendulum_chain/chain_problem.hpp"

namespace gib::pendulum_chain {
namespace {

constexpr const char* kId = "pendulum_chain";
// The penalty (core/penalty.cpp) works with the dense m x n constraint Jacobian and the time scale with a dense
// eigen-solve of the Hessian: fine for hundreds of bobs, not for tens of thousands.
constexpr int kMaxBobs = 200;
// "random:K": the preset's straight chain (every rod at atan(1/2) from the vertical) with each rod turned by up to
// 0.1 rad and small rates, up to 0.05 rad per time unit: the same swing, different in detail. Random angles about
// the hanging state instead start a whipping, irregular motion whose energy-error envelope still grows over the
// battery's window (20000 coarse steps, about one period of the chain's slowest mode), which its drift test
// reads as drift even for symplectic methods.
constexpr double kRandomAngle = 0.1, kRandomRate = 0.05;

struct Setup {
  int n = 10;
  double omega = 20;
  double gravity_sign = 1;
  ReferenceChoice reference = ReferenceChoice::penalized;
};

Setup preset_setup(const std::string& preset) {
  if (preset == "taoowhadi2014_n10") return {};
  throw InputError("unknown preset " + quote_excerpt(preset) + " for problem pendulum_chain (valid: taoowhadi2014_n10)");
}

void apply_overrides(Setup& s, const Json& o) {
  overrides::check_keys(o, {"n", "omega", "gravity_sign", "reference"}, kId);
  if (o.is_null()) return;
  if (o.contains("n")) {
    const Json& v = o["n"];
    if (!v.is_number_integer() || v.get<long long>() < 1 || v.get<long long>() > kMaxBobs)
      throw InputError(std::string(kId) + ": n must be an integer in [1, " + std::to_string(kMaxBobs) + "], got " +
                       v.dump());
    s.n = v.get<int>();
  }
  if (o.contains("omega")) s.omega = overrides::read_positive(o["omega"], "omega");
  if (o.contains("gravity_sign")) s.gravity_sign = read_gravity_sign(o["gravity_sign"], kId);
  if (o.contains("reference")) s.reference = read_reference(o["reference"], kId);
}

// Unit masses, g = 1, every rod sqrt 5.
planar_chain::Chain chain_of(const Setup& s) {
  const auto n = static_cast<std::size_t>(s.n);
  return {std::vector<double>(n, 1.0), std::vector<double>(n, std::sqrt(5.0)), 1.0, s.gravity_sign};
}

// x_i = i, y_i = -2i at rest: each rod (1, -2) has length sqrt 5.
NewtonianState straight_chain(int n) {
  NewtonianState x{Eigen::VectorXd(2 * n), Eigen::VectorXd::Zero(2 * n)};
  for (int i = 1; i <= n; ++i) x.q.segment<2>(2 * (i - 1)) << double(i), -2.0 * i;
  return x;
}

// Bobs 1, 5 and the last (Fig 3 shows a few of them), without repeats.
std::vector<int> observed_bobs(int n) {
  std::vector<int> out{1};
  if (n >= 5) out.push_back(5);
  if (n != 1 && n != 5) out.push_back(n);
  return out;
}

std::unique_ptr<Problem> make(const std::string& preset, const Json& o, const std::string& ic) {
  Setup s = preset_setup(preset);
  apply_overrides(s, o);
  ChainProblemDefinition d;
  d.id = kId;
  d.preset = preset;
  d.ic = ic;
  d.chain = chain_of(s);
  d.omega = s.omega;
  const auto k = random_ic_index(ic);
  d.x0 = k ? random_state(d.chain, *k, Eigen::VectorXd::Constant(s.n, std::atan2(1.0, 2.0)), kRandomAngle, kRandomRate)
           : straight_chain(s.n);
  check_consistent(d.chain, d.x0, kId);
  d.reference = s.reference;
  d.observed_bobs = observed_bobs(s.n);
  d.parameters["n"] = s.n;
  return make_chain_problem(std::move(d));
}

}  // namespace

ProblemInfo info() {
  ProblemInfo p;
  p.id = kId;
  p.display_name = "Penalised pendulum chain";
  p.citation = "Tao and Owhadi 2014 section 4.2 (Fig 3); constrained solution in the rod angles";
  p.kind = ModelKind::newtonian;
  p.torque_free = false;
  p.constrained = true;
  p.presets = {
      {"taoowhadi2014_n10",
       "n = 10, M = I, V = sum y_i + 1/2 omega^2 g^T g (gravity sign fixed, spec A2), L_i = sqrt 5, x_i(0) = i, "
       "y_i(0) = -2i, v0 = 0, omega = 20 [spec 4.2]; Fig 3"},
  };
  p.parameters = {
      {"n", "number of bobs, integer in [1, 200] (the straight chain x_i = i, y_i = -2i, L_i = sqrt 5)"},
      {"omega", "penalty frequency, positive (stiffness omega^2)"},
      {"gravity_sign", "1: V = +sum y_i, the chain hangs (the fix); -1: as printed, the inverted chain"},
      {"reference", "penalized (default): reference() solves the penalised ODE; constrained: the rod-angle solution"},
  };
  p.make = make;
  return p;
}

}  // namespace gib::pendulum_chain
