// What a problem is to gibench: a model kind, named presets (one per paper setup), parameter
// overrides, an initial state, its invariants and a reference solution. The registry
// (problems/registry.cpp) lists every problem, one line each.
#pragma once

#include <Eigen/Core>
#include <functional>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "core/method.hpp"
#include "core/model.hpp"
#include "core/state.hpp"

namespace gib {

using Json = nlohmann::json;

struct PresetInfo {
  std::string name;
  std::string description;  // where the numbers come from, with the spec section
  // A stress case (Krysl's flipped Coulomb body, which every method loses at large steps): runnable and
  // rankable, but the conformance battery does not hold claims to it.
  bool stress = false;
  // False for presets too costly for the per-commit battery (Kjer's N = 100 all-pairs system); the battery
  // holds the same claims on a smaller preset of the same problem.
  bool in_battery = true;
};

struct ParameterInfo {
  std::string name;         // key for --set and config files
  std::string description;  // units, shape, constraints
};

// How the error of an invariant is measured (GUIDE 3).
enum class InvariantErrorKind {
  relative,     // (I(t) - I0)/|I0|, signed scalar
  absolute,     // I(t) - I0, signed scalar
  vector_norm,  // |I(t) - I0|, vector-valued invariant
};

// Value of an invariant: a scalar or a small vector, stored inline (no allocation per step).
using InvariantValue = Eigen::Matrix<double, Eigen::Dynamic, 1, 0, 6, 1>;

// One invariant of a problem: how to evaluate it on a state and how its error is measured.
template <class State> struct InvariantOf {
  Invariant id;
  std::string metric;  // JSON metric stem, e.g. "energy_rel_err"
  InvariantErrorKind kind;
  std::function<InvariantValue(const State&)> value;
  // Size against which round-off in an absolute or vector error is judged when the invariant itself can be
  // zero (Kjer's particles start at rest: total momentum 0, but each p_i grows to O(1)); 0: use |I(x0)|.
  double scale = 0;
};
using RigidBodyInvariant = InvariantOf<RigidBodyState>;
using ParticlesInvariant = InvariantOf<ParticlesState>;

// A reference solution: exact (closed form) or numerical, with its own error estimate.
template <class State> class ReferenceOf {
 public:
  virtual ~ReferenceOf() = default;
  virtual State state(double t) const = 0;
  virtual std::string kind() const = 0;  // "exact" or "numerical"
  // Estimated error of state(t) in the metric the harness reports as state_err for this kind (rigid body:
  // max of rotation 2-norm and relative momentum error; particles: Euclidean norm over all q, Q, p, m).
  virtual double error_estimate(double t) const = 0;
};
using RigidBodyReference = ReferenceOf<RigidBodyState>;
using ParticlesReference = ReferenceOf<ParticlesState>;

class Problem {
 public:
  virtual ~Problem() = default;
  virtual ModelKind kind() const = 0;
  const std::string& id() const { return id_; }
  const std::string& preset() const { return preset_; }
  const std::string& initial_condition() const { return ic_; }
  // Every parameter and the initial state, canonical: equal JSON means the same problem.
  virtual Json parameters() const = 0;
  // 16 hex digits (FNV-1a of the canonical parameter dump).
  std::string parameter_hash() const;
  // A time over which the solution changes by O(1) (1/|omega| for a rigid body); sets battery scales.
  virtual double time_scale() const = 0;

 protected:
  Problem(std::string id, std::string preset, std::string ic)
      : id_(std::move(id)), preset_(std::move(preset)), ic_(std::move(ic)) {}

 private:
  std::string id_, preset_, ic_;
};

class RigidBodyProblem : public Problem {
 public:
  RigidBodyProblem(std::string id, std::string preset, std::string ic, RigidBodyModel model,
                   RigidBodyState initial, std::shared_ptr<const RigidBodyReference> reference)
      : Problem(std::move(id), std::move(preset), std::move(ic)),
        model_(std::move(model)),
        initial_(initial),
        reference_(std::move(reference)) {
    compute_scales();
  }

  ModelKind kind() const override { return ModelKind::rigid_body; }
  Json parameters() const override;
  double time_scale() const override;
  // Sizes of the initial state for the runner's divergence test, computed once: |E0| + KE0 + |V(R0)| +
  // |T(R0)| x 1 rad (a body released from rest still has its potential and torque, so this is zero only for
  // a free body at rest, which never moves: then 1e-300), and the momentum that energy allows,
  // max(|Pi0|, sqrt(2 I_max E)).
  double energy_scale() const { return energy_scale_; }
  double momentum_scale() const { return momentum_scale_; }

  const RigidBodyModel& model() const { return model_; }
  const RigidBodyState& initial_state() const { return initial_; }
  const RigidBodyReference* reference() const { return reference_.get(); }
  // Energy always; Casimir and spatial momentum when torque-free; problems may add more.
  virtual std::vector<RigidBodyInvariant> invariants() const;

 private:
  void compute_scales();

  RigidBodyModel model_;
  RigidBodyState initial_;
  std::shared_ptr<const RigidBodyReference> reference_;
  double energy_scale_ = 0, momentum_scale_ = 0;
};

// ---------------------------------------------------------------------------------------------
// Rigid particles (GUIDE 2): N bodies with translation and rotation and a pair potential.

class ParticlesProblem : public Problem {
 public:
  // `parameters` holds every physical parameter (masses, inertia, potential constants, seeds); the
  // initial state is added by parameters().
  ParticlesProblem(std::string id, std::string preset, std::string ic, std::shared_ptr<const RigidParticlesModel> model,
                   ParticlesState initial, Json parameters, double time_scale,
                   std::shared_ptr<const ParticlesReference> reference = nullptr);

  ModelKind kind() const override { return ModelKind::rigid_particles; }
  Json parameters() const override;
  double time_scale() const override { return time_scale_; }
  // Sizes of the initial state, computed once: |H0| + KE0 + one reduced energy unit per particle (the size
  // of a dipole bond; Kjer's particles start at rest, so H0 alone can be ~1e-4), and the largest |q_i| + 1.
  // Round-off bounds of the momentum invariants and the runner's divergence test are relative to them.
  double energy_scale() const { return energy_scale_; }
  double extent() const { return extent_; }

  const RigidParticlesModel& model() const { return *model_; }
  std::shared_ptr<const RigidParticlesModel> model_ptr() const { return model_; }
  const ParticlesState& initial_state() const { return initial_; }
  const ParticlesReference* reference() const { return reference_.get(); }
  // Energy (relative; the absolute error is reported too, since H0 can be tiny), total linear momentum
  // sum p_i, total angular momentum sum (q_i x p_i + Q_i m_i).
  virtual std::vector<ParticlesInvariant> invariants() const;

 private:
  std::shared_ptr<const RigidParticlesModel> model_;
  ParticlesState initial_;
  Json parameters_;
  double time_scale_;
  double energy_scale_ = 0, extent_ = 0;
  std::shared_ptr<const ParticlesReference> reference_;
};

// ---------------------------------------------------------------------------------------------
// Newtonian systems (GUIDE 2; Tao-Owhadi): M qdd = -grad V on R^n, possibly penalised constraints.

using NewtonianInvariant = InvariantOf<NewtonianState>;
using NewtonianReference = ReferenceOf<NewtonianState>;

// A named scalar of the state that a paper plots (the DNA chain's mean angle, omega^2 |g| of a penalised
// pendulum): recorded in series and summarised in the metrics as <name>_final, _max, _min.
template <class State> struct ObservableOf {
  std::string name;
  std::function<double(const State&)> value;
};
using NewtonianObservable = ObservableOf<NewtonianState>;

// A sampled distribution a paper histograms (Tao-Owhadi Figs 4 and 7: the O-O distances of a water cluster): each
// state contributes the values `values` appends, counted in bins of width `bin` from `lo` to `hi` when a run asks for
// it by name (observe.distributions). `radial`: the values are distances in 3-D, so a density normalised by the
// shell volume 4 pi r^2 dr (a radial distribution function) is meaningful.
struct NewtonianDistribution {
  std::string name;
  std::string description;
  double lo = 0, hi = 0, bin = 0;
  bool radial = false;
  std::function<void(const NewtonianState&, std::vector<double>& values)> values;
};

class NewtonianProblem : public Problem {
 public:
  struct Extras {
    std::vector<NewtonianInvariant> invariants;  // beyond energy (momenta of a free cluster, ...)
    std::vector<NewtonianObservable> observables;
    // Coordinates whose error a paper plots (Tao-Owhadi Fig 1: the last bob's x2, y2), reported as tip_err.
    std::vector<int> tip;
    // The constrained (DAE, omega -> infinity) solution, for methods that enforce the constraints exactly
    // and for comparisons against it (Fig 1's benchmark); null when the model has no constraints.
    std::shared_ptr<const NewtonianReference> constrained_reference;
    std::vector<NewtonianDistribution> distributions;
  };

  // `parameters` holds every physical parameter (masses, lengths, omega, seeds); the initial state is added
  // by parameters(). `reference` is the solution of the model as given (the penalised system).
  NewtonianProblem(std::string id, std::string preset, std::string ic, std::shared_ptr<const NewtonianModel> model,
                   NewtonianState initial, Json parameters, double time_scale,
                   std::shared_ptr<const NewtonianReference> reference, Extras extras = {});

  ModelKind kind() const override { return ModelKind::newtonian; }
  Json parameters() const override;
  double time_scale() const override { return time_scale_; }
  // |H0| + KE0 + |V(q0)| + |grad V(q0)| x extent (the work the initial force does across the system; a chain
  // released from rest off its minimum has it even where V(q0) = 0), at least 1e-300, and the largest
  // |q_i| + 1: the scales of the divergence test.
  double energy_scale() const { return energy_scale_; }
  double extent() const { return extent_; }

  const NewtonianModel& model() const { return *model_; }
  std::shared_ptr<const NewtonianModel> model_ptr() const { return model_; }
  const NewtonianState& initial_state() const { return initial_; }
  const NewtonianReference* reference() const { return reference_.get(); }
  const NewtonianReference* constrained_reference() const { return extras_.constrained_reference.get(); }
  // Energy (relative) plus the problem's extra invariants.
  std::vector<NewtonianInvariant> invariants() const;
  const std::vector<NewtonianObservable>& observables() const { return extras_.observables; }
  const std::vector<int>& tip() const { return extras_.tip; }
  const std::vector<NewtonianDistribution>& distributions() const { return extras_.distributions; }

 private:
  std::shared_ptr<const NewtonianModel> model_;
  NewtonianState initial_;
  Json parameters_;
  double time_scale_;
  double energy_scale_ = 0, extent_ = 0;
  std::shared_ptr<const NewtonianReference> reference_;
  Extras extras_;
};

struct ProblemInfo {
  std::string id;
  std::string display_name;
  std::string citation;
  ModelKind kind;
  // No potential in any preset (methods with torque_free_only can run on it). False unless declared: a problem
  // that forgets it only loses methods, never runs one where it is wrong (a test holds every preset to it).
  bool torque_free = false;
  bool constrained = false;  // a Newtonian model with holonomic constraints (methods enforcing them can run on it)
  unsigned structure = 0;    // ModelStructure bits every preset's vector field has (core/vector_field.hpp)
  std::vector<PresetInfo> presets;
  std::vector<ParameterInfo> parameters;
  // ic: "preset" (the preset's own initial state) or "random:K" (seeded random state, K >= 1).
  // Throws InputError on an unknown preset, a bad override or a non-physical value.
  std::function<std::unique_ptr<Problem>(const std::string& preset, const Json& overrides, const std::string& ic)>
      make;
};

const std::vector<ProblemInfo>& problem_registry();
const ProblemInfo& find_problem(const std::string& id);

// Why the method cannot run on the problem (it does not support the model kind; it needs a torque-free body and
// the problem has a potential; it enforces or penalises constraints the problem does not have), or "" when it can.
// The one compatibility predicate: run, sweeps, the compatibility matrix, the battery, rank and the benchmarks use
// it, on the registry's declaration, which every preset is tested to match (harness registry_mismatch).
std::string incompatibility(const MethodInfo& m, const ProblemInfo& p);
inline bool compatible(const MethodInfo& m, const ProblemInfo& p) { return incompatibility(m, p).empty(); }

}  // namespace gib
