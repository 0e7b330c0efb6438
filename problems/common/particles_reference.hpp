// A numerical reference for N rigid particles (dipolar soft spheres), where no closed form exists. As for
// the rigid body (numerical_reference.hpp), two independent long double integrations of
//   q' = p / M,  Q' = Q hat(I^-1 m),  p' = F,  m' = m x I^-1 m + tau:
//   primary    unit quaternions for the orientations, Boost.Odeint's Runge-Kutta-Fehlberg 7(8) stepper under
//              a standard step-size controller (tolerance 1e-17 relative to 1 + |entry|);
//   secondary  3x3 matrices for the orientations, Bulirsch-Stoer extrapolation.
// state(t) is the primary; error_estimate(t) is the largest difference of the two (Euclidean norm over all of
// q, Q, p, m, the harness's particle state_err) over the checkpoints up to t and at t, plus a floor for the
// rounding to double. The forces come from the problem in long double (the same pair formulas as the double
// kernel, instantiated at another precision).
//
// Determinism: both integrations restart their step-size control at checkpoints k * interval, and state(t)
// continues from the last checkpoint <= t, so state(t) depends on t alone, whatever was asked before.
// Thread safety: every member may be called concurrently (one mutex guards the memo).
#pragma once

#include <functional>
#include <memory>
#include <vector>

#include "core/problem.hpp"

namespace gib {

struct ParticlesForcesLD {
  using LD = long double;
  using Matrix3XL = Eigen::Matrix<LD, 3, Eigen::Dynamic>;
  // Space-frame forces and body torques at positions q and orientations Q (F and tau are sized by the caller).
  std::function<void(const Matrix3XL& q, const std::vector<so3::Mat3T<LD>>& Q, Matrix3XL& F, Matrix3XL& tau)> eval;
};

struct ParticlesReferenceSetup {
  std::vector<double> mass;     // per particle
  std::vector<Vec3> inertia;    // principal moments per particle
  ParticlesState x0;
  ParticlesForcesLD forces;
  double checkpoint_interval = 1.0;  // > 0
};

class ParticlesNumericalReference final : public ParticlesReference {
 public:
  explicit ParticlesNumericalReference(ParticlesReferenceSetup setup);
  ~ParticlesNumericalReference() override;
  ParticlesNumericalReference(const ParticlesNumericalReference&) = delete;
  ParticlesNumericalReference& operator=(const ParticlesNumericalReference&) = delete;

  // t >= 0 (throws std::domain_error otherwise). state(0) is the initial state, bit for bit.
  ParticlesState state(double t) const override;
  std::string kind() const override { return "numerical"; }
  double error_estimate(double t) const override;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace gib
