#include "methods/gla/gla.hpp"

#include <Eigen/Cholesky>
#include <cmath>
#include <nlohmann/json.hpp>
#include <numbers>
#include <stdexcept>

#include "core/errors.hpp"
#include "core/penalty.hpp"

namespace gib::gla {

namespace {

// splitmix64's finaliser: a bijection of 64-bit words whose output bits each depend on every input bit.
std::uint64_t mix(std::uint64_t z) {
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

// One 64-bit word from (seed, step, word index): each input is absorbed and mixed in turn, with distinct odd
// increments so that permuting the inputs gives another word. Not cryptographic; its statistics are what
// tests/test_gla.cpp measures (the OU moments over 10^6 draws).
std::uint64_t word(std::uint64_t seed, std::uint64_t step, std::uint64_t index) {
  std::uint64_t z = mix(seed + 0x9E3779B97F4A7C15ULL);
  z = mix(z ^ (step + 0xD1B54A32D192ED03ULL));
  z = mix(z ^ (index + 0x8CB92BA72F3D8DD7ULL));
  return mix(z);
}

// 53 random bits as a double in (0, 1]: never 0, so the logarithm of Box-Muller is finite.
double uniform_open0(std::uint64_t w) { return static_cast<double>((w >> 11) + 1) * 0x1.0p-53; }

double finite_number(const Json& params, const char* key, const std::string& owner) {
  if (!params.contains(key) || !params[key].is_number())
    throw InputError(owner + ": parameter " + key + " must be a number");
  const double x = params[key].get<double>();
  if (!std::isfinite(x)) throw InputError(owner + ": parameter " + key + " must be finite");
  return x;
}

}  // namespace

double normal(std::uint64_t seed, std::uint64_t step, std::uint64_t coordinate) {
  // Two uniforms per coordinate (words 2i and 2i+1) and the cosine branch of Box-Muller: exactly N(0, 1) for
  // independent uniforms, and coordinate i's number does not depend on how many coordinates there are.
  const double u1 = uniform_open0(word(seed, step, 2 * coordinate));
  const double u2 = uniform_open0(word(seed, step, 2 * coordinate + 1));
  return std::sqrt(-2.0 * std::log(u1)) * std::cos(2.0 * std::numbers::pi * u2);
}

LangevinParams read_params(const Json& params, const std::string& owner) {
  if (!params.is_object()) throw InputError(owner + ": parameters must be an object");
  LangevinParams p;
  p.friction = finite_number(params, kFrictionKey, owner);
  if (p.friction < 0) throw InputError(owner + ": parameter friction must be >= 0 (0 turns the thermostat off)");
  p.inverse_temperature = finite_number(params, kInverseTemperatureKey, owner);
  if (p.inverse_temperature <= 0) throw InputError(owner + ": parameter inverse_temperature must be > 0");
  const double seed = finite_number(params, kSeedKey, owner);
  // Integers up to 2^53 are exact in a double; beyond, two seeds could silently become one.
  if (seed < 0 || seed != std::floor(seed) || seed > 0x1.0p53)
    throw InputError(owner + ": parameter seed must be an integer between 0 and 2^53");
  p.seed = static_cast<std::uint64_t>(seed);
  return p;
}

Json base_params(const Json& params) {
  Json rest = params.is_object() ? params : Json::object();
  for (const char* key : {kFrictionKey, kInverseTemperatureKey, kSeedKey}) rest.erase(key);
  return rest;
}

GlaStepper::GlaStepper(const NewtonianModel& model, const LangevinParams& p, std::unique_ptr<NewtonianStepper> inner,
                       bool project)
    : model_(model), p_(p), inner_(std::move(inner)), project_(project) {
  if (!inner_) throw std::invalid_argument("GlaStepper: null base stepper");
  if (!model.diagonal_mass())
    throw InputError("GLA: the model's mass matrix is not diagonal; the Ornstein-Uhlenbeck flow is implemented per "
                     "coordinate (point masses) only");
  if (project_ && model.constraint_set() == nullptr)
    throw InputError("GLA: the velocity projection needs a model with constraints");
  inverse_mass_ = model.mass_matrix().diagonal().cwiseInverse();
}

void GlaStepper::reset() {
  steps_ = 0;
  inner_->reset();
}

void GlaStepper::thermalize(NewtonianState& x, double h, std::uint64_t step_index) {
  if (!(h > 0)) throw std::invalid_argument("GLA: the Ornstein-Uhlenbeck flow has no backward step; h must be > 0");
  const Eigen::Index n = x.v.size();
  if (decay_.size() != n || h != h_cached_) {
    const Eigen::VectorXd& m = model_.mass_matrix().diagonal();
    decay_.resize(n);
    amplitude_.resize(n);
    // With the projection, every coordinate decays at one rate, gamma / m_h with m_h the harmonic mean of the
    // masses (the mean of the per-coordinate rates gamma / m_i). Only a decay D = d I commutes with the projection P:
    // from a tangent Maxwell-Boltzmann v, P (D v + noise) keeps the covariance P M^-1 P^T / beta exactly, while the
    // per-mass D leaves it short by P D (I - P) M^-1 D P^T / beta. That bias is real: on the 3-water cluster at
    // gamma h / m_O = 0.1 the per-mass form sampled T_kin beta = 0.952 +- 0.009 (1 expected); at the paper's
    // gamma = 0.01, h = 0.05 it is of order gamma h / m_H = 5e-4. The uniform rate is what MD codes with constraints
    // use (a collision rate: GROMACS's sd, OpenMM's Langevin integrators).
    const double harmonic_rate = m.cwiseInverse().mean();
    for (Eigen::Index i = 0; i < n; ++i) {
      const double rate = p_.friction * h * (project_ ? harmonic_rate : 1.0 / m(i));
      decay_(i) = std::exp(-rate);
      // 1 - e^{-2 rate} by expm1: no cancellation when gamma h / m is small (the spec's 0.01 x 0.05 / 16).
      amplitude_(i) = std::sqrt(-std::expm1(-2.0 * rate) / (p_.inverse_temperature * m(i)));
    }
    h_cached_ = h;
  }
  for (Eigen::Index i = 0; i < n; ++i)
    x.v(i) = decay_(i) * x.v(i) + amplitude_(i) * normal(p_.seed, step_index, static_cast<std::uint64_t>(i));
  if (project_) project_to_tangent(*model_.constraint_set(), x.q, inverse_mass_, x.v);
}

StepStatus GlaStepper::step(NewtonianState& x, double h, OpCounters& c) {
  // The OU flow has no backward step: a step of h <= 0 (a symmetry probe) fails as a recorded status, not a throw.
  if (p_.friction > 0 && !(h > 0)) {
    ++c.solver_failures;
    return StepStatus::solver_failed;
  }
  const std::uint64_t k = steps_++;
  // friction 0: no kick and no projection, so that the run is the base method's bit for bit.
  if (p_.friction > 0) thermalize(x, h, k);
  return inner_->step(x, h, c);
}

MethodInfo with_langevin(MethodInfo base) {
  if (!base.newtonian) throw std::invalid_argument("with_langevin: method " + base.id + " has no newtonian factory");
  MethodInfo m;
  m.id = "gla_" + base.id;
  m.display_name = "GLA + " + base.display_name;
  m.citation = "Bou-Rabee and Owhadi 2010 (GLA); Tao and Owhadi 2014 4.3; deterministic step: " + base.citation;
  m.family = base.family;
  m.claims.stochastic = true;
  m.claims.implicit = base.claims.implicit;
  m.enforces_constraints = base.enforces_constraints;
  m.needs_penalty = base.needs_penalty;
  Json defaults = base.default_params->is_object() ? *base.default_params : Json::object();
  defaults[kFrictionKey] = kDefaultFriction;
  defaults[kInverseTemperatureKey] = kDefaultInverseTemperature;
  defaults[kSeedKey] = 0;
  m.default_params = defaults;
  const bool project = base.enforces_constraints;
  m.newtonian = [inner = base.newtonian, project, id = m.id](const NewtonianModel& model,
                                                             const Json& params) -> std::unique_ptr<NewtonianStepper> {
    const LangevinParams p = read_params(params, "method " + id);
    return std::make_unique<GlaStepper>(model, p, inner(model, base_params(params)), project);
  };
  return m;
}

}  // namespace gib::gla
