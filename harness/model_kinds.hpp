// What the harness needs to know about a model kind to run, check and time it: the state type, how to
// build a stepper for it, how far two states are apart, when a state is unhealthy, how a state is written to
// JSON, and what a run of it records beyond the generic observers (its Observer). The runner, the battery and
// the timing pass are templates over these traits and reach them through visit_kind, the one place that maps
// a problem to its kind: generic harness code never branches on a kind (docs/add_a_model_kind.md).
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <memory>
#include <stdexcept>
#include <string>
#include <tuple>
#include <type_traits>
#include <vector>

#include "core/method.hpp"
#include "core/metrics.hpp"
#include "core/problem.hpp"
#include "core/vector_field_problem.hpp"
#include "harness/cell.hpp"
#include "harness/clocked_model.hpp"

namespace gib {

// Errors of a state against a reference state: named components and the primary state_err (the
// problem's error metric for order fits, rank targets and baselines). A kind has as many as its kErrorNames.
template <std::size_t N> struct StateErrorsOf {
  static constexpr std::size_t kSize = N;
  std::array<double, kSize> value{};  // value[kSize - 1] is state_err
  double state_err() const { return value[kSize - 1]; }
};
using StateErrors = StateErrorsOf<5>;  // the rigid body's, the particles' and the Newtonian kind's

// The entries of v as JSON numbers (null where not finite), for the kinds' state_json and series.
Json vector_json(const Eigen::VectorXd& v);

// The outcome of a structural claim the kind itself can check (the battery reports it as a claim check): a vector
// field's volume preservation and Lyapunov monotonicity.
struct StructureClaim {
  std::string claim;
  bool passed = false;
  double measured = 0, bound = 0;
  std::string detail;
};

// A series a kind can record on request (observe.series_extra), beyond the generic ones.
struct ExtraSeries {
  const char* name;
  const char* what;
};

// The states the structure probes look at: the initial state and at most kMore states spread over the run's
// reference sampling points (every N / ref_samples steps).
template <class State> class ProbePoints {
 public:
  static constexpr std::int64_t kMore = 7;
  ProbePoints(const State& x0, const ObserveOptions& o)
      : every_(std::max<std::int64_t>(1, (std::max<std::int64_t>(o.ref_samples, 1) + kMore - 1) / kMore)) {
    if (!o.probes.empty()) points_.push_back(x0);
  }
  void sample(const State& s) {
    if (points_.empty()) return;  // no probes asked for
    if (seen_++ % every_ == every_ - 1 && static_cast<std::int64_t>(points_.size()) <= kMore) points_.push_back(s);
  }
  const std::vector<State>& points() const { return points_; }

 private:
  std::int64_t every_, seen_ = 0;
  std::vector<State> points_;
};

struct RigidBodyKind {
  static constexpr ModelKind kModelKind = ModelKind::rigid_body;
  using ProblemType = RigidBodyProblem;
  using State = RigidBodyState;
  using InvariantType = RigidBodyInvariant;
  using ReferenceType = RigidBodyReference;
  using Errors = StateErrors;
  static constexpr std::array<ExtraSeries, 1> kExtraSeries = {{{metrics::Pi.name, "body angular momentum Pi, 3 numbers per sample"}}};
  // Structure probes of the method (observe.probes; harness/rigid_body_probes.hpp, McLachlan-Quispel spec 11).
  static constexpr std::array<ExtraSeries, 2> kProbes = {{
      {"poisson", "M9 poisson_err: |D J(Pi) D^T - J(Pi')|_F of the torque-free Pi-map, and the printed form (E1)"},
      {"reversibility", "M6 reversibility_err: |rho psi_h(rho psi_h(x)) - x|, rho(R, Pi) = (R, -Pi)"},
  }};
  static std::vector<StructureClaim> structure_claims(const MethodInfo&, const ProblemType&, const Json&, double) { return {}; }
  // rot_2norm is the spectral norm of R - R_ref; state_err = max(rot_2norm, mom_rel_err).
  static constexpr std::array<const char*, StateErrors::kSize> kErrorNames = {
      metrics::rot_geodesic.name, metrics::rot_2norm.name, metrics::mom_err.name, metrics::mom_rel_err.name,
      metrics::state_err.name};
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
  static bool hamiltonian_energy(const ProblemType&) { return true; }  // mechanics: H is the energy
  static bool constrained(const ProblemType&) { return false; }
  static std::vector<std::string> distribution_names(const ProblemType&) { return {}; }  // observe.distributions
  static unsigned structure(const ProblemType&) { return 0; }  // ModelStructure bits: vector fields only
  static double initial_angular_speed(const ProblemType& p) { return p.model().angular_velocity(p.initial_state().Pi).norm(); }

  // One torque evaluation as the methods make it, for the benchmarks' price of a force (bench/bench_floor.cpp);
  // a torque-free body has none to price.
  static bool has_force(const ProblemType& p) { return p.model().potential() != nullptr; }
  class ForceProbe {
   public:
    explicit ForceProbe(const ProblemType& p) : p_(p), R_(p.initial_state().R) {}
    void operator()() { T_ = p_.model().body_torque(R_); }
    const void* result() const { return T_.data(); }

   private:
    const ProblemType& p_;
    Mat3 R_;
    Vec3 T_;
  };

  // What a run of this kind records beyond the generic observers: Pi(t) on request; the structure probes asked for.
  class Observer {
   public:
    Observer(const ProblemType& p, const ObserveOptions& o);
    template <class Add> void observables(const State&, Add&&) const {}
    void sample(const State& x) { points_.sample(x); }
    void record_series(const State& x, const StateErrors&, Json& series) const;
    void write_metrics(Json& m) const;
    void finish(const MethodInfo& m, const Json& params, const Cell& cell, bool ok);
    void step_sample(const State&, bool /*in_window*/) {}  // no distributions for this kind
    void write_row(Json&) const {}

   private:
    const ProblemType& p_;
    const ObserveOptions& options_;
    bool pi_ = false;
    ProbePoints<State> points_;
    Json probe_metrics_ = Json::object();
  };
};

struct ParticlesKind {
  static constexpr ModelKind kModelKind = ModelKind::rigid_particles;
  using ProblemType = ParticlesProblem;
  using State = ParticlesState;
  using InvariantType = ParticlesInvariant;
  using ReferenceType = ParticlesReference;
  using Errors = StateErrors;
  static constexpr std::array<ExtraSeries, 2> kExtraSeries = {
      {{"configuration", "positions q_i ([x, y, z] each) and orientations Q_i (9 numbers each) of every particle"},
       {"orthogonality", "|Q_i^T Q_i - I|_F of every particle"}}};
  static constexpr std::array<ExtraSeries, 0> kProbes = {};  // observe.probes: none for this kind
  static std::vector<StructureClaim> structure_claims(const MethodInfo&, const ProblemType&, const Json&, double) { return {}; }
  // Euclidean norms over all particles of the q, Q (Frobenius), p and m differences; state_err is the norm
  // over all of (q, Q, p, m) together (Kjer's order plots, spec 6 Fig 3.5).
  static constexpr std::array<const char*, StateErrors::kSize> kErrorNames = {
      metrics::pos_err.name, metrics::rot_err.name, metrics::lin_mom_err.name, metrics::ang_mom_err.name,
      metrics::state_err.name};
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
  static bool hamiltonian_energy(const ProblemType&) { return true; }  // mechanics: H is the energy
  static bool constrained(const ProblemType&) { return false; }
  static std::vector<std::string> distribution_names(const ProblemType&) { return {}; }  // observe.distributions
  static unsigned structure(const ProblemType&) { return 0; }  // ModelStructure bits: vector fields only
  static double initial_angular_speed(const ProblemType&) { return NAN; }  // one per particle, none overall

  // One forces_and_torques call as the methods make it (bench/bench_floor.cpp).
  static bool has_force(const ProblemType&) { return true; }
  class ForceProbe {
   public:
    explicit ForceProbe(const ProblemType& p) : p_(p), x_(p.initial_state()) {}
    void operator()() { p_.model().forces_and_torques(x_, F_, tau_); }
    const void* result() const { return F_.data(); }

   private:
    const ProblemType& p_;
    State x_;
    Eigen::Matrix3Xd F_, tau_;
  };

  // The closest approach of two particles at the sampled steps (Kjer correlates energy errors with close
  // encounters; the series has it at every series point), and the configuration and orthogonality on request.
  class Observer {
   public:
    Observer(const ProblemType& p, const ObserveOptions& o);
    template <class Add> void observables(const State&, Add&&) const {}
    void sample(const State& x) { min_distance_ = std::min(min_distance_, p_.model().min_pair_distance(x)); }
    void record_series(const State& x, const StateErrors&, Json& series) const;
    void write_metrics(Json& m) const;
    void finish(const MethodInfo&, const Json& /*params*/, const Cell&, bool /*ok*/) {}
    void step_sample(const State&, bool /*in_window*/) {}  // no distributions for this kind
    void write_row(Json&) const {}

   private:
    const ProblemType& p_;
    bool configuration_ = false, orthogonality_ = false;
    double min_distance_ = INFINITY;
  };
};

struct NewtonianKind {
  static constexpr ModelKind kModelKind = ModelKind::newtonian;
  using ProblemType = NewtonianProblem;
  using State = NewtonianState;
  using InvariantType = NewtonianInvariant;
  using ReferenceType = NewtonianReference;
  using Errors = StateErrors;
  static constexpr std::array<ExtraSeries, 1> kExtraSeries = {{{"configuration", "the coordinates q, n numbers per sample"}}};
  static constexpr std::array<ExtraSeries, 0> kProbes = {};  // observe.probes: none for this kind
  // g(q) = 0 and G v = 0 for methods that enforce the constraints, and the sampled kinetic temperature of stochastic
  // methods (harness/model_kinds_newtonian_claims.cpp).
  static std::vector<StructureClaim> structure_claims(const MethodInfo& m, const ProblemType& p, const Json& params,
                                                      double h);
  // Euclidean norms of the q and v differences, the error of the problem's tip coordinates (Tao-Owhadi Fig 1:
  // the last bob), the largest coordinate error, and state_err = |(q, v) - (q, v)_ref|.
  static constexpr std::array<const char*, StateErrors::kSize> kErrorNames = {
      metrics::pos_err.name, metrics::vel_err.name, metrics::tip_err.name, metrics::max_coord_err.name,
      metrics::state_err.name};
  static std::unique_ptr<Stepper<State>> stepper(const MethodInfo& m, const ProblemType& p, const Json& params);
  // The timing pass's split (harness/timing.cpp): the same stepper on the problem's model clocked into `clock`
  // (harness/clocked_model.hpp: time inside V, grad V and the Hessians). Kinds without this hook report no split.
  static ClockedStepper<State> clocked_stepper(const MethodInfo& m, const ProblemType& p, const Json& params,
                                               ModelClock& clock);
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
  static bool hamiltonian_energy(const ProblemType&) { return true; }  // mechanics: H is the energy
  static bool constrained(const ProblemType& p) { return p.model().constraint_set() != nullptr; }
  static std::vector<std::string> distribution_names(const ProblemType& p);  // observe.distributions
  static unsigned structure(const ProblemType&) { return 0; }  // ModelStructure bits: vector fields only
  static double initial_angular_speed(const ProblemType&) { return NAN; }

  // One gradient of V as the methods take it (bench/bench_floor.cpp).
  static bool has_force(const ProblemType&) { return true; }
  class ForceProbe {
   public:
    explicit ForceProbe(const ProblemType& p) : p_(p), q_(p.initial_state().q) {}
    void operator()() { p_.model().gradient(q_, g_); }
    const void* result() const { return g_.data(); }

   private:
    const ProblemType& p_;
    Eigen::VectorXd q_, g_;
  };

  // The problem's observables (the quantities a paper plots: the DNA chain's mean angle, omega^2 |g|) at every
  // step; with the state-error series, every error component (Tao-Owhadi Fig 1 plots the tip's error, not the
  // whole state's); q on request.
  class Observer {
   public:
    Observer(const ProblemType& p, const ObserveOptions& o);
    template <class Add> void observables(const State& x, Add&& add) const {
      for (const auto& o : p_.observables()) add(o.name, o.value(x));
    }
    void sample(const State&) {}
    void record_series(const State& x, const StateErrors& err, Json& series) const;
    void write_metrics(Json&) const {}
    void finish(const MethodInfo&, const Json& /*params*/, const Cell&, bool /*ok*/) {}
    // Every step's state (and the initial one): the requested distributions count it once in the window.
    void step_sample(const State& x, bool in_window);
    // row["distributions"][name] = {lo, hi, bin, counts, underflow, overflow, samples, states, radial}, when asked.
    void write_row(Json& row) const;

   private:
    struct Histogram {
      const NewtonianDistribution* d;
      std::vector<std::int64_t> counts;
      std::int64_t underflow = 0, overflow = 0, states = 0;
    };
    const ProblemType& p_;
    bool errors_ = false, configuration_ = false;
    std::vector<Histogram> histograms_;
    std::vector<double> scratch_;
  };
};

// A general vector field x' = f(x) on R^n (McLachlan-Quispel; core/vector_field.hpp); traits implemented in
// harness/model_kinds_vector_field.cpp.
struct VectorFieldKind {
  static constexpr ModelKind kModelKind = ModelKind::vector_field;
  using ProblemType = VectorFieldProblem;
  using State = VectorFieldState;
  using InvariantType = VectorFieldInvariant;
  using ReferenceType = VectorFieldReference;
  // The largest coordinate error and state_err = |x - x_ref|_2 (spec 11 M2: e(t_n)).
  static constexpr std::array<const char*, 2> kErrorNames = {metrics::max_coord_err.name, metrics::state_err.name};
  using Errors = StateErrorsOf<kErrorNames.size()>;
  static constexpr std::array<ExtraSeries, 1> kExtraSeries = {{{"state", "the state x, n numbers per sample (phase portraits)"}}};
  // The method's volume_preserving claim on a divergence-free field (|det D psi_h - 1| at round-off at points
  // along a short run) and its lyapunov_monotone claim on a field with a Lyapunov function (no step raises V, at
  // h and 10 h), checked by the battery at its coarse step h.
  static std::vector<StructureClaim> structure_claims(const MethodInfo& m, const ProblemType& p, const Json& params,
                                                      double h);
  // Structure probes of the method (observe.probes; harness/vector_field_probes.hpp, spec 11).
  static constexpr std::array<ExtraSeries, 8> kProbes = {{
      {"adjoint", "M5 adjoint_err: |psi_-h(psi_h(x)) - x|"},
      {"reversibility", "M6 reversibility_err: |R psi_h(R psi_h(x)) - x| (models with a reversing involution)"},
      {"symmetry", "M7 symmetry_err: |h(psi_h(x)) - psi_h(h(x))| (models with a symmetry h)"},
      {"volume", "M8 volume_err: |det(d psi_h / dx) - 1|"},
      {"symplecticity", "M9 symplecticity_err: |D^T J D - J|_F (separable Hamiltonian models)"},
      {"lyapunov", "M11 lyapunov_exponent over the run, by the method's tangent map"},
      {"poisson", "M9 poisson_err: |D S(x) D^T - S(psi_h(x))|_F (models with a Poisson tensor S, or canonical J)"},
      {"phase", "M2 phase_shift_final, shape_err_final: the time shift of the reference closest to the final state"},
  }};
  static std::unique_ptr<Stepper<State>> stepper(const MethodInfo& m, const ProblemType& p, const Json& params);
  static Errors errors(const ProblemType& p, const State& x, const State& ref);
  static const ReferenceType* reference(const ProblemType& p, const MethodInfo&) { return p.reference(); }
  static bool finite(const State& s) { return s.x.allFinite(); }
  static std::string divergence(const State& x, const ProblemType& p, double factor);
  static double energy_scale(const ProblemType& p) { return p.energy_scale(); }
  static double manifold_residual(const ProblemType&, const State&) { return 0.0; }  // R^n: no manifold
  static double turn(const State&, const State&) { return 0.0; }  // no rotations
  static double energy(const ProblemType& p, const State& s) { return p.model().energy(s.x); }  // NaN without one
  static double distance(const State& a, const State& b);  // |a - b| / max(|b|, 1)
  static bool bitwise_equal(const State& a, const State& b);
  static Json state_json(const State& s);
  static double error_scale(const ProblemType& p);  // max(|x0|, 1)
  static bool torque_free(const ProblemType&) { return false; }
  static bool uniform_field(const ProblemType&) { return false; }
  // Is the energy a Hamiltonian, so that a symplectic method keeps it bounded? A skew-gradient model's energy is its
  // first integral I, which a symplectic method need not keep (integral3d is not Hamiltonian).
  static bool hamiltonian_energy(const ProblemType& p) { return (p.model().structure() & kSeparableHamiltonian) != 0; }
  static bool constrained(const ProblemType&) { return false; }
  static std::vector<std::string> distribution_names(const ProblemType&) { return {}; }  // observe.distributions
  static unsigned structure(const ProblemType& p) { return p.model().structure(); }
  static double initial_angular_speed(const ProblemType&) { return NAN; }

  // One evaluation of f as the methods make it (bench/bench_floor.cpp).
  static bool has_force(const ProblemType&) { return true; }
  class ForceProbe {
   public:
    explicit ForceProbe(const ProblemType& p) : p_(p), x_(p.initial_state().x) {}
    void operator()() { p_.model().rhs(x_, f_); }
    const void* result() const { return f_.data(); }

   private:
    const ProblemType& p_;
    Eigen::VectorXd x_, f_;
  };

  // The problem's observables every step; the state on request (phase portraits, spec 3.3); with a Lyapunov
  // function, the steps that raise it (spec 11 M10); the structure probes the options ask for, at the initial state
  // and at states sampled along the run.
  class Observer {
   public:
    Observer(const ProblemType& p, const ObserveOptions& o);
    template <class Add> void observables(const State& s, Add&& add) {
      for (const auto& o : p_.observables()) add(o.name, o.value(s));
      count_lyapunov_increase(s);
    }
    // Called at the reference sampling points and always after the last step.
    void sample(const State& s) {
      points_.sample(s);
      if (phase_) last_sample_ = s;
    }
    void record_series(const State& s, const Errors&, Json& series) const;
    void write_metrics(Json& m) const;
    void finish(const MethodInfo& m, const Json& params, const Cell& cell, bool ok);
    void step_sample(const State&, bool /*in_window*/) {}  // no distributions for this kind
    void write_row(Json&) const {}

   private:
    void count_lyapunov_increase(const State& s);
    void split_phase(const Cell& cell, bool ok, Json& notes);

    const ProblemType& p_;
    const ObserveOptions& options_;
    bool state_ = false;
    ProbePoints<State> points_;
    Json probe_metrics_ = Json::object();
    bool phase_ = false;
    State last_sample_;
    double last_v_ = NAN;
    std::int64_t v_increases_ = 0;
  };
};

// Every model kind, in the order of the ModelKind enum. Adding a kind means adding its traits here.
using ModelKinds = std::tuple<RigidBodyKind, ParticlesKind, NewtonianKind, VectorFieldKind>;

// f(std::type_identity<Kind>{}) for the traits of kind k; every branch must return the same type.
template <class F, std::size_t I = 0> decltype(auto) visit_kind(ModelKind k, F&& f) {
  using Kind = std::tuple_element_t<I, ModelKinds>;
  if constexpr (I + 1 == std::tuple_size_v<ModelKinds>) {
    if (k != Kind::kModelKind) throw std::logic_error("visit_kind: a model kind without traits");
    return f(std::type_identity<Kind>{});
  } else {
    if (k == Kind::kModelKind) return f(std::type_identity<Kind>{});
    return visit_kind<F, I + 1>(k, std::forward<F>(f));
  }
}

// f(std::type_identity<Kind>{}) for every kind, in order.
template <class F> void for_each_kind(F&& f) {
  std::apply([&](auto... kinds) { (f(std::type_identity<decltype(kinds)>{}), ...); }, ModelKinds{});
}

// f(std::type_identity<Kind>{}, problem as Kind::ProblemType): the one dispatch from a problem to its kind.
// Problem::kind() names the class a problem is (core/problem.hpp), so the downcast is exact.
template <class F> decltype(auto) visit_kind(const Problem& p, F&& f) {
  return visit_kind(p.kind(), [&](auto kind) -> decltype(auto) {
    using Kind = typename decltype(kind)::type;
    return f(kind, static_cast<const typename Kind::ProblemType&>(p));
  });
}

// The metric stems a run of this problem reports: every error against the reference (the kind's kErrorNames)
// and every invariant error; each is written with the suffixes _final and _max.
std::vector<std::string> metric_stems(const Problem& p);

// Is this the stem of an error against the reference of any kind (kErrorNames)?
bool is_reference_error_stem(const std::string& stem);

// The metrics `gibench run` prints for this problem, in order: every error against the reference at the end
// (state_err first), every invariant's largest error, the manifold residual.
std::vector<std::string> summary_metrics(const Problem& p);

// |omega(0)| of a rigid body (Buss's mean rotation per step, T |omega0| / N); NaN for kinds without one.
double initial_angular_speed(const Problem& p);

// Throws InputError naming the valid ones when the options ask for a series this problem's kind cannot record.
void check_series_options(const Problem& p, const ObserveOptions& o);

// Does this problem instance have what the registry says it has (its kind, no potential when declared
// torque-free, constraints exactly when declared constrained)? Empty when it does; otherwise what differs.
std::string registry_mismatch(const Problem& p, const ProblemInfo& info);

// {"kind", "error_estimate" at T} of the problem's reference, or null when it has none.
Json reference_summary(const Problem& p, double T);

// The reference states at the given times as JSON objects (state, "t", "error_estimate"); throws InputError
// when the problem has no reference.
Json reference_states(const Problem& p, const std::vector<double>& times);

// Build the method's stepper once for the problem (validates its parameters against the model kind).
void probe_stepper(const MethodInfo& m, const Problem& p, const Json& params);

}  // namespace gib
