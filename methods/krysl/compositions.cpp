// IMID, TRAP, IMIDM, TRAPM (spec 5.1-5.5): two half steps h = dt/2 of methods/krysl/half_steps.hpp,
//   IMID = fE o bE,  TRAP = bE o fE  (rate form),   IMIDM = fE_M o bE_M,  TRAPM = bE_M o fE_M  (momentum form),
// where a o b applies b first. The unknown is the end momentum of the backward half step (Pi-bar for the midpoint
// rules, Pi_n for the trapezoidal ones), so the composition is algebraically the printed algorithm. Torque samples:
// T_{n-1} (explicit half step and predictor) and T at the configuration the backward half step reaches (the
// midpoint R_{n-1} exp(h W Pi-bar) for IMID/IMIDM, R_n for TRAP/TRAPM).
//
// Built from the same half steps, the conjugacies of spec 5.3 and 5.5 hold to solver tolerance.
#include "methods/krysl/half_steps.hpp"
#include "methods/krysl/implicit_stepper.hpp"
#include "methods/krysl/krysl.hpp"
#include "methods/krysl/imidm_particles.hpp"

namespace gib::krysl {
namespace {

enum class Order { implicit_first, explicit_first };  // midpoint, trapezoid

class CompositionSystem {
 public:
  static constexpr int N = 3;
  CompositionSystem(const RigidBodyModel& model, Form form, Order order)
      : model_(model), form_(form), order_(order), backward_(model, form) {}

  // Predictors (spec 5.1-5.5): Pi_{n-1} + tau (Pi_{n-1} x omega_{n-1} + T_{n-1}) with tau the time from t_{n-1} to
  // the unknown: h for the midpoint rules, dt for the trapezoidal ones.
  Start<3> prepare(const RigidBodyState& x, double dt, OpCounters& c) {
    c_ = &c;
    h_ = dt / 2;
    const Vec3 T0 = torque(model_, x.R, c);
    const Vec3 f0 = euler_rate(model_, x.Pi, T0);
    if (order_ == Order::implicit_first) {
      backward_.start(x, h_, c);
      return {x.Pi + h_ * f0, x.Pi};
    }
    backward_.start(forward_euler(model_, form_, x, T0, h_, c), h_, c);
    return {x.Pi + dt * f0, x.Pi};
  }

  void operator()(const Vec3& z, Vec3& g, Mat3* dg) { backward_(z, g, dg); }

  RigidBodyState finish(const Vec3& z) {
    const HalfStepEnd end = backward_.finish(z);
    if (order_ == Order::explicit_first) return end.state;
    return forward_euler(model_, form_, end.state, end.torque, h_, *c_);
  }

 private:
  const RigidBodyModel& model_;
  Form form_;
  Order order_;
  BackwardEuler backward_;
  double h_ = 0;
  OpCounters* c_ = nullptr;
};

MethodInfo composition(const std::string& id, const std::string& name, const std::string& citation, Form form,
                       Order order, std::vector<InvariantClaim> invariants) {
  MethodInfo m = implicit_method_info(id, name, citation, true, std::move(invariants));
  m.rigid_body = [id, form, order](const RigidBodyModel& model, const Json& params) {
    return make_stepper(model, params, id, CompositionSystem(model, form, order));
  };
  return m;
}

constexpr const char* kPaper = "Krysl 2006";

}  // namespace

// Torque-free: K and |Pi| exact (Pi_n - Pi_{n-1} = -dt W Pi-bar x Pi-bar with Pi_n + Pi_{n-1} = 2 Pi-bar). With I1 = I2
// and a torque with no third component, Pi_3 is exact for every rate-form method: (W Pi x Pi)_3 = 0.
MethodInfo imid() {
  return composition("imid", "IMID (Krysl midpoint, rate form)", std::string(kPaper) + " (spec 5.2): fE o bE",
                     Form::rate, Order::implicit_first,
                     {{Invariant::energy, Preservation::exact, Applies::torque_free},
                      {Invariant::casimir, Preservation::exact, Applies::torque_free},
                      {Invariant::axial_momentum, Preservation::exact, Applies::always}});
}

// K is not kept, only the midpoint energy K(Pi - h W Pi x Pi) (spec 5.1), so K stays within O(dt^2) of it: bounded.
MethodInfo trap() {
  return composition("trap", "TRAP (Krysl trapezoid, rate form)", std::string(kPaper) + " (spec 5.1): bE o fE",
                     Form::rate, Order::explicit_first,
                     {{Invariant::axial_momentum, Preservation::exact, Applies::always},
                      {Invariant::energy, Preservation::bounded, Applies::torque_free}});
}

// Momentum form: pi_n = pi_{n-1} + dt t_space(midpoint) and the torque-free update Pi_n = exp(-Psi)^T Pi_{n-1} keep
// |Pi| and pi; a spatial torque without e_z component keeps e_z . pi. K is bounded, not exact (spec 5.10).
//
// Rigid particles (methods/krysl/imidm_particles.hpp): implicit midpoint in translation, IMIDM in rotation, forces
// at the midpoint configuration. sum p_i is kept to round-off and the total angular momentum to the solver tolerance
// (the particle analogue of pi) when V is invariant under translations and rotations.
MethodInfo imidm() {
  MethodInfo m = composition("imidm", "IMIDM (Krysl momentum-conserving midpoint)",
                             std::string(kPaper) +
                                 " (spec 5.5): fE_M o bE_M; LIEMID[I], Celledoni-Owren implicit midpoint",
                             Form::momentum, Order::implicit_first,
                             {{Invariant::casimir, Preservation::exact, Applies::torque_free},
                              {Invariant::spatial_momentum, Preservation::exact, Applies::torque_free},
                              {Invariant::vertical_momentum, Preservation::exact, Applies::always},
                              {Invariant::energy, Preservation::bounded, Applies::torque_free},
                              {Invariant::linear_momentum, Preservation::exact, Applies::always},
                              {Invariant::angular_momentum, Preservation::exact, Applies::always}});
  m.particles = [](const RigidParticlesModel& model, const Json& params) {
    return make_imidm_particles_stepper(model, params, "imidm");
  };
  return m;
}

MethodInfo trapm() {
  return composition("trapm", "TRAPM (Krysl momentum-conserving trapezoid)",
                     std::string(kPaper) + " (spec 5.4): bE_M o fE_M", Form::momentum, Order::explicit_first,
                     {{Invariant::casimir, Preservation::exact, Applies::torque_free},
                      {Invariant::spatial_momentum, Preservation::exact, Applies::torque_free},
                      {Invariant::vertical_momentum, Preservation::exact, Applies::always},
                      {Invariant::energy, Preservation::bounded, Applies::torque_free}});
}

}  // namespace gib::krysl
