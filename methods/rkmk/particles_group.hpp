// N rigid particles for the RKMK kernel (kernel.hpp): the product group ((R^3 x SO(3)) x| (R^3 x so(3)*))^N of
// Kjer spec 3.5, left version, in the scalar of the state. Per particle, with increment U = (U_q, U_Q, U_p, U_m):
//   action y exp(U):  q + U_q,  Q exp(U_Q),  p + U_p,  exp(U_Q)^T m + J_r(U_Q) U_m   (core/tso3.hpp act)
//   field f(y):       (p/M, I^-1 m, F, tau), F and tau at the configuration of all particles (one force evaluation)
//   dexp^{-1}_U:      the rigid-body series on the rotation block (truncated after `truncation` ad terms); the
//                     translation block is abelian, so its components pass through unchanged.
// The rotation block of each particle is the rigid body's left-trivialised arithmetic, so one particle without forces
// reproduces RigidBodyGroup bit for bit.
//
// State: a type with members q, p, m (3 x N, Eigen) and Q (a std::vector of 3 x 3 rotations): ParticlesState in
// double, or the same layout in another scalar. Forces: has forces_and_torques(const State&, F, tau), filling the
// space-frame forces and body torques (RigidParticlesModel in double).
#pragma once

#include <Eigen/Core>
#include <cstddef>
#include <type_traits>
#include <utility>
#include <vector>

#include "core/counters.hpp"
#include "core/tso3.hpp"

namespace gib::rkmk {

template <class State, class Forces> class RigidParticlesGroup {
 public:
  using Point = State;
  using Scalar = typename std::remove_cvref_t<decltype(std::declval<State&>().q)>::Scalar;
  using S = Scalar;
  using Block = Eigen::Matrix<S, 3, Eigen::Dynamic>;
  using Vector = Eigen::Matrix<S, Eigen::Dynamic, 1>;

  // One algebra element per particle, column i for particle i.
  struct Increment {
    Block q, Q, p, m;
    tso3::Algebra<S> rotation(Eigen::Index i) const { return {Q.col(i), m.col(i)}; }
  };

  // inv_mass(i) = 1 / M_i, inv_inertia.col(i) = 1 / (principal moments of particle i); series_side as in
  // RigidBodyGroup (right_multiply, the action's own, except in the flipped-sign ablation).
  RigidParticlesGroup(Forces& forces, Vector inv_mass, Block inv_inertia, int truncation, tso3::ActionSide series_side)
      : forces_(&forces),
        inv_mass_(std::move(inv_mass)),
        inv_inertia_(std::move(inv_inertia)),
        truncation_(truncation),
        series_side_(series_side) {}

  bool shaped_for(const Point& y, const Increment& u) const { return u.q.cols() == y.q.cols(); }
  void shape(const Point& y, Increment& u) const {
    for (Block* b : {&u.q, &u.Q, &u.p, &u.m}) b->resize(3, y.q.cols());
  }
  void shape(const Point& y, Point& out) const {
    out.q.resize(3, y.q.cols());
    out.p.resize(3, y.q.cols());
    out.m.resize(3, y.q.cols());
    out.Q.assign(y.Q.size(), so3::Mat3T<S>::Identity());
  }

  void set_zero(Increment& u) const {
    u.q.setZero();
    u.Q.setZero();
    u.p.setZero();
    u.m.setZero();
  }
  // The same arithmetic per component as tso3::Algebra's operators.
  void add_scaled(Increment& u, const S& s, const Increment& k) const {
    u.q += s * k.q;
    u.Q += s * k.Q;
    u.p += s * k.p;
    u.m += s * k.m;
  }

  // One Rodrigues evaluation per particle.
  void stage_point(const Point& y, const Increment& u, Point& out, OpCounters& c) const {
    out.q = y.q + u.q;
    out.p = y.p + u.p;
    for (Eigen::Index i = 0; i < y.q.cols(); ++i) {
      const tso3::Element<S> yi = tso3::act(tso3::Element<S>{y.Q[at(i)], y.m.col(i)}, u.rotation(i), kSide);
      out.Q[at(i)] = yi.R;
      out.m.col(i) = yi.mu;
    }
    c.exp_evals += y.q.cols();
  }

  // Flattened: left to itself GCC calls the dexp^{-1} series out of line for every particle and stage, which costs
  // about 2% of a step at small N (callgrind, kjer2017_2d_n2).
  [[gnu::flatten]] void derivative(const Point& y, const Increment* u, Increment& k, OpCounters& c) {
    ++c.rhs_evals;
    ++c.force_evals;
    forces_->forces_and_torques(y, F_, tau_);
    for (Eigen::Index i = 0; i < y.q.cols(); ++i) {
      k.q.col(i) = y.p.col(i) * inv_mass_(i);
      k.p.col(i) = F_.col(i);
      const tso3::Algebra<S> v{inv_inertia_.col(i).cwiseProduct(y.m.col(i)), tau_.col(i)};
      if (u == nullptr) {
        k.Q.col(i) = v.xi;
        k.m.col(i) = v.zeta;
      } else {
        const tso3::Algebra<S> ki = tso3::dexp_inv_series(u->rotation(i), v, truncation_, series_side_);
        k.Q.col(i) = ki.xi;
        k.m.col(i) = ki.zeta;
      }
    }
  }

  void advance(Point& y, const Increment& sigma, OpCounters& c) const {
    y.q += sigma.q;
    y.p += sigma.p;
    for (Eigen::Index i = 0; i < y.q.cols(); ++i) {
      const tso3::Element<S> next = tso3::act(tso3::Element<S>{y.Q[at(i)], y.m.col(i)}, sigma.rotation(i), kSide);
      y.Q[at(i)] = next.R;
      y.m.col(i) = next.mu;
    }
    c.exp_evals += y.q.cols();
  }

 private:
  // Left version only: the thesis runs no right-trivialised particles.
  static constexpr tso3::ActionSide kSide = tso3::ActionSide::right_multiply;
  static std::size_t at(Eigen::Index i) { return static_cast<std::size_t>(i); }

  Forces* forces_;  // owned by the problem (or the caller); outlives the stepper
  Vector inv_mass_;
  Block inv_inertia_;
  int truncation_;
  tso3::ActionSide series_side_;
  Block F_, tau_;
};

}  // namespace gib::rkmk
