#include "methods/krysl/half_steps.hpp"

namespace gib::krysl {

Vec3 torque(const RigidBodyModel& model, const Mat3& R, OpCounters& c) {
  if (model.torque_free()) return Vec3::Zero();
  ++c.force_evals;
  return model.body_torque(R);
}

Vec3 euler_rate(const RigidBodyModel& model, const Vec3& Pi, const Vec3& T) {
  return Pi.cross(model.angular_velocity(Pi)) + T;
}

RigidBodyState forward_euler(const RigidBodyModel& model, Form form, const RigidBodyState& x, const Vec3& T, double h,
                             OpCounters& c) {
  ++c.rhs_evals;
  ++c.exp_evals;
  const Mat3 E = so3::exp(Vec3(h * model.angular_velocity(x.Pi)));
  if (form == Form::rate) return {x.R * E, x.Pi + h * euler_rate(model, x.Pi, T)};
  return {x.R * E, E.transpose() * (x.Pi + h * T)};
}

void BackwardEuler::start(const RigidBodyState& from, double h, OpCounters& c) {
  from_ = from;
  h_ = h;
  c_ = &c;
}

// Jacobians (spec 3.5), with psi = h W x and R = R_t exp(psi) moving by the body-side increment dexp_right(psi) dpsi:
//   rate:      dG = -h (hat(W x) - hat(x) W) + h dT dexp_right(psi) h W
//   momentum:  dG = (exp(-psi) hat(Pi_t) dexp_left(psi) + h dT dexp_right(psi)) h W
void BackwardEuler::operator()(const Vec3& x, Vec3& g, Mat3* dg) {
  ++c_->rhs_evals;
  const Vec3 w = model_.angular_velocity(x);
  const Vec3 psi = h_ * w;
  const Vec3& winv = model_.inverse_inertia();
  const bool torqued = !model_.torque_free();
  Mat3 E = Mat3::Identity();
  if (torqued || form_ == Form::momentum) {  // the torque-free rate form needs no rotation
    E = so3::exp(psi);
    ++c_->exp_evals;
  }
  const Mat3 R = from_.R * E;
  const Vec3 T = torque(model_, R, *c_);
  g = form_ == Form::rate ? Vec3(from_.Pi - h_ * w.cross(x) + h_ * T) : Vec3(E.transpose() * from_.Pi + h_ * T);
  if (dg == nullptr) return;
  Mat3 d_psi = Mat3::Zero();  // dG/dpsi
  if (form_ == Form::momentum) d_psi = E.transpose() * so3::hat(from_.Pi) * so3::dexp_left(psi);
  if (torqued) d_psi += h_ * model_.potential()->body_torque_jacobian(R) * so3::dexp_right(psi);
  *dg = d_psi * (h_ * winv).asDiagonal();
  if (form_ == Form::rate) *dg -= h_ * (so3::hat(w) - so3::hat(x) * winv.asDiagonal());
}

HalfStepEnd BackwardEuler::finish(const Vec3& x) {
  ++c_->rhs_evals;
  ++c_->exp_evals;
  const Vec3 w = model_.angular_velocity(x);
  const Mat3 E = so3::exp(Vec3(h_ * w));
  HalfStepEnd end;
  end.state.R = from_.R * E;
  end.torque = torque(model_, end.state.R, *c_);
  end.state.Pi = form_ == Form::rate ? Vec3(from_.Pi - h_ * w.cross(x) + h_ * end.torque)
                                     : Vec3(E.transpose() * from_.Pi + h_ * end.torque);
  return end;
}

bool backward_euler(const RigidBodyModel& model, Form form, RigidBodyState& x, double h,
                    const implicit::SolverOptions& o, OpCounters& c) {
  BackwardEuler be(model, form);
  be.start(x, h, c);
  const Vec3 predictor = x.Pi + h * euler_rate(model, x.Pi, torque(model, x.R, c));
  implicit::SolverStats stats;
  const implicit::Solution<3> s = implicit::solve(be, predictor, x.Pi, o, c, stats);
  c.record_nonlinear_step(s.iterations);
  if (!s.converged) return false;
  x = be.finish(s.x).state;
  return true;
}

}  // namespace gib::krysl
