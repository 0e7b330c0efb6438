// One rigid body for the RKMK kernel (kernel.hpp): the group T*SO(3) = SO(3) x| so(3)* of core/tso3.hpp in scalar S,
// trivialised on either side, with the body's vector field (Kjer (2.38)/(2.39)):
//   left  (y' = y f(y), action y exp(sigma)):  f = (omega, T)                      with mu = Pi (body)
//   right (y' = f(y) y, action exp(sigma) y):  f = (R omega, R T + pi x R omega)   with mu = pi = R Pi (space)
// Model: what the field reads, RigidBodyModel's interface in S (torque_free(), angular_velocity(Pi), body_torque(R)).
// Counts one rhs evaluation per field evaluation (and one force evaluation under a torque), one exponential per
// action.
#pragma once

#include "core/counters.hpp"
#include "core/tso3.hpp"

namespace gib::rkmk {

template <class S, class Model> class RigidBodyGroup {
 public:
  using Scalar = S;
  using Point = tso3::Element<S>;
  using Increment = tso3::Algebra<S>;

  // side: the action (right_multiply for the left trivialisation); series_side: the side whose dexp^{-1} series
  // sign is used, the action's own except in the flipped-sign ablation. truncation: ad terms kept in dexp^{-1}.
  RigidBodyGroup(const Model& model, int truncation, tso3::ActionSide side, tso3::ActionSide series_side)
      : model_(&model), truncation_(truncation), side_(side), series_side_(series_side) {}

  bool shaped_for(const Point&, const Increment&) const { return true; }
  void shape(const Point&, Increment&) const {}
  void shape(const Point&, Point&) const {}

  void set_zero(Increment& u) const { u = Increment::zero(); }
  void add_scaled(Increment& u, const S& s, const Increment& k) const { u += s * k; }

  void stage_point(const Point& y, const Increment& u, Point& out, OpCounters& c) const {
    // A torque-free body-momentum field reads only the stage momentum: the stage rotation is skipped.
    if (left() && model_->torque_free()) {
      out.R = y.R;
      out.mu = tso3::act_momentum(y.mu, u, tso3::action_terms(u), side_);
    } else {
      out = tso3::act(y, u, side_);
    }
    ++c.exp_evals;
  }

  void derivative(const Point& y, const Increment* u, Increment& k, OpCounters& c) const {
    const Increment v = field(y, c);
    k = u != nullptr ? tso3::dexp_inv_series(*u, v, truncation_, series_side_) : v;
  }

  void advance(Point& y, const Increment& sigma, OpCounters& c) const {
    y = tso3::act(y, sigma, side_);
    ++c.exp_evals;
  }

 private:
  bool left() const { return side_ == tso3::ActionSide::right_multiply; }

  Increment field(const Point& y, OpCounters& c) const {
    ++c.rhs_evals;
    if (!model_->torque_free()) ++c.force_evals;
    if (left()) return {model_->angular_velocity(y.mu), model_->body_torque(y.R)};
    const so3::Vec3T<S> Pi = y.R.transpose() * y.mu;
    const so3::Vec3T<S> w_space = y.R * model_->angular_velocity(Pi);
    return {w_space, y.R * model_->body_torque(y.R) + y.mu.cross(w_space)};
  }

  const Model* model_;  // owned by the problem; outlives the stepper
  int truncation_;
  tso3::ActionSide side_, series_side_;
};

}  // namespace gib::rkmk
