// Implicit Munthe-Kaas Runge-Kutta on SO(3) x R^3 as Krysl writes it (spec 5.9, with the T_(j) fix): for stages
// k = 1..s, solved together,
//   Psi_k = dt sum_j a_kj dexp_inv_right(Psi_j) W Pi_j,       R_k = R_{n-1} exp(Psi_k),
//   Pi_k  = exp(-Psi_k)(Pi_{n-1} + dt sum_j a_kj exp(Psi_j) T_j),   T_j = T(R_j) (time t_{n-1} + c_j dt),
// then Psi_n, R_n, Pi_n by the same formulas with b. Unknowns z = (Psi_1..Psi_s, Pi_1..Pi_s). pi_n = pi_{n-1} +
// dt sum_j b_j t_space(R_j) to round-off: pi exact torque-free and e_z . pi exact for potentials of R33, whatever
// the tableau. Parameter tableau: "midpoint" (default, order 2: IMIDM), "backward_euler" (order 1), "trapezoid"
// (order 2: BBTRAPWD), "gauss4" (2-stage Gauss, order 4). The registry's claims are those of the default tableau.
#include <array>
#include <cmath>
#include <nlohmann/json.hpp>

#include "core/errors.hpp"
#include "methods/krysl/half_steps.hpp"
#include "methods/krysl/implicit_stepper.hpp"
#include "methods/krysl/krysl.hpp"
#include "methods/krysl/lie_derivatives.hpp"

namespace gib::krysl {
namespace {

template <int S>
struct ImplicitTableau {
  std::array<std::array<double, S>, S> a;
  std::array<double, S> b, c;
};

template <int S>
class MkrkSystem {
 public:
  static constexpr int N = 6 * S;
  using Vec = implicit::VecN<N>;
  using Mat = implicit::MatN<N>;

  MkrkSystem(const RigidBodyModel& model, const ImplicitTableau<S>& t) : model_(model), t_(t) {}

  // Predictor: stage k at time c_k dt of an explicit Euler step (Pi) and of a rotation with omega_{n-1} (Psi).
  Start<N> prepare(const RigidBodyState& x, double dt, OpCounters& c) {
    c_ = &c;
    dt_ = dt;
    x0_ = x;
    const Vec3 w0 = model_.angular_velocity(x.Pi);
    const Vec3 f0 = euler_rate(model_, x.Pi, torque(model_, x.R, c));
    Start<N> s;
    for (int k = 0; k < S; ++k) {
      const double tau = t_.c[k] * dt;
      s.predictor.template segment<3>(3 * k) = tau * w0;
      s.predictor.template segment<3>(3 * (S + k)) = x.Pi + tau * f0;
      s.previous.template segment<3>(3 * k) = tau * w0;
      s.previous.template segment<3>(3 * (S + k)) = x.Pi;
    }
    return s;
  }

  void operator()(const Vec& z, Vec& g, Mat* dg) {
    evaluate_stages(z);
    for (int k = 0; k < S; ++k) {
      Vec3 psi = Vec3::Zero(), v = x0_.Pi;
      for (int j = 0; j < S; ++j) {
        psi += dt_ * t_.a[k][j] * st_[j].u;
        v += dt_ * t_.a[k][j] * st_[j].q;
      }
      g.template segment<3>(3 * k) = psi;
      g.template segment<3>(3 * (S + k)) = st_[k].E.transpose() * v;
      if (dg != nullptr) jacobian_rows(k, v, *dg);
    }
  }

  RigidBodyState finish(const Vec& z) {
    evaluate_stages(z);
    Vec3 psi = Vec3::Zero(), v = x0_.Pi;
    for (int j = 0; j < S; ++j) {
      psi += dt_ * t_.b[j] * st_[j].u;
      v += dt_ * t_.b[j] * st_[j].q;
    }
    ++c_->exp_evals;
    const Mat3 E = so3::exp(psi);
    return {x0_.R * E, E.transpose() * v};
  }

 private:
  // Per stage: E = exp(Psi_j), R_j, T_j, the Psi rate u = dexp_inv_right(Psi_j) W Pi_j and q = E T_j (T_j seen from
  // R_{n-1}).
  struct Stage {
    Mat3 E = Mat3::Identity(), R = Mat3::Identity(), dexp_inv = Mat3::Identity();
    Vec3 psi = Vec3::Zero(), w = Vec3::Zero(), T = Vec3::Zero(), u = Vec3::Zero(), q = Vec3::Zero();
  };

  void evaluate_stages(const Vec& z) {
    for (int j = 0; j < S; ++j) {
      Stage& s = st_[j];
      ++c_->rhs_evals;
      ++c_->exp_evals;
      s.psi = z.template segment<3>(3 * j);
      s.w = model_.angular_velocity(Vec3(z.template segment<3>(3 * (S + j))));
      s.E = so3::exp(s.psi);
      s.R = x0_.R * s.E;
      s.T = torque(model_, s.R, *c_);
      s.dexp_inv = so3::dexp_inv_right(s.psi);
      s.u = s.dexp_inv * s.w;
      s.q = s.E * s.T;
    }
  }

  // Rows of stage k:  dPsi_k/dPi_j = dt a_kj dexp_inv_j W,  dPsi_k/dPsi_j = dt a_kj d(dexp_inv_right(Psi_j)
  // w_j)/dPsi_j, dPi_k/dPsi_k += exp(-Psi_k) hat(v_k) dexp_left(Psi_k),  dPi_k/dPsi_j += exp(-Psi_k) dt a_kj E_j (dT_j
  // - hat(T_j)) dexp_right(Psi_j).
  void jacobian_rows(int k, const Vec3& v, Mat& dg) const {
    const auto W = model_.inverse_inertia().asDiagonal();
    const Stage& sk = st_[k];
    for (int j = 0; j < S; ++j) {
      const Stage& sj = st_[j];
      const double a = dt_ * t_.a[k][j];
      dg.template block<3, 3>(3 * k, 3 * (S + j)) = a * sj.dexp_inv * W;
      dg.template block<3, 3>(3 * k, 3 * j) = a * dexp_inv_right_jacobian(sj.psi, sj.w);
      Mat3 dT = -so3::hat(sj.T);
      if (!model_.torque_free()) dT += model_.potential()->body_torque_jacobian(sj.R);
      dg.template block<3, 3>(3 * (S + k), 3 * j) = a * sk.E.transpose() * sj.E * dT * so3::dexp_right(sj.psi);
      dg.template block<3, 3>(3 * (S + k), 3 * (S + j)).setZero();
    }
    dg.template block<3, 3>(3 * (S + k), 3 * k) += sk.E.transpose() * so3::hat(v) * so3::dexp_left(sk.psi);
  }

  const RigidBodyModel& model_;
  ImplicitTableau<S> t_;
  OpCounters* c_ = nullptr;
  double dt_ = 0;
  RigidBodyState x0_;
  std::array<Stage, S> st_;
};

ImplicitTableau<1> one_stage(double a) { return {{{{a}}}, {1.0}, {a}}; }

ImplicitTableau<2> trapezoid() { return {{{{0.0, 0.0}, {0.5, 0.5}}}, {0.5, 0.5}, {0.0, 1.0}}; }

ImplicitTableau<2> gauss4() {
  const double r = std::sqrt(3.0) / 6;
  return {{{{0.25, 0.25 - r}, {0.25 + r, 0.25}}}, {0.5, 0.5}, {0.5 - r, 0.5 + r}};
}

std::unique_ptr<RigidBodyStepper> make_mkrk(const RigidBodyModel& model, const Json& params) {
  const Json& t = params.at("tableau");
  if (t == "midpoint") return make_stepper(model, params, "mkrk_implicit", MkrkSystem<1>(model, one_stage(0.5)));
  if (t == "backward_euler") return make_stepper(model, params, "mkrk_implicit", MkrkSystem<1>(model, one_stage(1.0)));
  if (t == "trapezoid") return make_stepper(model, params, "mkrk_implicit", MkrkSystem<2>(model, trapezoid()));
  if (t == "gauss4") return make_stepper(model, params, "mkrk_implicit", MkrkSystem<2>(model, gauss4()));
  throw InputError("mkrk_implicit parameter tableau=" + t.dump() +
                   " must be \"midpoint\", \"backward_euler\", \"trapezoid\" or \"gauss4\"");
}

}  // namespace

MethodInfo mkrk_implicit() {
  MethodInfo m =
      implicit_method_info("mkrk_implicit", "Implicit MKRK (Krysl's form; default tableau: implicit midpoint)",
                           "Munthe-Kaas 1998; Krysl 2006 (spec 5.9, T_(j) fix)", true,
                           {{Invariant::casimir, Preservation::exact, Applies::torque_free},
                            {Invariant::spatial_momentum, Preservation::exact, Applies::torque_free},
                            {Invariant::vertical_momentum, Preservation::exact, Applies::always},
                            {Invariant::energy, Preservation::bounded, Applies::torque_free}});
  (*m.default_params)["tableau"] = "midpoint";
  m.rigid_body = make_mkrk;
  return m;
}

}  // namespace gib::krysl
