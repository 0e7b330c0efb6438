// What a method is to gibench: metadata with its claims, and one factory per supported model kind.
// The registry (methods/registry.cpp) lists every method, one line each; the conformance battery
// checks every claim on every compatible problem, so a claim here is a testable promise.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <nlohmann/json_fwd.hpp>
#include <string>
#include <utility>
#include <vector>

#include "core/counters.hpp"
#include "core/model.hpp"
#include "core/state.hpp"

namespace gib {

using Json = nlohmann::json;

// A Json owned on the heap, so that MethodInfo can hold its default parameters while this header, included by
// most of the library, needs only json_fwd.hpp (the full header adds ~45k preprocessed lines and about a second
// of parsing to a translation unit). Its special members are out of line (core/method.cpp), where Json is
// complete. It reads as the Json it holds: it converts to Json& and const Json& (a factory takes it as it is),
// * and -> reach the Json's members, and it is assigned from a Json or a braced JSON literal.
class JsonBox {
 public:
  JsonBox();  // an empty object
  JsonBox(const JsonBox& o);
  JsonBox& operator=(const JsonBox& o);
  JsonBox& operator=(const Json& j);
  JsonBox& operator=(Json&& j);
  ~JsonBox();

  Json& operator*() { return *json_; }
  const Json& operator*() const { return *json_; }
  Json* operator->() { return json_.get(); }
  const Json* operator->() const { return json_.get(); }
  operator Json&() { return *json_; }              // NOLINT(google-explicit-constructor)
  operator const Json&() const { return *json_; }  // NOLINT(google-explicit-constructor)

 private:
  // Never null: there is no move (a moved-from box would be empty), and copies are rare (registry set-up).
  std::unique_ptr<Json> json_;
};

// Outcome of one step. Divergence and non-finite states are detected by the harness, not by methods.
enum class StepStatus { ok, solver_failed };

// What advance() did: the status of its last step and how many steps it took, the failed one included.
struct Advanced {
  StepStatus status = StepStatus::ok;
  std::int64_t steps = 0;
};

// Steppers advance a state in place by h. One virtual call per step; stages are not virtual.
template <class State> class Stepper {
 public:
  virtual ~Stepper() = default;
  virtual StepStatus step(State& x, double h, OpCounters& counters) = 0;
  // n steps of h between two observations, as Odeint's integrate_n_steps separates the loop from the stepper.
  // A method whose natural state is not State (an Odeint embedding) overrides it to step in that state and
  // convert once at the end, so that timing measures the method and not its adapter; the result must be bit
  // for bit that of n calls of step() (tests/test_advance.cpp). Stops at the first failed step.
  virtual Advanced advance(State& x, double h, std::int64_t n, OpCounters& counters) {
    for (std::int64_t i = 0; i < n; ++i)
      if (const StepStatus s = step(x, h, counters); s != StepStatus::ok) return {s, i + 1};
    return {StepStatus::ok, n};
  }
  // Multistep or FSAL methods drop their history here; called before a run starts.
  virtual void reset() {}
  // Quantities only the method knows, by name (RATTLE's Lagrange multipliers after the last step), for the
  // runner's series; none by default.
  virtual void method_observables(std::vector<std::pair<std::string, double>>& out) const { out.clear(); }
};

// A vector-field stepper that also knows the exact Jacobian of its own one-step map (the tangent map), for Lyapunov
// exponents (spec metric M11) and volume errors (M8) without finite differences. A stepper implements it next to
// Stepper<VectorFieldState>; the metrics find it by dynamic_cast and report its absence.
class TangentMap {
 public:
  virtual ~TangentMap() = default;
  // One step of h from x, in place, as step() would take it; D is set to d(new x)/d(old x).
  virtual StepStatus step_with_tangent(VectorFieldState& x, double h, Eigen::MatrixXd& D, OpCounters& counters) = 0;
};

using RigidBodyStepper = Stepper<RigidBodyState>;
using ParticlesStepper = Stepper<ParticlesState>;
using NewtonianStepper = Stepper<NewtonianState>;
using VectorFieldStepper = Stepper<VectorFieldState>;

// Invariants a method may claim to preserve. A problem lists which of them it has.
enum class Invariant {
  energy,            // Hamiltonian H
  casimir,           // |Pi|^2 / 2 for a rigid body
  spatial_momentum,  // pi = R Pi for a rigid body
  linear_momentum,   // sum of p_i for particles
  angular_momentum,  // total angular momentum for particles
  vertical_momentum,  // e_z . R Pi, for a rigid body whose potential depends on R only through R33 (tops, Krysl's Coulomb body)
  axial_momentum,     // Pi_3, for a body with I1 = I2 whose torque has no third component (the Lagrange top)
  linear_integral,    // a vector field's linear first integral (Volterra: x1 + x2 + x3); every Runge-Kutta method keeps it
  cubic_integral,     // a vector field's cubic first integral (Volterra: x1 x2 x3)
};
const char* to_string(Invariant i);

enum class Preservation {
  exact,    // to round-off at any step size
  bounded,  // no drift over long times (symplectic-type behaviour)
};

// Some claims hold only without external torque (e.g. RKMK keeps R Pi fixed only for the free body), or
// only in a uniform field, where V is linear in R (AKW keeps the heavy top's H, not the Coulomb body's).
// A torque-free body counts as being in a (zero) uniform field.
enum class Applies { always, torque_free, uniform_field };

struct InvariantClaim {
  Invariant invariant;
  Preservation how;
  Applies when = Applies::always;
};

struct MethodClaims {
  int order = 1;
  // Methods whose global error mixes a bounded O(h^order) term with a secular O(h^{order+1} T) one (projection
  // methods such as Buss's energy correction) show slopes up to this order at finite T; 0 means none. The battery
  // accepts a fitted order in [order, finite_time_order]; the rank and plots still use `order`.
  int finite_time_order = 0;
  int max_observable_order() const { return finite_time_order > order ? finite_time_order : order; }
  bool implicit = false;
  bool symmetric = false;    // Phi_{-h} o Phi_h = id
  bool symplectic = false;   // checked through bounded energy error on Hamiltonian problems
  bool stays_on_group = false;  // R (each Q_i) in SO(3) to round-off
  // Vector fields (McLachlan-Quispel): det(d psi / dx) = 1 to round-off on a divergence-free field (spec 7.1), and
  // V(x_{n+1}) <= V(x_n) at every step size on a field with a Lyapunov function V (spec 8.5). A first integral
  // kept exactly (spec 8.2) is an invariant claim on the energy, which a skew-gradient model's energy() is.
  bool volume_preserving = false;
  bool lyapunov_monotone = false;
  std::vector<InvariantClaim> invariants;
  // A stochastic method (a Langevin thermostat: GLA) samples a distribution instead of approximating one trajectory,
  // so `order` and the invariant claims do not apply and are not read. It takes the run parameters kFrictionParam,
  // kInverseTemperatureParam and kSeedParam below, and the battery checks what it promises instead: the kinetic
  // temperature it samples is 1/beta (equipartition over the unconstrained degrees of freedom), the same seed gives
  // the same bits, another seed another trajectory, and (enforces_constraints) g(q) = 0 and G v = 0 after each step.
  bool stochastic = false;
};

// The run parameters of a stochastic method (MethodClaims::stochastic).
inline constexpr const char* kFrictionParam = "friction";
inline constexpr const char* kInverseTemperatureParam = "inverse_temperature";
inline constexpr const char* kSeedParam = "seed";

using RigidBodyFactory =
    std::function<std::unique_ptr<RigidBodyStepper>(const RigidBodyModel&, const Json& params)>;
using ParticlesFactory =
    std::function<std::unique_ptr<ParticlesStepper>(const RigidParticlesModel&, const Json& params)>;
using NewtonianFactory =
    std::function<std::unique_ptr<NewtonianStepper>(const NewtonianModel&, const Json& params)>;
using VectorFieldFactory =
    std::function<std::unique_ptr<VectorFieldStepper>(const VectorFieldModel&, const Json& params)>;

struct MethodInfo {
  std::string id;            // stable, used on the command line and in results
  std::string display_name;  // for plots and tables
  std::string citation;      // where the method comes from
  // Where the definition lives: empty for a method compiled into gibench, else its method file (methods/from_file/:
  // "methods/tableaus/<id>.json" for a shipped one, the path given to --method-file for a user's).
  std::string source;
  // The method's family tag, one of core/method_tags.hpp method_families() (a test holds every method to that
  // closed list): the family is stored here only, and `gibench list`, the selectors and the plots read it from here.
  std::string family;
  MethodClaims claims;
  // Tags that no claim implies (core/method_tags.hpp declarable_tags(): "energy_corrected"). Explicit or implicit,
  // symplectic, symmetric, volume-preserving and the order follow from the claims and are never declared here.
  std::vector<std::string> declared_tags;
  JsonBox default_params;  // an empty object unless the method sets it
  // The method needs a torque-free rigid body (Buss's Taylor methods differentiate Euler's equations
  // without torque terms); the harness refuses it on problems with a potential.
  bool torque_free_only = false;
  // The method integrates the constrained system g(q) = 0 (RATTLE), not the penalised model: it runs only on
  // problems with constraints, and its errors are measured against the problem's constrained reference.
  bool enforces_constraints = false;
  // On Newtonian problems the method needs a penalised model (Integrator 5 takes the Hessian of the penalty
  // alone): it runs only on problems with constraints there. (Its relaxed-rotation form always has a penalty.)
  bool needs_penalty = false;
  RigidBodyFactory rigid_body;  // null when the kind is not supported
  ParticlesFactory particles;
  NewtonianFactory newtonian;
  VectorFieldFactory vector_field;
  // Structure the method needs from a vector field beyond f (ModelStructure bits: leapfrog needs H = T(p) + V(q)).
  unsigned needs_structure = 0;

  bool supports(ModelKind k) const {
    switch (k) {
      case ModelKind::rigid_body: return static_cast<bool>(rigid_body);
      case ModelKind::rigid_particles: return static_cast<bool>(particles);
      case ModelKind::newtonian: return static_cast<bool>(newtonian);
      case ModelKind::vector_field: return static_cast<bool>(vector_field);
    }
    return false;
  }
  // Does the method claim to preserve this invariant (given whether the model is torque-free)?
  const InvariantClaim* claim_for(Invariant inv, bool torque_free, bool uniform_field = false) const;
};

// The method registry: every method, in the order of methods/registry.cpp, then the shipped method files
// (methods/tableaus/), then those registered at run time.
const std::vector<MethodInfo>& method_registry();
// Adds a method defined at run time (gibench --method-file FILE). Call it from one thread before any work: it may
// move the registry's elements. Throws InputError when the id is taken.
void register_method(MethodInfo m);
// Throws gib::InputError("unknown method ...") when the id is not registered.
const MethodInfo& find_method(const std::string& id);

// The registry seen through replacements: a method in `overrides` stands in for the registered one with
// the same id (or adds a new id). The accuracy-regression test uses it to run the baselines with a
// deliberately perturbed copy of a method; the harness takes a catalog wherever it looks methods up.
class MethodCatalog {
 public:
  explicit MethodCatalog(std::vector<MethodInfo> overrides = {}) : overrides_(std::move(overrides)) {}
  const MethodInfo& find(const std::string& id) const;

 private:
  std::vector<MethodInfo> overrides_;
};

// The catalog to use when none is given: the registry as it is.
const MethodCatalog& registry_catalog();

}  // namespace gib
