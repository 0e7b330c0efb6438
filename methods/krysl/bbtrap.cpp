// Bottasso & Borri (1998) trapezoid, the Munthe-Kaas RK method with the 2-stage trapezoidal tableau (spec 5.8):
//   R_n  = R_{n-1} exp(Psi_n),   Pi_n = exp(-Psi_n)(Pi_{n-1} + (dt/2) T_{n-1}) + (dt/2) T_n,   T_n = T(R_n),
//   BBTRAP:    Psi_n = (dt/2)(W Pi_n + W Pi_{n-1})                       (dexp^{-1} truncated to 1; unknown Pi_n)
//   BBTRAPWD:  Psi_n = (dt/2)(dexp_inv_right(Psi_n) W Pi_n + W Pi_{n-1})  (full dexp^{-1}; unknowns (Pi_n, Psi_n))
// Both give pi_n = pi_{n-1} + (dt/2)(t_space,n-1 + t_space,n) to round-off (pi exact torque-free, e_z . pi exact for
// potentials of R33). The truncation is what keeps K torque-free (BBTRAP = SWC1 there) and the symmetry; BBTRAPWD
// loses both and stays second order.
#include "methods/krysl/half_steps.hpp"
#include "methods/krysl/implicit_stepper.hpp"
#include "methods/krysl/krysl.hpp"
#include "methods/krysl/lie_derivatives.hpp"

namespace gib::krysl {
namespace {

// What both variants share: the explicit part v = Pi_{n-1} + h T_{n-1} and the momentum update for a given Psi.
class TrapezoidMomentum {
 public:
  explicit TrapezoidMomentum(const RigidBodyModel& model) : model_(model) {}
  const RigidBodyModel& model() const { return model_; }

  // Returns the predictor of Pi_n, Pi_{n-1} + dt (Pi_{n-1} x omega_{n-1} + T_{n-1}).
  Vec3 prepare(const RigidBodyState& x, double dt, OpCounters& c) {
    c_ = &c;
    h_ = dt / 2;
    x0_ = x;
    w0_ = model_.angular_velocity(x.Pi);
    const Vec3 T0 = torque(model_, x.R, c);
    v_ = x.Pi + h_ * T0;
    return x.Pi + dt * euler_rate(model_, x.Pi, T0);
  }

  // Pi = exp(-Psi) v + h T(R_{n-1} exp(Psi)); with dPi_dpsi, its derivative exp(-Psi) hat(v) dexp_left + h dT
  // dexp_right.
  Vec3 momentum(const Vec3& psi, Mat3& R, Mat3* dPi_dpsi) {
    ++c_->rhs_evals;
    ++c_->exp_evals;
    const Mat3 E = so3::exp(psi);
    R = x0_.R * E;
    const Vec3 Pi = E.transpose() * v_ + h_ * torque(model_, R, *c_);
    if (dPi_dpsi != nullptr) {
      *dPi_dpsi = E.transpose() * so3::hat(v_) * so3::dexp_left(psi);
      if (!model_.torque_free()) *dPi_dpsi += h_ * model_.potential()->body_torque_jacobian(R) * so3::dexp_right(psi);
    }
    return Pi;
  }

  double h() const { return h_; }
  const Vec3& w0() const { return w0_; }
  const Vec3& Pi0() const { return x0_.Pi; }

 private:
  const RigidBodyModel& model_;
  OpCounters* c_ = nullptr;
  double h_ = 0;
  RigidBodyState x0_;
  Vec3 w0_ = Vec3::Zero(), v_ = Vec3::Zero();
};

class BbtrapSystem {
 public:
  static constexpr int N = 3;
  explicit BbtrapSystem(const RigidBodyModel& model) : trap_(model) {}

  Start<3> prepare(const RigidBodyState& x, double dt, OpCounters& c) { return {trap_.prepare(x, dt, c), x.Pi}; }

  void operator()(const Vec3& x, Vec3& g, Mat3* dg) {
    Mat3 R;
    g = trap_.momentum(psi(x), R, dg);
    if (dg != nullptr) *dg = *dg * (trap_.h() * trap_.model().inverse_inertia()).asDiagonal();
  }

  RigidBodyState finish(const Vec3& x) {
    RigidBodyState next;
    next.Pi = trap_.momentum(psi(x), next.R, nullptr);
    return next;
  }

 private:
  Vec3 psi(const Vec3& x) const { return trap_.h() * (trap_.model().angular_velocity(x) + trap_.w0()); }
  TrapezoidMomentum trap_;
};

// Unknowns z = (Pi_n, Psi_n).
class BbtrapWdSystem {
 public:
  static constexpr int N = 6;
  using Vec6 = implicit::VecN<6>;
  using Mat6 = implicit::MatN<6>;
  explicit BbtrapWdSystem(const RigidBodyModel& model) : trap_(model) {}

  Start<6> prepare(const RigidBodyState& x, double dt, OpCounters& c) {
    const Vec3 p = trap_.prepare(x, dt, c);
    return {stack(p, psi_of(p)), stack(x.Pi, dt * trap_.w0())};
  }

  void operator()(const Vec6& z, Vec6& g, Mat6* dg) {
    const Vec3 Pi = z.head<3>(), psi = z.tail<3>();
    const Vec3 w = trap_.model().angular_velocity(Pi);
    Mat3 R, dPi_dpsi;
    g.head<3>() = trap_.momentum(psi, R, dg != nullptr ? &dPi_dpsi : nullptr);
    g.tail<3>() = trap_.h() * (so3::dexp_inv_right(psi) * w + trap_.w0());
    if (dg == nullptr) return;
    dg->topLeftCorner<3, 3>().setZero();
    dg->topRightCorner<3, 3>() = dPi_dpsi;
    dg->bottomLeftCorner<3, 3>() = trap_.h() * so3::dexp_inv_right(psi) * trap_.model().inverse_inertia().asDiagonal();
    dg->bottomRightCorner<3, 3>() = trap_.h() * dexp_inv_right_jacobian(psi, w);
  }

  RigidBodyState finish(const Vec6& z) {
    RigidBodyState next;
    next.Pi = trap_.momentum(z.tail<3>(), next.R, nullptr);
    return next;
  }

 private:
  static Vec6 stack(const Vec3& a, const Vec3& b) {
    Vec6 z;
    z << a, b;
    return z;
  }
  Vec3 psi_of(const Vec3& Pi) const { return trap_.h() * (trap_.model().angular_velocity(Pi) + trap_.w0()); }
  TrapezoidMomentum trap_;
};

constexpr const char* kCitation = "Bottasso & Borri 1998, CMAME 164; Krysl 2006 (spec 5.8)";

}  // namespace

MethodInfo bbtrap() {
  MethodInfo m = implicit_method_info("bbtrap", "BBTRAP (Bottasso-Borri trapezoid, truncated dexp^-1)", kCitation, true,
                                      {{Invariant::energy, Preservation::exact, Applies::torque_free},
                                       {Invariant::casimir, Preservation::exact, Applies::torque_free},
                                       {Invariant::spatial_momentum, Preservation::exact, Applies::torque_free},
                                       {Invariant::vertical_momentum, Preservation::exact, Applies::always}});
  m.rigid_body = [](const RigidBodyModel& model, const Json& params) {
    return make_stepper(model, params, "bbtrap", BbtrapSystem(model));
  };
  return m;
}

MethodInfo bbtrapwd() {
  MethodInfo m = implicit_method_info("bbtrapwd", "BBTRAPWD (Bottasso-Borri trapezoid, full dexp^-1)", kCitation, false,
                                      {{Invariant::casimir, Preservation::exact, Applies::torque_free},
                                       {Invariant::spatial_momentum, Preservation::exact, Applies::torque_free},
                                       {Invariant::vertical_momentum, Preservation::exact, Applies::always}});
  m.rigid_body = [](const RigidBodyModel& model, const Json& params) {
    return make_stepper(model, params, "bbtrapwd", BbtrapWdSystem(model));
  };
  return m;
}

}  // namespace gib::krysl
