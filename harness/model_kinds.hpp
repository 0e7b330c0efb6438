// What the harness needs to know about a model kind to run, check and time it: the state type, how to
// build a stepper for it, how far two states are apart, when a state is unhealthy, and how a state is
// written to JSON. The runner, the battery and the timing pass are templates over these traits, so the
// rigid body and N rigid particles share one implementation of every observer and claim check.
#pragma once

#include <array>
#include <memory>
#include <string>
#include <vector>

#include "core/method.hpp"
#include "core/problem.hpp"

namespace gib {

// Errors of a state against a reference state: named components and the primary state_err (the
// problem's error metric for order fits, rank targets and baselines).
struct StateErrors {
  static constexpr std::size_t kSize = 5;
  std::array<double, kSize> value{};  // value[kSize - 1] is state_err
  double state_err() const { return value[kSize - 1]; }
};

struct RigidBodyKind {
  using ProblemType = RigidBodyProblem;
  using State = RigidBodyState;
  using InvariantType = RigidBodyInvariant;
  using ReferenceType = RigidBodyReference;
  // rot_2norm is the spectral norm of R - R_ref; state_err = max(rot_2norm, mom_rel_err).
  static constexpr std::array<const char*, StateErrors::kSize> kErrorNames = {"rot_geodesic", "rot_2norm", "mom_err",
                                                                              "mom_rel_err", "state_err"};
  static std::unique_ptr<Stepper<State>> stepper(const MethodInfo& m, const ProblemType& p, const Json& params);
  static StateErrors errors(const State& x, const State& ref);
  static StateErrors errors(const ProblemType&, const State& x, const State& ref) { return errors(x, ref); }
  static const ReferenceType* reference(const ProblemType& p, const MethodInfo&) { return p.reference(); }
  static bool finite(const State& x);
  // Empty when healthy; otherwise why the state left the problem's bounds (factor times its scales).
  static std::string divergence(const State& x, const ProblemType& p, double factor);
  // The runner declares divergence when |E - E0| passes a multiple of this (never zero: core/problem.hpp).
  static double energy_scale(const ProblemType& p) { return p.energy_scale(); }
  static double manifold_residual(const State& x);  // |R^T R - I|_F
  static double manifold_residual(const ProblemType&, const State& x) { return manifold_residual(x); }
  static double turn(const State& before, const State& after);  // rotation angle of one step (radians)
  static double energy(const ProblemType& p, const State& x);
  static double distance(const State& a, const State& b);  // for the symmetry check, relative to |Pi|
  static bool bitwise_equal(const State& a, const State& b);
  static Json state_json(const State& x);
  static double error_scale(const ProblemType&) { return 1.0; }  // state_err is already relative
  static bool torque_free(const ProblemType& p) { return p.model().torque_free(); }
  static bool uniform_field(const ProblemType& p) { return p.model().uniform_field(); }
};

struct ParticlesKind {
  using ProblemType = ParticlesProblem;
  using State = ParticlesState;
  using InvariantType = ParticlesInvariant;
  using ReferenceType = ParticlesReference;
  // Euclidean norms over all particles of the q, Q (Frobenius), p and m differences; state_err is the norm
  // over all of (q, Q, p, m) together (Kjer's order plots, spec 6 Fig 3.5).
  static constexpr std::array<const char*, StateErrors::kSize> kErrorNames = {"pos_err", "rot_err", "lin_mom_err",
                                                                              "ang_mom_err", "state_err"};
  static std::unique_ptr<Stepper<State>> stepper(const MethodInfo& m, const ProblemType& p, const Json& params);
  static StateErrors errors(const State& x, const State& ref);
  static StateErrors errors(const ProblemType&, const State& x, const State& ref) { return errors(x, ref); }
  static const ReferenceType* reference(const ProblemType& p, const MethodInfo&) { return p.reference(); }
  static bool finite(const State& x);
  static std::string divergence(const State& x, const ProblemType& p, double factor);
  static double energy_scale(const ProblemType& p) { return p.energy_scale(); }
  static double manifold_residual(const State& x);  // max over particles of |Q_i^T Q_i - I|_F
  static double manifold_residual(const ProblemType&, const State& x) { return manifold_residual(x); }
  static double turn(const State& before, const State& after);  // largest rotation angle of any particle
  static double energy(const ProblemType& p, const State& x);
  static double distance(const State& a, const State& b);  // state_err of a against b
  static bool bitwise_equal(const State& a, const State& b);
  static Json state_json(const State& x);
  // state_err is absolute; order fits and round-off floors judge it against the size of the initial state.
  static double error_scale(const ProblemType& p);
  static bool torque_free(const ProblemType&) { return false; }
  static bool uniform_field(const ProblemType&) { return false; }
};

struct NewtonianKind {
  using ProblemType = NewtonianProblem;
  using State = NewtonianState;
  using InvariantType = NewtonianInvariant;
  using ReferenceType = NewtonianReference;
  // Euclidean norms of the q and v differences, the error of the problem's tip coordinates (Tao-Owhadi Fig 1:
  // the last bob), the largest coordinate error, and state_err = |(q, v) - (q, v)_ref|.
  static constexpr std::array<const char*, StateErrors::kSize> kErrorNames = {"pos_err", "vel_err", "tip_err",
                                                                              "max_coord_err", "state_err"};
  static std::unique_ptr<Stepper<State>> stepper(const MethodInfo& m, const ProblemType& p, const Json& params);
  static StateErrors errors(const ProblemType& p, const State& x, const State& ref);
  // Methods that enforce the constraints (RATTLE) are measured against the constrained solution.
  static const ReferenceType* reference(const ProblemType& p, const MethodInfo& m);
  static bool finite(const State& x);
  static std::string divergence(const State& x, const ProblemType& p, double factor);
  static double energy_scale(const ProblemType& p) { return p.energy_scale(); }
  static double manifold_residual(const ProblemType& p, const State& x);  // |g(q)|, 0 without constraints
  static double turn(const State&, const State&) { return 0.0; }  // no rotations
  static double energy(const ProblemType& p, const State& x);
  static double distance(const State& a, const State& b);  // |a - b| / max(|b|, 1)
  static bool bitwise_equal(const State& a, const State& b);
  static Json state_json(const State& x);
  static double error_scale(const ProblemType& p);  // max(|(q0, v0)|, 1)
  static bool torque_free(const ProblemType&) { return false; }
  static bool uniform_field(const ProblemType&) { return false; }
};

// {"kind", "error_estimate" at T} of the problem's reference, or null when it has none.
Json reference_summary(const Problem& p, double T);

// The reference states at the given times as JSON objects (state, "t", "error_estimate"); throws InputError
// when the problem has no reference.
Json reference_states(const Problem& p, const std::vector<double>& times);

// Build the method's stepper once for the problem (validates its parameters against the model kind).
void probe_stepper(const MethodInfo& m, const Problem& p, const Json& params);

}  // namespace gib
