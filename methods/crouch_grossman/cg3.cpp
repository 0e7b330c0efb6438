// Crouch-Grossman method of order 3 (Crouch & Grossman 1993) on T*SO(3) for the rigid body, with torque.
//
// A Crouch-Grossman method is an explicit Runge-Kutta method whose stages and update are products of
// exponentials, one factor per earlier stage, instead of one exponential of a sum (RKMK): no dexp^-1 is
// needed, at the price of more exponentials per step. Hairer, Lubich & Wanner (GNI IV.8) state it for
// Y' = A(Y) Y, where the factors multiply from the left, the newest leftmost:
//   Y_i = exp(h a_{i,i-1} F_{i-1}) ... exp(h a_{i1} F_1) y_n,   y_{n+1} = exp(h b_s F_s) ... exp(h b_1 F_1) y_n.
// gibench's rigid body is in the left trivialisation, y' = y f(y) with y = (R, Pi) in T*SO(3) and
// f(y) = (omega, T_body(R)), omega = I^-1 Pi. Inverting y turns one form into the other, which mirrors
// the products: the factors multiply from the right, the oldest stage nearest y_n,
//   Y_i = y_n exp(h a_{i1} F_1) ... exp(h a_{i,i-1} F_{i-1}),   y_{n+1} = y_n exp(h b_1 F_1) ... exp(h b_s F_s),
// with the same coefficients and the same order conditions. The order of the update's factors matters:
// taken the other way round they break the order-3 condition that comes from the non-commutativity of
// the group, and the battery measures order 2. (The order of a stage's factors only matters at order 4.)
//
// Each factor is the group action y exp(sigma) of core/tso3.hpp: R <- R exp(xi), Pi <- exp(xi)^T Pi + J_r(xi) zeta.
// Without torque zeta = 0, so every factor rotates Pi by an orthogonal matrix and R Pi is unchanged:
// the Casimir |Pi| and the spatial momentum R Pi are kept to round-off, and R stays on SO(3).
#include "methods/crouch_grossman/cg3.hpp"

#include <array>
#include <memory>

#include "core/tso3.hpp"

namespace gib::crouch_grossman {
namespace {

using Alg = tso3::Algebra<double>;
using Elem = tso3::Element<double>;
constexpr int kStages = 3;
constexpr so3::ActionSide kSide = so3::ActionSide::right_multiply;  // y exp(sigma)

// The tableau of cg3.hpp in double precision, converted at compile time.
struct Coefficients {
  double a[kStages][kStages];
  double b[kStages];
};
constexpr Coefficients to_double(const Cg3Tableau& t) {
  Coefficients k{};
  for (int i = 0; i < kStages; ++i) {
    for (int j = 0; j < kStages; ++j) k.a[i][j] = t.a[i][j].value();
    k.b[i] = t.b[i].value();
  }
  return k;
}
constexpr Coefficients kCoef = to_double(kCg3Tableau);

// The vector field f(y) = (omega, T_body(R)) in the left trivialisation.
Alg vector_field(const RigidBodyModel& model, const Elem& y, OpCounters& c) {
  ++c.rhs_evals;
  if (!model.torque_free()) ++c.force_evals;
  return {model.angular_velocity(y.mu), model.body_torque(y.R)};
}

class Cg3Stepper final : public RigidBodyStepper {
 public:
  explicit Cg3Stepper(const RigidBodyModel& model) : model_(model) {}

  StepStatus step(RigidBodyState& x, double h, OpCounters& c) override {
    const Elem y{x.R, x.Pi};
    std::array<Alg, kStages> F;
    for (int i = 0; i < kStages; ++i) {
      // Stage i: Y_i = y exp(h a_i1 F_1) ... exp(h a_{i,i-1} F_{i-1}), applied oldest factor first.
      Elem Yi = y;
      for (int j = 0; j < i; ++j) {
        Yi = tso3::act(Yi, (h * kCoef.a[i][j]) * F[j], kSide);
        ++c.exp_evals;
      }
      F[i] = vector_field(model_, Yi, c);
    }
    // Update: y_{n+1} = y exp(h b_1 F_1) exp(h b_2 F_2) exp(h b_3 F_3).
    Elem next = y;
    for (int i = 0; i < kStages; ++i) {
      next = tso3::act(next, (h * kCoef.b[i]) * F[i], kSide);
      ++c.exp_evals;
    }
    x.R = next.R;
    x.Pi = next.mu;
    return StepStatus::ok;
  }

 private:
  const RigidBodyModel& model_;  // owned by the problem; outlives the stepper
};

}  // namespace

MethodInfo cg3() {
  MethodInfo m;
  m.id = "cg3";
  m.display_name = "Crouch-Grossman 3";
  m.citation = "Crouch & Grossman 1993; coefficients as in Hairer, Lubich & Wanner, GNI IV.8";
  m.family = "crouch_grossman";
  m.claims.order = 3;
  m.claims.stays_on_group = true;
  // Torque-free, every factor maps Pi to exp(xi)^T Pi and R to R exp(xi) (see the top of the file).
  m.claims.invariants = {{Invariant::casimir, Preservation::exact, Applies::torque_free},
                         {Invariant::spatial_momentum, Preservation::exact, Applies::torque_free}};
  m.rigid_body = [](const RigidBodyModel& model, const Json& /*params: none*/) -> std::unique_ptr<RigidBodyStepper> {
    return std::make_unique<Cg3Stepper>(model);
  };
  return m;
}

}  // namespace gib::crouch_grossman
