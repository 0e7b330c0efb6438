#include "problems/dna_torsion/dna_torsion.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>

#include "core/errors.hpp"
#include "core/random.hpp"
#include "core/user_input.hpp"
#include "problems/common/newtonian_reference.hpp"
#include "problems/common/overrides.hpp"
#include "problems/common/r33_problem.hpp"
#include "problems/dna_torsion/dna_model.hpp"

namespace gib::dna_torsion {
namespace {

constexpr const char* kId = "dna_torsion";
// The model's mass matrix is stored dense (core/model.hpp), N^2 doubles: 32 MB here.
constexpr int kMaxSites = 2000;
constexpr double kCheckpointInterval = 20.0;  // 40 time scales

struct Setup {
  DnaParameters model;
  std::uint64_t seed = 1;
};

Setup preset_setup(const std::string& preset) {
  Setup s;
  if (preset == "taoowhadi2014") return s;
  if (preset == "n20") {
    s.model.n = 20;
    return s;
  }
  throw InputError("unknown preset " + quote_excerpt(preset) + " for problem dna_torsion (valid: taoowhadi2014 n20)");
}

void apply_overrides(Setup& s, const Json& o) {
  overrides::check_keys(o, {"N", "a", "x0", "epsilon", "boundary", "seed"}, kId);
  if (o.is_null()) return;
  if (o.contains("N")) {
    const Json& v = o["N"];
    if (!v.is_number_integer() || v.get<long long>() < 3 || v.get<long long>() > kMaxSites)
      throw InputError(std::string(kId) + ": N must be an integer in [3, " + std::to_string(kMaxSites) + "], got " +
                       v.dump());
    s.model.n = v.get<int>();
  }
  if (o.contains("a")) s.model.a = overrides::read_positive(o["a"], "a");
  if (o.contains("x0")) s.model.x0 = overrides::read_finite(o["x0"], "x0");
  if (o.contains("epsilon")) {
    s.model.epsilon = overrides::read_finite(o["epsilon"], "epsilon");
    if (s.model.epsilon < 0) throw InputError(std::string(kId) + ": epsilon must be >= 0, got " + o["epsilon"].dump());
  }
  if (o.contains("boundary")) {
    const Json& v = o["boundary"];
    if (v != "periodic" && v != "free")
      throw InputError(std::string(kId) + ": boundary must be \"periodic\" or \"free\", got " + v.dump());
    s.model.periodic = v == "periodic";
  }
  if (o.contains("seed")) s.seed = overrides::read_seed(o["seed"], "seed");
}

// theta_k = 0.8 + 0.1 xi_k, theta_k' = cos(4 pi k / N) / sqrt N, k = 1..N (spec 4.4).
NewtonianState initial_state(int n, std::uint64_t draw_seed) {
  random::Stream rng(draw_seed);
  NewtonianState x{Eigen::VectorXd(n), Eigen::VectorXd(n)};
  for (int k = 1; k <= n; ++k) {
    x.q(k - 1) = 0.8 + 0.1 * rng.normal();
    x.v(k - 1) = std::cos(4 * std::numbers::pi * k / n) / std::sqrt(double(n));
  }
  return x;
}

double time_scale(const DnaParameters& p, const Eigen::VectorXd& q0) {
  double curvature = 0;
  for (int k = 0; k < p.n; ++k) curvature = std::max(curvature, site_potential(q0(k), p.a, p.x0).second);
  return 1.0 / std::sqrt(4.0 + p.epsilon * curvature);
}

std::vector<NewtonianObservable> observables() {
  return {
      {"mean_angle", [](const NewtonianState& x) { return x.q.mean(); }},
      {"mean_angle_rate", [](const NewtonianState& x) { return x.v.mean(); }},
  };
}

std::unique_ptr<Problem> make(const std::string& preset, const Json& o, const std::string& ic) {
  Setup s = preset_setup(preset);
  apply_overrides(s, o);
  const auto k = random_ic_index(ic);
  const std::uint64_t draw_seed = k ? random::derive_seed(s.seed, *k) : s.seed;
  NewtonianState x0 = initial_state(s.model.n, draw_seed);
  auto model = std::make_shared<const DnaTorsionModel>(s.model);
  Json params = {
      {"V", "sum over bonds 1/2 (theta_j - theta_i)^2 + epsilon sum U(theta_k), "
            "U = (exp(-a (1 - cos theta - x0)) - 1)^2"},
      {"N", s.model.n},
      {"a", s.model.a},
      {"x0", s.model.x0},
      {"epsilon", s.model.epsilon},
      {"boundary", s.model.periodic ? "periodic" : "free"},
      {"seed", s.seed},
      {"draw_seed", draw_seed},
  };
  Json key = params;
  key["q0"] = std::vector<double>(x0.q.data(), x0.q.data() + x0.q.size());
  key["v0"] = std::vector<double>(x0.v.data(), x0.v.data() + x0.v.size());
  auto reference = shared_newtonian_reference("dna torsion " + key.dump(), [&] {
    return std::make_shared<const NewtonianNumericalReference>(newtonian_ode(model, x0),
                                                               NewtonianReferenceSettings{kCheckpointInterval});
  });
  NewtonianProblem::Extras extras;
  extras.observables = observables();
  const double scale = time_scale(s.model, x0.q);
  return std::make_unique<NewtonianProblem>(kId, preset, ic, std::move(model), std::move(x0), std::move(params), scale,
                                            std::move(reference), std::move(extras));
}

}  // namespace

ProblemInfo info() {
  ProblemInfo p;
  p.id = kId;
  p.display_name = "DNA torsion chain (Mezic)";
  p.citation = "Tao and Owhadi 2014 section 4.4 (Fig 8), after Mezic 2006; numerical reference";
  p.kind = ModelKind::newtonian;
  p.torque_free = false;
  p.torque_free = false;
  const std::string common =
      "M = I, V = sum 1/2 (theta_{k+1} - theta_k)^2 (periodic) + eps sum (exp(-a (1 - cos theta - x0)) - 1)^2, "
      "a = 7, x0 = 0.3, eps = 1/1400, theta_k(0) = 0.8 + 0.1 xi_k (seed 1), theta_k'(0) = cos(4 pi k / N) / sqrt N "
      "[spec 4.4]";
  p.presets = {
      {"taoowhadi2014",
       common + ", N = 200; Fig 8. Not in the per-commit battery (n20 holds the same claims)", false, false},
      {"n20", common + ", N = 20: the battery's small chain"},
  };
  p.parameters = {
      {"N", "number of base pairs, integer in [3, 2000]"},
      {"a", "well steepness a, positive"},
      {"x0", "well offset x0 (minima at cos theta = 1 - x0)"},
      {"epsilon", "on-site strength eps >= 0"},
      {"boundary", "periodic (default, theta_{N+1} = theta_1) or free (free ends)"},
      {"seed", "seed of the xi_k draw (random:K draws from a seed derived from it and K)"},
  };
  p.make = make;
  return p;
}

}  // namespace gib::dna_torsion
