// SO(3) primitives shared by every method and problem.
//
// Conventions (used everywhere in gibench; convert once at the boundary when a paper differs):
//   * R maps body coordinates to space coordinates.
//   * hat(a) b = a x b; vee is its inverse on skew matrices.
//   * exp(u) is the rotation by |u| radians about u (right-hand rule), exp(u) = expm(hat(u)).
//   * Left Jacobian J_l(u):  exp(u + d) = exp(J_l(u) d) exp(u) + O(d^2)      ("spatial" trivialisation)
//     Right Jacobian J_r(u): exp(u + d) = exp(u) exp(J_r(u) d) + O(d^2)      ("body" trivialisation)
//     J_l(u) = (e^z - 1)/z at z = ad_u  (Kjer's dexp^R_u),  J_r(u) = J_l(-u) = J_l(u)^T.
//     dexp_left = J_l, dexp_right = J_r; dexp_inv_* are their inverses (singular at |u| = 2 pi).
//
// Every function is templated on the scalar so that references and precision studies can use
// long double (or a Boost.Multiprecision type). Small-angle branches use Taylor series with enough
// terms for long double; the closed forms are used only where they do not cancel.
#pragma once

#include <Eigen/Core>
#include <Eigen/Dense>
#include <array>
#include <cmath>
#include <limits>
#include <type_traits>

namespace gib::so3 {

template <class S> using Vec3T = Eigen::Matrix<S, 3, 1>;
template <class S> using Mat3T = Eigen::Matrix<S, 3, 3>;
using Vec3 = Vec3T<double>;
using Mat3 = Mat3T<double>;

template <class S> Mat3T<S> hat(const Vec3T<S>& v) {
  Mat3T<S> m;
  m << S(0), -v(2), v(1),
       v(2), S(0), -v(0),
      -v(1), v(0), S(0);
  return m;
}

// vee of a skew matrix (reads the lower-triangle entries, as Krysl's vee).
template <class S> Vec3T<S> vee(const Mat3T<S>& m) { return Vec3T<S>(m(2, 1), m(0, 2), m(1, 0)); }

// vee of the skew-symmetric part of an arbitrary matrix: vee((A - A^T)/2).
template <class S> Vec3T<S> vee_skew_part(const Mat3T<S>& a) {
  return Vec3T<S>(a(2, 1) - a(1, 2), a(0, 2) - a(2, 0), a(1, 0) - a(0, 1)) * S(0.5);
}

namespace detail {
using std::abs;

// Below this angle the Jacobian coefficients are evaluated by their Taylor series. The series
// carry enough terms that truncation stays below long double epsilon for theta < kSeriesAngle.
inline constexpr double kSeriesAngle = 0.5;

// Each coefficient is a ratio of two integers, both exact in long double (and so in any wider type). A scalar no
// wider than long double (double, long double) takes the long double quotient rounded to S, which is what it
// always took, so its results keep their bits. A wider one (binary128, Boost.Multiprecision) divides in its own
// precision, exactly rounded: a long double quotient would carry a relative error of up to 5e-20 into it (1/6, say),
// a million times binary128's epsilon.
struct Ratio {
  long double num, den;
  // The long double value, for code that reads a table directly.
  constexpr operator long double() const { return num / den; }  // NOLINT(google-explicit-constructor)
};

// sin(t)/t as a series in t^2: sum (-1)^k t^{2k}/(2k+1)!
inline constexpr Ratio kSinc[] = {{1, 1}, {-1, 6}, {1, 120}, {-1, 5040}, {1, 362880},
                                  {-1, 39916800}, {1, 6227020800.0L}, {-1, 1307674368000.0L},
                                  {1, 355687428096000.0L}};
// (1 - cos t)/t^2: sum (-1)^k t^{2k}/(2k+2)!
inline constexpr Ratio kCosc[] = {{1, 2}, {-1, 24}, {1, 720}, {-1, 40320}, {1, 3628800},
                                  {-1, 479001600}, {1, 87178291200.0L},
                                  {-1, 20922789888000.0L}, {1, 6402373705728000.0L}};
// (t - sin t)/t^3: sum (-1)^k t^{2k}/(2k+3)!
inline constexpr Ratio kSinc3[] = {{1, 6}, {-1, 120}, {1, 5040}, {-1, 362880},
                                   {1, 39916800}, {-1, 6227020800.0L}, {1, 1307674368000.0L},
                                   {-1, 355687428096000.0L}, {1, 121645100408832000.0L}};
// (1 - (t/2) cot(t/2)) / t^2 as a series in t^2:  sum_{n>=1} |B_2n| t^{2n-2} / (2n)!
inline constexpr Ratio kDexpInv[] = {
    {1, 12},                                // |B2|/2!
    {1, 720},                               // |B4|/4!
    {1, 30240},                             // |B6|/6!
    {1, 1209600},                           // |B8|/8!
    {1, 47900160},                          // |B10|/10!
    {691, 1307674368000.0L},                // |B12|/12!
    {1, 74724249600.0L},                    // |B14|/14! = (7/6)/14!
    {3617, 10670622842880000.0L},           // |B16|/16!
    {43867, 5109094217170944000.0L},        // |B18|/18!
};

template <class S> constexpr S ratio_in(const Ratio& r) {
  if constexpr (std::numeric_limits<S>::digits > std::numeric_limits<long double>::digits)
    return S(r.num) / S(r.den);
  else
    return static_cast<S>(r.num / r.den);
}

// Evaluating them in S: the table is converted to S once (at compile time for built-in floating
// types), so a double evaluation does not pay for long double loads in its hot loop.
template <class S, std::size_t N> constexpr std::array<S, N> table_in(const Ratio (&c)[N]) {
  std::array<S, N> out{};
  for (std::size_t i = 0; i < N; ++i) out[i] = ratio_in<S>(c[i]);
  return out;
}
template <class S, std::size_t N> constexpr std::array<S, N> table_in(const std::array<Ratio, N>& c) {
  std::array<S, N> out{};
  for (std::size_t i = 0; i < N; ++i) out[i] = ratio_in<S>(c[i]);
  return out;
}

// Terms of a Taylor table that matter in S for theta < kSeriesAngle: double needs 7 (the first omitted
// term is below 0.5 ulp at theta = 0.5), long double and wider types all 9.
template <class S> constexpr std::size_t series_terms(std::size_t n) {
  if constexpr (std::is_floating_point_v<S>) return std::numeric_limits<S>::digits <= 53 ? std::min<std::size_t>(n, 7) : n;
  return n;
}

template <class S, std::size_t N> S horner(const S& x, const std::array<S, N>& c, std::size_t n = N) {
  S r = c[n - 1];
  for (std::size_t i = n - 1; i-- > 0;) r = r * x + c[i];
  return r;
}

// The table C converted to S, once per type.
template <class S, const auto& C> const auto& table() {
  if constexpr (std::is_floating_point_v<S>) {
    static constexpr auto t = table_in<S>(C);
    return t;
  } else {
    static const auto t = table_in<S>(C);
    return t;
  }
}

}  // namespace detail

// Coefficients of the Rodrigues-type formulas, each a smooth function of theta = |u|.
// a = sin t / t, b = (1 - cos t)/t^2, c = (t - sin t)/t^3, d = (1 - (t/2)cot(t/2))/t^2.
template <class S> struct Coefficients {
  S a, b, c;
};

template <class S> Coefficients<S> rodrigues_coefficients(const S& theta2) {
  using std::cos;
  using std::sin;
  using std::sqrt;
  if (theta2 < S(detail::kSeriesAngle * detail::kSeriesAngle)) {
    return {detail::horner(theta2, detail::table<S, detail::kSinc>(), detail::series_terms<S>(9)), detail::horner(theta2, detail::table<S, detail::kCosc>(), detail::series_terms<S>(9)),
            detail::horner(theta2, detail::table<S, detail::kSinc3>(), detail::series_terms<S>(9))};
  }
  const S t = sqrt(theta2);
  const S s = sin(t);
  const S half = sin(t / S(2));
  return {s / t, S(2) * half * half / theta2, (t - s) / (theta2 * t)};
}

template <class S> S dexp_inv_coefficient(const S& theta2) {
  using std::sqrt;
  using std::tan;
  if (theta2 < S(detail::kSeriesAngle * detail::kSeriesAngle))
    return detail::horner(theta2, detail::table<S, detail::kDexpInv>(), std::min<std::size_t>(detail::series_terms<S>(9) + 1, 9));
  const S t = sqrt(theta2);
  const S x = t / S(2);
  return (S(1) - x / tan(x)) / theta2;
}

// exp: so(3) -> SO(3), Rodrigues formula.
template <class S> Mat3T<S> exp(const Vec3T<S>& u) {
  const S t2 = u.squaredNorm();
  const auto k = rodrigues_coefficients(t2);
  const Mat3T<S> U = hat(u);
  return Mat3T<S>::Identity() + k.a * U + k.b * U * U;
}

// Rotation angle of a (near-)rotation matrix, robust everywhere: atan2 of the skew and trace parts.
// For a matrix off SO(3) (a non-geometric integrator's output) this is the angle of its rotation-like part.
template <class S> S rotation_angle(const Mat3T<S>& r) {
  using std::atan2;
  const S s = vee_skew_part(r).norm();
  const S c = (r.trace() - S(1)) / S(2);
  return atan2(s, c);
}

// log: SO(3) -> so(3), principal branch |u| <= pi. Stable near 0 (series) and near pi (symmetric part).
template <class S> Vec3T<S> log(const Mat3T<S>& r) {
  using std::atan2;
  using std::sqrt;
  const Vec3T<S> w = vee_skew_part(r);  // = sin(t) n
  const S s = w.norm();
  const S c = (r.trace() - S(1)) / S(2);
  const S t = atan2(s, c);
  if (c > S(-0.5)) {
    // theta < 2pi/3: w / (sin t / t) has no cancellation.
    return w / rodrigues_coefficients(t * t).a;
  }
  // Near pi: R + R^T = 2 c I + 2 (1 - c) n n^T. Take the best-conditioned column.
  const Mat3T<S> sym = (r + r.transpose()) / S(2) - c * Mat3T<S>::Identity();
  int j = 0;
  for (int i = 1; i < 3; ++i)
    if (sym(i, i) > sym(j, j)) j = i;
  Vec3T<S> n = sym.col(j) / sqrt(sym(j, j) * (S(1) - c));
  n.normalize();
  if (n.dot(w) < S(0)) n = -n;
  return t * n;
}

// Left and right Jacobians of exp and their inverses (closed forms with series branches).
template <class S> Mat3T<S> dexp_left(const Vec3T<S>& u) {
  const auto k = rodrigues_coefficients(u.squaredNorm());
  const Mat3T<S> U = hat(u);
  return Mat3T<S>::Identity() + k.b * U + k.c * U * U;
}
template <class S> Mat3T<S> dexp_right(const Vec3T<S>& u) {
  const auto k = rodrigues_coefficients(u.squaredNorm());
  const Mat3T<S> U = hat(u);
  return Mat3T<S>::Identity() - k.b * U + k.c * U * U;
}
template <class S> Mat3T<S> dexp_inv_left(const Vec3T<S>& u) {
  const Mat3T<S> U = hat(u);
  return Mat3T<S>::Identity() - S(0.5) * U + dexp_inv_coefficient(u.squaredNorm()) * U * U;
}
template <class S> Mat3T<S> dexp_inv_right(const Vec3T<S>& u) {
  const Mat3T<S> U = hat(u);
  return Mat3T<S>::Identity() + S(0.5) * U + dexp_inv_coefficient(u.squaredNorm()) * U * U;
}

// Bernoulli numbers B_k / k! with B_1 = -1/2, k = 0..20 (exact ratios, as the series tables above).
inline constexpr std::array<detail::Ratio, 21> kBernoulliOverFactorial = {{
    {1, 1}, {-1, 2}, {1, 12}, {0, 1}, {-1, 720}, {0, 1}, {1, 30240}, {0, 1}, {-1, 1209600}, {0, 1},
    {1, 47900160}, {0, 1}, {-691, 1307674368000.0L}, {0, 1}, {1, 74724249600.0L}, {0, 1},
    {-3617, 10670622842880000.0L}, {0, 1}, {43867, 5109094217170944000.0L}, {0, 1},
    {-174611, 802857662698291200000.0L}}};
inline constexpr int kBernoulliTableOrder = 20;
// The truncated series accept any order up to this; beyond the table the coefficients come from
// B_2n/(2n)! = (-1)^(n+1) 2 zeta(2n) / (2 pi)^(2n).
inline constexpr int kMaxSeriesOrder = 200;

template <class S> S bernoulli_over_factorial(int k) {
  using std::pow;
  if (k <= kBernoulliTableOrder) return detail::table<S, kBernoulliOverFactorial>()[static_cast<std::size_t>(k)];
  if (k % 2 == 1) return S(0);
  S zeta = S(1);
  for (int j = 2;; ++j) {
    const S term = pow(S(j), S(-k));
    zeta += term;
    if (term < std::numeric_limits<S>::epsilon() * zeta) break;
  }
  const S two_pi = S(2) * S(3.141592653589793238462643383279502884L);
  const S value = S(2) * zeta / pow(two_pi, S(k));
  return (k / 2) % 2 == 1 ? value : -value;
}

// Which side the Lie-group action multiplies: the dexp^{-1} series sign depends on it (Kjer spec 3.2).
//   left_multiply:  y_{n+1} = exp(sigma) y_n   (y' = f(y) y),  series in +ad_sigma  (B_1 = -1/2)
//   right_multiply: y_{n+1} = y_n exp(sigma)   (y' = y f(y)),  series in -ad_sigma
enum class ActionSide { left_multiply, right_multiply };

// Truncated dexp^{-1} series sum_{k=0}^{K} B_k/k! (s ad_u)^k v on so(3), s = +1 / -1 by side,
// for any K up to kMaxSeriesOrder (it converges for |u| < 2 pi).
// With K = infinity this equals dexp_inv_left(u) v (left_multiply) or dexp_inv_right(u) v.
template <class S>
Vec3T<S> dexp_inv_series(const Vec3T<S>& u, const Vec3T<S>& v, int order, ActionSide side) {
  const S sign = side == ActionSide::left_multiply ? S(1) : S(-1);
  Vec3T<S> term = v;
  Vec3T<S> sum = v;
  for (int k = 1; k <= order && k <= kMaxSeriesOrder; ++k) {
    term = sign * u.cross(term);
    const S coeff = bernoulli_over_factorial<S>(k);
    if (coeff != S(0)) sum += coeff * term;
  }
  return sum;
}

// Cayley map cay(u) = (I - U/2)^{-1} (I + U/2), the convention with the 1/2 factors (Krysl spec 3.4).
template <class S> Mat3T<S> cayley(const Vec3T<S>& u) {
  const Mat3T<S> U = hat(u);
  return Mat3T<S>::Identity() + (S(4) / (S(4) + u.squaredNorm())) * (U + U * U / S(2));
}

// Inverse Cayley map (defined for rotations by less than pi): cay^{-1}(R) = 2 (I+R)^{-1}(R - I) as a vector.
template <class S> Vec3T<S> cayley_inv(const Mat3T<S>& r) {
  return S(2) * vee_skew_part(r) / ((S(1) + r.trace()) / S(2));
}

// Unit quaternion q = (w, x, y, z) <-> rotation matrix. The matrix formula is the homogeneous one,
// R(q) = (w^2 - |v|^2) I + 2 v v^T + 2 w hat(v), so a non-unit q gives |q|^2 times a rotation: methods
// that integrate q without renormalising keep that drift visible in the manifold residual.
template <class S> Mat3T<S> matrix_from_quaternion(const Eigen::Matrix<S, 4, 1>& q) {
  const S w = q(0);
  const Vec3T<S> v = q.template tail<3>();
  return (w * w - v.squaredNorm()) * Mat3T<S>::Identity() + S(2) * v * v.transpose() + S(2) * w * hat(v);
}

// Shepperd's method: picks the largest of w, x, y, z to avoid cancellation. Returns w >= 0.
template <class S> Eigen::Matrix<S, 4, 1> quaternion_from_matrix(const Mat3T<S>& r) {
  using std::sqrt;
  Eigen::Matrix<S, 4, 1> q;
  const S tr = r.trace();
  const S d[4] = {tr, r(0, 0), r(1, 1), r(2, 2)};
  int k = 0;
  for (int i = 1; i < 4; ++i)
    if (d[i] > d[k]) k = i;
  if (k == 0) {
    const S s = sqrt(S(1) + tr) * S(2);
    q << s / S(4), (r(2, 1) - r(1, 2)) / s, (r(0, 2) - r(2, 0)) / s, (r(1, 0) - r(0, 1)) / s;
  } else if (k == 1) {
    const S s = sqrt(S(1) + r(0, 0) - r(1, 1) - r(2, 2)) * S(2);
    q << (r(2, 1) - r(1, 2)) / s, s / S(4), (r(0, 1) + r(1, 0)) / s, (r(0, 2) + r(2, 0)) / s;
  } else if (k == 2) {
    const S s = sqrt(S(1) + r(1, 1) - r(0, 0) - r(2, 2)) * S(2);
    q << (r(0, 2) - r(2, 0)) / s, (r(0, 1) + r(1, 0)) / s, s / S(4), (r(1, 2) + r(2, 1)) / s;
  } else {
    const S s = sqrt(S(1) + r(2, 2) - r(0, 0) - r(1, 1)) * S(2);
    q << (r(1, 0) - r(0, 1)) / s, (r(0, 2) + r(2, 0)) / s, (r(1, 2) + r(2, 1)) / s, s / S(4);
  }
  if (q(0) < S(0)) q = -q;
  return q;
}

// Orthogonality defect |R^T R - I|_F, the manifold residual.
template <class S> S orthogonality_defect(const Mat3T<S>& r) {
  return (r.transpose() * r - Mat3T<S>::Identity()).norm();
}

}  // namespace gib::so3
