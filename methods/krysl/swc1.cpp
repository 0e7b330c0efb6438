// SWC1: Simo & Wong (1991) ALGO_C1 as Krysl states it (spec 5.7):
//   Psi_n = (dt/2)(W Pi_n + W Pi_{n-1}),  R_n = R_{n-1} exp(Psi_n),
//   Pi_n  = exp(-Psi_n) Pi_{n-1} + dt exp(-Psi_n/2) T_{n-1/2},   T_{n-1/2} = T(R_{n-1} exp(Psi_n/2)),
// the midpoint-configuration torque being the spec's assumption (the paper leaves T_{n-1/2} undefined). Unknown
// x = Pi_n. With E = exp(Psi_n/2): R_n = R_{n-1} E E and Pi_n = E^T (E^T Pi_{n-1} + dt T_{n-1/2}), so
// pi_n = pi_{n-1} + dt t_space(midpoint) to round-off: pi exact torque-free, e_z . pi exact for any potential of
// R33. Torque-free it is BBTRAP, and the averaged angular velocity keeps K.
#include "methods/krysl/half_steps.hpp"
#include "methods/krysl/implicit_stepper.hpp"
#include "methods/krysl/krysl.hpp"

namespace gib::krysl {
namespace {

class Swc1System {
 public:
  static constexpr int N = 3;
  explicit Swc1System(const RigidBodyModel& model) : model_(model) {}

  Start<3> prepare(const RigidBodyState& x, double dt, OpCounters& c) {
    c_ = &c;
    dt_ = dt;
    x0_ = x;
    w0_ = model_.angular_velocity(x.Pi);
    return {x.Pi + dt * euler_rate(model_, x.Pi, torque(model_, x.R, c)), x.Pi};
  }

  // With phi = Psi/2 = (dt/4)(W x + w0) and v = E^T Pi_{n-1} + dt T(R_{n-1} E):
  //   dG/dphi = E^T hat(v) dexp_left(phi) + E^T (E^T hat(Pi_{n-1}) dexp_left(phi) + dt dT dexp_right(phi)),
  //   dphi/dx = (dt/4) W.
  void operator()(const Vec3& x, Vec3& g, Mat3* dg) {
    const Vec3 phi = half_rotation(x);
    Mat3 E, Rm;
    Vec3 v;
    g = map(phi, E, Rm, v);
    if (dg == nullptr) return;
    const Mat3 Jl = so3::dexp_left(phi);
    Mat3 dv = E.transpose() * so3::hat(x0_.Pi) * Jl;
    if (!model_.torque_free()) dv += dt_ * model_.potential()->body_torque_jacobian(Rm) * so3::dexp_right(phi);
    *dg = (E.transpose() * (so3::hat(v) * Jl + dv)) * (0.25 * dt_ * model_.inverse_inertia()).asDiagonal();
  }

  RigidBodyState finish(const Vec3& x) {
    Mat3 E, Rm;
    Vec3 v;
    const Vec3 Pi = map(half_rotation(x), E, Rm, v);
    return {Rm * E, Pi};
  }

 private:
  Vec3 half_rotation(const Vec3& x) const { return 0.25 * dt_ * (model_.angular_velocity(x) + w0_); }

  // G = E^T v with E = exp(phi), the midpoint configuration Rm = R_{n-1} E and v = E^T Pi_{n-1} + dt T(Rm).
  Vec3 map(const Vec3& phi, Mat3& E, Mat3& Rm, Vec3& v) {
    ++c_->rhs_evals;
    ++c_->exp_evals;
    E = so3::exp(phi);
    Rm = x0_.R * E;
    v = E.transpose() * x0_.Pi + dt_ * torque(model_, Rm, *c_);
    return E.transpose() * v;
  }

  const RigidBodyModel& model_;
  OpCounters* c_ = nullptr;
  double dt_ = 0;
  RigidBodyState x0_;
  Vec3 w0_ = Vec3::Zero();
};

}  // namespace

MethodInfo swc1() {
  MethodInfo m = implicit_method_info(
      "swc1", "SWC1 (Simo-Wong ALGO_C1)",
      "Simo & Wong 1991, IJNME 31 (ALGO_C1); Krysl 2006 (spec 5.7, midpoint-configuration torque assumed)", true,
      {{Invariant::energy, Preservation::exact, Applies::torque_free},
       {Invariant::casimir, Preservation::exact, Applies::torque_free},
       {Invariant::spatial_momentum, Preservation::exact, Applies::torque_free},
       {Invariant::vertical_momentum, Preservation::exact, Applies::always}});
  m.rigid_body = [](const RigidBodyModel& model, const Json& params) {
    return make_stepper(model, params, "swc1", Swc1System(model));
  };
  return m;
}

}  // namespace gib::krysl
