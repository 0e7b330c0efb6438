// The cotangent bundle T*SO(3) as the semidirect-product Lie group SO(3) x| so(3)* (Kjer 2017, spec 2.2).
//
// Left (body) trivialisation, used by the thesis experiments and by gibench's RKMK:
//   element (R, mu) with mu the body angular momentum,
//   product (g, mu)(h, eta) = (g h, eta + h^T mu),
//   exp(xi, zeta) = (exp xi, J_r(xi) zeta),
//   RKMK action y_{n+1} = y_n exp(sigma)  ->  (R exp xi, exp(xi)^T mu + J_r(xi) zeta).
// Right (spatial) trivialisation: element (R, pi) with pi = R mu,
//   product (g, mu)(h, eta) = (g h, mu + g eta)   (= SE(3) with mu as the translation),
//   exp(xi, zeta) = (exp xi, J_l(xi) zeta),
//   RKMK action y_{n+1} = exp(sigma) y_n ->  (exp(xi) R, exp(xi) pi + J_l(xi) zeta).
// Both share the Lie algebra so(3) x| so(3)* with bracket
//   [(xi, zeta), (v, beta)] = (xi x v, xi x beta - v x zeta).
//
// The functions act on one (rotation, momentum) pair; the rigid-particle group of the dipolar-sphere
// problem ((R^3 x SO(3)) x| (R^3 x so(3)*))^N applies them per particle and adds its abelian
// translation block, so nothing here assumes a single body.
#pragma once

#include "core/so3.hpp"

namespace gib::tso3 {

using so3::ActionSide;

template <class S> struct Element {
  so3::Mat3T<S> R;
  so3::Vec3T<S> mu;
};

template <class S> struct Algebra {
  so3::Vec3T<S> xi;    // rotational part (angular velocity-like)
  so3::Vec3T<S> zeta;  // momentum part

  Algebra& operator+=(const Algebra& o) {
    xi += o.xi;
    zeta += o.zeta;
    return *this;
  }
  friend Algebra operator*(const S& s, const Algebra& a) { return {s * a.xi, s * a.zeta}; }
  friend Algebra operator+(const Algebra& a, const Algebra& b) { return {a.xi + b.xi, a.zeta + b.zeta}; }
  static Algebra zero() { return {so3::Vec3T<S>::Zero(), so3::Vec3T<S>::Zero()}; }
};

template <class S> Algebra<S> bracket(const Algebra<S>& a, const Algebra<S>& b) {
  return {a.xi.cross(b.xi), a.xi.cross(b.zeta) - b.xi.cross(a.zeta)};
}

// Group operations, left trivialisation.
template <class S> Element<S> multiply_left(const Element<S>& g, const Element<S>& h) {
  return {g.R * h.R, h.mu + h.R.transpose() * g.mu};
}
template <class S> Element<S> inverse_left(const Element<S>& g) { return {g.R.transpose(), -g.R * g.mu}; }
template <class S> Element<S> exp_left(const Algebra<S>& a) {
  return {so3::exp(a.xi), so3::dexp_right(a.xi) * a.zeta};
}

// Group operations, right trivialisation.
template <class S> Element<S> multiply_right(const Element<S>& g, const Element<S>& h) {
  return {g.R * h.R, g.mu + g.R * h.mu};
}
template <class S> Element<S> inverse_right(const Element<S>& g) { return {g.R.transpose(), -g.R.transpose() * g.mu}; }
template <class S> Element<S> exp_right(const Algebra<S>& a) {
  return {so3::exp(a.xi), so3::dexp_left(a.xi) * a.zeta};
}

// The RKMK action lambda(sigma, y). For right_multiply (left trivialisation) this is y exp(sigma);
// for left_multiply (right trivialisation) it is exp(sigma) y. One Rodrigues evaluation; the momentum
// part uses U^2 = u u^T - |u|^2 I so that only cross and dot products are needed.
template <class S> struct ActionTerms {
  so3::Coefficients<S> k;
  S cos_t;  // 1 - b |u|^2
};

template <class S> ActionTerms<S> action_terms(const Algebra<S>& sigma) {
  const S t2 = sigma.xi.squaredNorm();
  const auto k = so3::rodrigues_coefficients(t2);
  return {k, S(1) - k.b * t2};
}

// exp(hat(u)) from precomputed terms: cos t I + a hat(u) + b u u^T.
template <class S> so3::Mat3T<S> exp_from_terms(const so3::Vec3T<S>& u, const ActionTerms<S>& t) {
  so3::Mat3T<S> e = t.k.b * u * u.transpose() + t.k.a * so3::hat(u);
  e.diagonal().array() += t.cos_t;
  return e;
}

// Momentum part of the action alone (what a torque-free left-trivialised vector field needs):
//   jz = zeta + s b (u x zeta) + c u x (u x zeta)      (J_r zeta for s = -1, J_l zeta for s = +1)
//   cos t mu + s a (u x mu) + b (u . mu) u + jz       (exp(u)^T mu or exp(u) mu)
// Written out per component: as Eigen expressions the compiler stored each cross product as three scalars and read
// it back as a 2-double packet, a load that waits for the stores to retire (a quarter of an RKMK4 step went to
// these stalls). The operations and their order are those of the formulas, left to right.
template <class S>
so3::Vec3T<S> act_momentum(const so3::Vec3T<S>& mu, const Algebra<S>& sigma, const ActionTerms<S>& t, ActionSide side) {
  const S s = side == ActionSide::right_multiply ? S(-1) : S(1);
  const S* u = sigma.xi.data();
  const S* z = sigma.zeta.data();
  const S* m = mu.data();
  const S uz[3] = {u[1] * z[2] - u[2] * z[1], u[2] * z[0] - u[0] * z[2], u[0] * z[1] - u[1] * z[0]};
  const S u_uz[3] = {u[1] * uz[2] - u[2] * uz[1], u[2] * uz[0] - u[0] * uz[2], u[0] * uz[1] - u[1] * uz[0]};
  const S um[3] = {u[1] * m[2] - u[2] * m[1], u[2] * m[0] - u[0] * m[2], u[0] * m[1] - u[1] * m[0]};
  const S sb = s * t.k.b, sa = s * t.k.a;
  const S b_udm = t.k.b * (u[0] * m[0] + u[1] * m[1] + u[2] * m[2]);
  so3::Vec3T<S> out;
  for (int i = 0; i < 3; ++i) {
    const S jz = z[i] + sb * uz[i] + t.k.c * u_uz[i];
    out(i) = t.cos_t * m[i] + sa * um[i] + b_udm * u[i] + jz;
  }
  return out;
}

template <class S> Element<S> act(const Element<S>& y, const Algebra<S>& sigma, ActionSide side) {
  const ActionTerms<S> t = action_terms(sigma);
  const so3::Mat3T<S> E = exp_from_terms(sigma.xi, t);
  const so3::Mat3T<S> R = side == ActionSide::right_multiply ? so3::Mat3T<S>(y.R * E) : so3::Mat3T<S>(E * y.R);
  return {R, act_momentum(y.mu, sigma, t, side)};
}

// Truncated dexp^{-1} on so(3) x| so(3)*: sum_{k=0}^{K} B_k/k! (s ad_u)^k v, s = +1 for
// left_multiply and -1 for right_multiply (the sign rule of Kjer spec 3.2).
template <class S>
Algebra<S> dexp_inv_series(const Algebra<S>& u, const Algebra<S>& v, int order, ActionSide side) {
  const S sign = side == ActionSide::left_multiply ? S(1) : S(-1);
  // A bracket past the last nonzero coefficient would be computed only to be dropped (B_k = 0 for odd k > 1, and
  // RKMK4's K = 3 ends on one: a third of its series work), so the loop stops there; the sum is the same.
  int last = order < so3::kMaxSeriesOrder ? order : so3::kMaxSeriesOrder;
  while (last > 0 && so3::bernoulli_over_factorial<S>(last) == S(0)) --last;
  Algebra<S> term = v;
  Algebra<S> sum = v;
  for (int k = 1; k <= last; ++k) {
    term = sign * bracket(u, term);
    const S coeff = so3::bernoulli_over_factorial<S>(k);
    if (coeff != S(0)) sum += coeff * term;
  }
  return sum;
}

}  // namespace gib::tso3
