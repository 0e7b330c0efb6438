// The Geometric Langevin Algorithm (GLA; Bou-Rabee & Owhadi 2010, used by Tao & Owhadi 2014 4.3, spec 4.3 and 2.9):
// one step of h is the exact Ornstein-Uhlenbeck flow of  M dv = -gamma v dt + sqrt(2 gamma / beta) dW  over h, then one
// deterministic step of a Newtonian base method. For a diagonal mass, per coordinate i of mass m_i:
//   v_i <- e^{-gamma h / m_i} v_i + sqrt((1 - e^{-2 gamma h / m_i}) / (beta m_i)) xi_i,   xi_i ~ N(0, 1),
// the velocity form of the spec's p <- e^{-gamma h/m} p + sqrt(beta^-1 m (1 - e^{-2 gamma h/m})) xi. For a base that
// enforces the constraints (RATTLE/SHAKE), the kicked velocity is projected onto the tangent space at q, RATTLE style:
//   v <- v - M^-1 G^T (G M^-1 G^T)^-1 G v   (spec A13 [ASSUMPTION]),
// so that the deterministic step starts on T{g = 0}; there every coordinate decays at the one rate gamma / m_h (m_h
// the harmonic mean of the masses), because only a uniform decay commutes with the projection and keeps the
// constrained Maxwell-Boltzmann distribution exactly (gla.cpp says why, with the bias the per-mass form showed). A nondiagonal mass is refused (InputError): the OU flow would
// need e^{-gamma h M^-1} and a matching covariance factor, which this wrapper does not implement.
//
// Parameters (the rest go to the base method): "friction" gamma >= 0, "inverse_temperature" beta > 0 (not "beta":
// that is the Newmark parameter of the Zhang-Skeel family, spec 0), "seed" a non-negative integer. gamma = 0 is
// accepted as "thermostat off": the OU stage is skipped and the run is the base method's, bit for bit (the spec's
// Figs 5 and 6 run the water cluster deterministic; the spec asks gamma > 0 for the Langevin runs).
//
// Randomness is counter based: xi for (seed, step index, coordinate) is a pure function of the three (a splitmix64
// sponge, then Box-Muller on two 53-bit uniforms), never a generator's state. The step index is this stepper's own
// count of step() calls since construction or reset(), so advance(n) is n step() calls bit for bit, and a run gives
// the same bits whatever the thread count, MPI rank, the order in which cells run, or a resume (a resumed sweep
// reruns the cell from step 0).
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "core/method.hpp"

namespace gib::gla {

// The keys the battery also reads (core/method.hpp: a stochastic method's run parameters).
inline constexpr const char* kFrictionKey = kFrictionParam;
inline constexpr const char* kInverseTemperatureKey = kInverseTemperatureParam;
inline constexpr const char* kSeedKey = kSeedParam;

// The spec's water values (4.3: gamma = 0.01, beta = 50) as defaults, seed 0.
inline constexpr double kDefaultFriction = 0.01;
inline constexpr double kDefaultInverseTemperature = 50.0;

// A standard normal number that depends only on (seed, step, coordinate).
double normal(std::uint64_t seed, std::uint64_t step, std::uint64_t coordinate);

struct LangevinParams {
  double friction = kDefaultFriction;
  double inverse_temperature = kDefaultInverseTemperature;
  std::uint64_t seed = 0;
};

// Reads and checks friction >= 0 (finite), inverse_temperature > 0 (finite), seed a non-negative integer below 2^53
// (JSON numbers are doubles here); InputError naming `owner` otherwise.
LangevinParams read_params(const Json& params, const std::string& owner);
// params without the three Langevin keys: what the base method is given.
Json base_params(const Json& params);

class GlaStepper final : public NewtonianStepper {
 public:
  // `project`: apply the RATTLE velocity projection after the kick (bases that enforce the constraints). Throws
  // InputError for a nondiagonal mass, or when `project` is asked on a model without constraints.
  GlaStepper(const NewtonianModel& model, const LangevinParams& p, std::unique_ptr<NewtonianStepper> inner, bool project);

  StepStatus step(NewtonianState& x, double h, OpCounters& c) override;
  void reset() override;
  // The base's own observables (RATTLE's multipliers).
  void method_observables(std::vector<std::pair<std::string, double>>& out) const override {
    inner_->method_observables(out);
  }

  // The stochastic half of step(): the OU flow over h with the noise of step `step_index`, then (if asked) the
  // projection. Public so that tests can look at the velocity the deterministic step starts from.
  void thermalize(NewtonianState& x, double h, std::uint64_t step_index);
  std::uint64_t steps_taken() const { return steps_; }

 private:
  const NewtonianModel& model_;
  LangevinParams p_;
  std::unique_ptr<NewtonianStepper> inner_;
  bool project_;
  std::uint64_t steps_ = 0;
  // Per-coordinate decay e^{-gamma h/m_i} and noise amplitude, for the h they were computed at.
  Eigen::VectorXd decay_, amplitude_;
  double h_cached_ = 0;
  Eigen::VectorXd inverse_mass_;  // diagonal of M^-1, for the projection
};

// base made stochastic: id "gla_<base id>", the base's family, constraints and penalty needs; claims: stochastic
// (core/method.hpp MethodClaims::stochastic: what the battery checks for it) and implicit as the base is; no order
// (the splitting's weak order 1, spec 2.9, is not a trajectory order), symplecticity, symmetry, invariant or energy
// claim: a stochastic run keeps none of them. Throws std::invalid_argument when base has no Newtonian factory.
MethodInfo with_langevin(MethodInfo base);

}  // namespace gib::gla
