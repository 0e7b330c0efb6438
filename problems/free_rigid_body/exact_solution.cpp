// Exact solution of the free rigid body (see exact_solution.hpp for the construction).
//
// MEASURED ACCURACY (tests/test_exact_solution.cpp; x86-64 long double, eps_ld = 1.1e-19)
// -----------------------------------------------------------------------------------
// Against long double RKF78 (exact_validation.cpp, step 0.05 / (|Pi| / min I); halving the step changes
// it by < 1e-13 at t = 1000, all of it rounding), max over 25 times in [0, 1000] of the rotation angle
// and the relative momentum error:
//   6 random bodies (I in [0.3, 3]^3, Haar R0, Gaussian Pi0)        2e-15 .. 2.1e-14
//   all 6 orderings of I = (1, 2, 3.5), both sides of the separatrix  1.2e-15 .. 1.3e-14
//   I1 = I2 < I3, I1 < I2 = I3, I1 = I3 > I2, |I3 - I2| or |I2 - I1| = 1e-6  4e-16 .. 6e-15
//   sphere, rotation about each principal axis, axes 1, 3 + 1e-9       4e-17 .. 3e-16
// Krysl 2006 at t = 100: within 7.8e-13 of the prototype's 12-digit values (its own accuracy ~4e-13),
// within 5e-17 of a 50-digit RKF78.
//
// Near the separatrix, Pi0 = (1, 4, 1 + delta) on I = (2, 3, 6), k'^2 ~ 0.22 |delta|:
//   k'      side | vs 50-digit RKF78 | vs long double RKF78, max over t <=   | R(t) moved by 1 ulp in Pi0_3
//                |  t <= 100         |  10      20      50      100    1000 |  t <= 10   100     1000
//   1e-2    D<0  | 1.0e-16           | 1e-16   1e-16   2e-14   1e-13  6e-12 |  4e-14    3e-12   3e-11
//   1e-2    D>0  | 1.0e-16           | 1e-16   3e-16   1e-14   2e-14  1e-12 |  2e-14    1e-12   1e-11
//   1e-4    D<0  | 9.5e-17           | 6e-17   1e-14   5e-13   2e-11  9e-10 |  4e-14    5e-9    1e-7
//   1e-4    D>0  | 1.0e-16           | 1e-16   1e-13   3e-12   7e-11  7e-9  |  2e-14    3e-9    5e-8
//   1e-6    D<0  | 1.0e-16           | 1e-16   9e-14   8e-8    2e-6   6e-5  |  4e-14    6e-5    1e-3
//   1e-6    D>0  | 8.9e-17           | 9e-17   5e-14   5e-8    1e-6   1e-5  |  2e-14    3e-5    5e-4
//   9.9e-9  D<0  | 8.8e-17           | 8e-17   5e-15   8e-6    3e-5   0.3   |  4e-14    0.2     3
//   9.9e-9  D>0  | 9.8e-17           | 7e-17   2e-14   3e-5    1e-4   1.5   |  2e-14    0.2     3
//   exactly on the separatrix (three bodies) and the middle axis + 1e-9 (k' = 2.7e-10): <= 1.9e-16
//   against 50 digits (to t = 80 for I = (1, 2.5, 4), where the 50-digit integration's own
//   step-halving difference grows as exp(0.9 t) past 1e-18); long double RKF78 off by 1e-11 .. pi.
// The problem is ill-conditioned there, not the formulas: the period grows like log(1/k'), so a
// relative change of 1e-16 in Pi0 moves R(t) by ~1e-16 t / k'^2 (last columns), and the rounding of the
// long double integration acts as such a change at every step. The exact solution, which has no
// such drift, agrees with the 50-digit integration to the double floor for every k'.
//
// Evaluation error (evaluation_error(): state(t) in double against the same formulas in 50 digits),
// over 150 random bodies (|Pi| spanning e^[-3, 3]), the table above and the middle axis + 1e-12
// (k' = 1.6e-13), t up to 1e4: <= 1.0e-16 + 1.5 eps_ld (1 + |Pi| t / min I); before the rounding to
// double, <= 6.7 eps_ld (1 + |Pi| t / min I). error_estimate() uses 4e-16 + 16 eps_ld (1 + |Pi| t / min I).
// Cost (x86-64, -O2): set-up 20-45 us; state(t) 5.6 us (k' = 1e-8: 7.9 us; separatrix, symmetric and
// steady: 1.1-1.5 us).
//
// Numerical choices, each made because the obvious alternative measurably lost accuracy:
//  * The side of the separatrix is decided by D = sum Pi_i^2 (I_mid/I_i - 1), evaluated exactly (640-bit
//    binary floating point holds every product of four doubles), so D == 0 happens exactly on the
//    separatrix and nowhere else, and k'^2 = -(I3 - I1) D / ((I3 - I2)(mu^2 - 2H I1)) keeps full relative
//    accuracy however close to the separatrix the data are. Boost's jacobi_elliptic and ellint_* take k,
//    and k = 1 - k'^2/2 rounds k'^2 to an absolute 1e-19: the period K ~ log(4/k') then has a relative
//    error of about 1e-19/k'^2 (1e-3 at k' = 1e-8). So sn, cn, dn come from our own descending-Landen (AGM)
//    recursion seeded with (1, k', k), and the integrals from Boost's Carlson R_F and R_J, whose
//    arguments (cn^2, dn^2 = cn^2 + k'^2 sn^2, 1) need no k.
//  * Near u = K, cn and dn are O(k') and R_F(cn^2, dn^2, 1) needs them to relative accuracy; an absolute
//    error eps in am(u) costs eps/k' there, and eps/sqrt(k') at u = K/2 where the level-1 angle of the
//    recursion is near pi/2. Every angle of the recursion is therefore carried as m pi/2 + e, with the
//    differences that cancel as k -> 1 taken from their sine and cosine (near the saddle at
//    k' = 1.6e-13 this took the evaluation error from 5e-15 to 2e-17).
//  * Every quantity of the set-up (A^2, B^2, C^2, lambda, 2H I3 - mu^2, mu^2 - 2H I1) is a sum of terms of
//    one sign.
//  * Steady rotation (any Pi with Pi x I^{-1} Pi = 0, decided exactly: all non-zero components on equal
//    moments) is R0 exp(t hat(omega)).
#include "problems/free_rigid_body/exact_solution.hpp"

#include <algorithm>
#include <array>
#include <boost/math/constants/constants.hpp>
#include <boost/math/special_functions/ellint_rf.hpp>
#include <boost/math/special_functions/ellint_rj.hpp>
#include <boost/multiprecision/cpp_bin_float.hpp>
#include <boost/multiprecision/eigen.hpp>
#include <cmath>
#include <limits>

namespace gib::free_rigid_body {
namespace {

namespace mp = boost::multiprecision;
template <class T> using V3 = so3::Vec3T<T>;
template <class T> using M3 = so3::Mat3T<T>;

// Wide enough that every product of four doubles (and their sum, for exponent spreads below ~380 bits)
// is exact: used once per set-up to decide the side of the separatrix.
using Exact = mp::number<mp::cpp_bin_float<640, mp::digit_base_2>, mp::et_off>;
using Digits50 = mp::cpp_bin_float_50;

enum class Regime { steady, circulating, separatrix };

template <class T> T pi_constant() { return boost::math::constants::pi<T>(); }

// ---------------------------------------------------------------------------------------------
// Jacobi elliptic functions by the descending Landen transformation (AGM seeded with 1, k', k).

template <class T> struct Jacobi {
  T sn, cn, dn;
};

// An angle m pi/2 + e with |e| <= pi/4, so that angles close to a multiple of pi/2 keep their distance
// to it with full relative accuracy.
template <class T> struct QuarterAngle {
  long long m = 0;
  T e = 0;
};

template <class T> class Landen {
 public:
  Landen(const T& k, const T& kc) : kc2_(kc * kc) {
    using std::sqrt;
    a_[0] = T(1);
    b_[0] = kc;
    c_[0] = k;
    const T tol = std::numeric_limits<T>::epsilon();
    while (levels_ + 1 < kMax && c_[levels_] > tol * a_[levels_]) {
      const int i = levels_++;
      a_[i + 1] = (a_[i] + b_[i]) / 2;
      b_[i + 1] = sqrt(a_[i] * b_[i]);
      c_[i + 1] = (a_[i] - b_[i]) / 2;
    }
    quarter_period_ = pi_constant<T>() / (2 * a_[levels_]);
  }

  const T& quarter_period() const { return quarter_period_; }

  // am(u) for |u| <= K (continuous, odd).
  T amplitude(const T& u) const {
    const QuarterAngle<T> q = descend(u);
    return T(q.m) * pi_constant<T>() / 2 + q.e;
  }

  // sn, cn, dn at |r| <= K, each with relative accuracy. Near r = +-K, cn and dn are O(k') and carry
  // the near-separatrix motion; an absolute error eps in am(r) there would cost eps/k' in the
  // third-kind integral, so every angle of the recursion is kept as a QuarterAngle.
  Jacobi<T> functions(const T& r) const {
    using std::cos;
    using std::sin;
    using std::sqrt;
    const QuarterAngle<T> q = descend(r);
    const T s = sin(q.e), c = cos(q.e);
    T sn = s, cn = c;
    switch (((q.m % 4) + 4) % 4) {
      case 1: sn = c; cn = -s; break;
      case 2: sn = -s; cn = -c; break;
      case 3: sn = -c; cn = s; break;
      default: break;
    }
    return {sn, cn, sqrt(cn * cn + kc2_ * sn * sn)};
  }

 private:
  // phi_N = 2^N a_N u = (pi/2) 2^N u / K, then phi_{i-1} = (phi_i + asin(gamma_i sin phi_i)) / 2.
  QuarterAngle<T> descend(const T& u) const {
    using std::round;
    T scaled = u;
    for (int i = 0; i < levels_; ++i) scaled *= 2;
    QuarterAngle<T> q;
    const T m = round(scaled / quarter_period_);
    q.m = static_cast<long long>(m);
    q.e = (scaled - m * quarter_period_) / quarter_period_ * pi_constant<T>() / 2;
    for (int i = levels_; i >= 1; --i) q = landen_step(i, q);
    return q;
  }

  // One step of the recursion on m pi/2 + e. With m = 2p: asin(gamma sin phi) = (-1)^p theta,
  // theta = asin(gamma sin e); with m = 2p + 1: it is (-1)^p (pi/2 - beta), beta = acos(gamma cos e).
  // The differences e - theta and e -+ beta, which cancel when gamma -> 1, are taken from their sine
  // and cosine, where 1 - gamma^2 = (b_{i-1}/a_i)(1 + gamma) appears explicitly.
  QuarterAngle<T> landen_step(int i, const QuarterAngle<T>& q) const {
    using std::atan2;
    using std::cos;
    using std::sin;
    using std::sqrt;
    const T gamma = c_[i] / a_[i];
    const T omg = b_[i - 1] / a_[i] * (1 + gamma);  // 1 - gamma^2
    const T s = sin(q.e), c = cos(q.e);
    const long long p = (q.m - (q.m & 1)) / 2;  // floor(m / 2)
    const bool p_even = (p & 1) == 0;
    QuarterAngle<T> next;
    T twice;  // 2 e'
    if ((q.m & 1) == 0) {
      const T root = sqrt(1 - gamma * gamma * s * s);  // >= 1/sqrt2, no cancellation
      next.m = p;
      twice = p_even ? q.e + atan2(gamma * s, root)
                     : atan2(s * omg / (root + gamma * c), c * root + gamma * s * s);
    } else {
      const T w = sqrt(omg + gamma * gamma * s * s);  // sin(beta)
      if (p_even) {
        next.m = p + 1;  // e - beta
        twice = s <= 0 ? q.e - atan2(w, gamma * c) : -atan2(c * omg / (w + gamma * s), gamma * c * c + w * s);
      } else {
        next.m = p;  // e + beta
        twice = s >= 0 ? q.e + atan2(w, gamma * c) : atan2(c * omg / (w - gamma * s), gamma * c * c - w * s);
      }
    }
    next.e = twice / 2;
    const T quarter = pi_constant<T>() / 4;
    if (next.e > quarter) {
      next.e -= 2 * quarter;
      ++next.m;
    } else if (next.e < -quarter) {
      next.e += 2 * quarter;
      --next.m;
    }
    return next;
  }

  static constexpr int kMax = 64;
  std::array<T, kMax> a_{}, b_{}, c_{};
  int levels_ = 0;
  T kc2_, quarter_period_;
};

// int_0^phi dtheta / ((1 - n sin^2) sqrt(1 - k^2 sin^2)) for |phi| <= pi/2 given s = sin, c = cos >= 0.
template <class T> T third_kind_sc(const T& n, const T& s, const T& c, const T& kc2) {
  using boost::math::ellint_rf;
  using boost::math::ellint_rj;
  const T c2 = c * c, d2 = c2 + kc2 * s * s;
  T r = s * ellint_rf(c2, d2, T(1));
  if (n != 0) r += n / 3 * s * s * s * ellint_rj(c2, d2, T(1), 1 - n * s * s);
  return r;
}

template <class T> T first_kind_sc(const T& s, const T& c, const T& kc2) {
  return s * boost::math::ellint_rf(c * c, c * c + kc2 * s * s, T(1));
}

// ---------------------------------------------------------------------------------------------
// Classification.

// m'_i = sign_i Pi[index_i]: the signed permutation S (det S = +1) to the labelled body frame.
struct Labelling {
  std::array<int, 3> index{0, 1, 2};
  std::array<int, 3> sign{1, 1, 1};
};

std::array<int, 3> ascending_moments(const Vec3& inertia) {
  std::array<int, 3> idx{0, 1, 2};
  std::stable_sort(idx.begin(), idx.end(), [&](int a, int b) { return inertia(a) < inertia(b); });
  return idx;
}

// Pi is an equilibrium iff every non-zero component belongs to one and the same moment.
bool is_equilibrium(const Vec3& inertia, const Vec3& pi) {
  int first = -1;
  for (int i = 0; i < 3; ++i) {
    if (pi(i) == 0.0) continue;
    if (first < 0) first = i;
    else if (inertia(i) != inertia(first)) return false;
  }
  return true;
}

// D = sum Pi_i^2 (I_mid/I_i - 1) = [Pi_a^2 (I_mid - I_a) I_b + Pi_b^2 (I_mid - I_b) I_a] / (I_a I_b),
// numerator exact.
template <class T> T separatrix_distance(const Vec3& inertia, const Vec3& pi) {
  const auto idx = ascending_moments(inertia);
  const int a = idx[0], m = idx[1], b = idx[2];
  const Exact ia(inertia(a)), ib(inertia(b)), im(inertia(m)), pa(pi(a)), pb(pi(b));
  const Exact num = pa * pa * (im - ia) * ib + pb * pb * (im - ib) * ia;
  return static_cast<T>(Exact(num / (ia * ib)));
}

// Circulated axis last; moments increasing (D <= 0) or decreasing (D > 0) along the labels.
Labelling make_labelling(const Vec3& inertia, bool about_smallest) {
  Labelling l;
  l.index = ascending_moments(inertia);
  if (about_smallest) std::reverse(l.index.begin(), l.index.end());
  int inversions = 0;
  for (int i = 0; i < 3; ++i)
    for (int j = i + 1; j < 3; ++j) inversions += l.index[i] > l.index[j];
  if (inversions % 2) l.sign[1] = -1;
  return l;
}

template <class T> M3<T> labelling_matrix(const Labelling& l) {
  M3<T> s = M3<T>::Zero();
  for (int i = 0; i < 3; ++i) s(i, l.index[i]) = T(l.sign[i]);
  return s;
}

// ---------------------------------------------------------------------------------------------
// Attitude frames.

// A(m): rows b1 = (-a2, a1, 0)/rho, b2 = (-a1 a3, -a2 a3, rho^2)/rho, b3 = a = m/|m|.
template <class T> M3<T> momentum_frame(const V3<T>& m) {
  using std::sqrt;
  const V3<T> a = m / m.norm();
  const T rho = sqrt(a(0) * a(0) + a(1) * a(1));
  M3<T> f;
  f << -a(1) / rho, a(0) / rho, T(0),
       -a(0) * a(2) / rho, -a(1) * a(2) / rho, rho,
       a(0), a(1), a(2);
  return f;
}

template <class T> M3<T> rotation_z(const T& psi) {
  using std::cos;
  using std::sin;
  const T c = cos(psi), s = sin(psi);
  M3<T> r;
  r << c, -s, T(0), s, c, T(0), T(0), T(0), T(1);
  return r;
}

// A rotation G with G e = e3 for a unit vector e.
template <class T> M3<T> align_with_e3(const V3<T>& e) {
  using std::abs;
  int j = 0;
  for (int i = 1; i < 3; ++i)
    if (abs(e(i)) < abs(e(j))) j = i;
  const V3<T> g1 = V3<T>::Unit(j).cross(e).normalized();
  const V3<T> g2 = e.cross(g1);
  M3<T> g;
  g.row(0) = g1.transpose();
  g.row(1) = g2.transpose();
  g.row(2) = e.transpose();
  return g;
}

// exp(hat(w)) by Rodrigues with sin(t)/t and 2 sin^2(t/2)/t^2, which do not cancel at any angle and
// are accurate to the working precision (so3::exp's series branch has long double coefficients, which would cap
// the 50-digit evaluation of evaluation_error at ~1e-20).
template <class T> M3<T> rotation_exp(const V3<T>& w) {
  using std::sin;
  const T t = w.norm();
  if (t == 0) return M3<T>::Identity();
  const T half = sin(t / 2);
  const M3<T> h = so3::hat<T>(w);
  return M3<T>::Identity() + (sin(t) / t) * h + (2 * half * half / (t * t)) * h * h;
}

template <class T> struct StateT {
  M3<T> R;
  V3<T> Pi;
};

// ---------------------------------------------------------------------------------------------
// The solution, in the labelled frame: m1 = A cn u, m2 = B sn u, m3 = C dn u, u = lambda t + nu,
// psi = psi0 + mu t / I3 + coef (W(u) - W(nu)), W(u) = int_0^u du / (1 - n sn^2 u).

template <class T> class Solution {
 public:
  Solution(const Vec3& inertia, const RigidBodyState& x0) {
    inertia_ = inertia.cast<T>();
    r0_ = x0.R.cast<T>();
    pi0_ = x0.Pi.cast<T>();
    distance_ = separatrix_distance<T>(inertia, x0.Pi);
    if (is_equilibrium(inertia, x0.Pi)) {
      regime_ = Regime::steady;
      return;
    }
    regime_ = distance_ == 0 ? Regime::separatrix : Regime::circulating;
    labels_ = make_labelling(inertia, distance_ > 0);
    s_ = labelling_matrix<T>(labels_);
    for (int i = 0; i < 3; ++i) i_(i) = T(inertia(labels_.index[i]));
    set_up_elliptic(s_ * pi0_);
    set_up_attitude(s_ * pi0_);
  }

  StateT<T> state(const T& t) const {
    if (regime_ == Regime::steady) {
      const V3<T> omega = pi0_.cwiseQuotient(inertia_);
      return {r0_ * rotation_exp<T>(V3<T>(t * omega)), pi0_};
    }
    const T u = lambda_ * t + nu_;
    V3<T> m;
    const T w = phase_integral(u, &m);
    const T psi = psi0_ + mu_ * t / i_(2) + coef_ * (w - w_nu_);
    StateT<T> x;
    x.R = g_.transpose() * rotation_z(psi) * momentum_frame(m) * s_;
    x.Pi = s_.transpose() * m;
    return x;
  }

  Regime regime() const { return regime_; }
  T modulus() const { using std::sqrt; return regime_ == Regime::steady ? T(0) : sqrt(k2_); }
  T complementary_modulus() const { using std::sqrt; return regime_ == Regime::steady ? T(1) : sqrt(kc2_); }
  T distance() const { return distance_; }
  T period() const {
    if (regime_ == Regime::steady) return T(0);
    if (regime_ == Regime::separatrix) return std::numeric_limits<T>::infinity();
    return 4 * landen_->quarter_period() / lambda_;
  }
  // |Pi| / min I bounds |omega| along the motion, the rate at which rounding errors in the phases grow.
  T omega_bound() const { return pi0_.norm() / inertia_.minCoeff(); }

 private:
  // Amplitudes, rate and moduli from m(0); every difference of moments is formed once, and every sum
  // has terms of one sign.
  void set_up_elliptic(const V3<T>& m) {
    using std::abs;
    using std::sqrt;
    const T i1 = i_(0), i2 = i_(1), i3 = i_(2);
    const T d21 = i2 - i1, d31 = i3 - i1, d32 = i3 - i2;
    const T m1s = m(0) * m(0), m2s = m(1) * m(1), m3s = m(2) * m(2);
    mu_ = m.norm();
    const T delta1 = m2s * d21 / i2 + m3s * d31 / i3;  // mu^2 - 2H I1
    const T delta3 = m1s * d31 / i1 + m2s * d32 / i2;  // 2H I3 - mu^2
    k2_ = d21 == 0 ? T(0) : d21 * delta3 / (d32 * delta1);
    kc2_ = -d31 * distance_ / (d32 * delta1);
    a_ = sqrt(m1s + m2s * i1 * d32 / (i2 * d31));
    if (regime_ == Regime::separatrix && m(0) < 0) a_ = -a_;  // cn = sech > 0 keeps the sign of m1
    const T c = sqrt(m3s + m2s * i3 * d21 / (i2 * d31));
    c_ = m(2) < 0 ? -c : c;
    lambda_ = c * sqrt(d31 * d32 / (i1 * i2)) / i3;
    b_ = d31 / (i1 * i3) * a_ * c_ / lambda_;
    n_ = -i3 * d21 / (d32 * i1);
    coef_ = mu_ * d31 / (i1 * i3 * lambda_);
    if (regime_ == Regime::separatrix) set_up_separatrix(m);
    else set_up_circulation(m);
    V3<T> unused;
    w_nu_ = phase_integral(nu_, &unused);
  }

  void set_up_separatrix(const V3<T>& m) {
    using std::asinh;
    k2_ = T(1);
    kc2_ = T(0);
    nu_ = asinh((m(1) / b_) / (m(0) / a_));  // sinh(nu) = sn/cn
  }

  void set_up_circulation(const V3<T>& m) {
    using std::sqrt;
    landen_ = std::make_shared<Landen<T>>(sqrt(k2_), sqrt(kc2_));
    two_k_ = 2 * landen_->quarter_period();
    complete_ = third_kind_sc(n_, T(1), T(0), kc2_);
    nu_ = initial_phase(m);
  }

  // nu = F(phi0, k), phi0 = atan2(m2/B, m1/A), using F(pi - phi) = 2K - F(phi).
  T initial_phase(const V3<T>& m) const {
    using std::sqrt;
    T s = m(1) / b_, c = m(0) / a_;
    const T h = sqrt(s * s + c * c);
    s /= h;
    c /= h;
    using std::abs;
    const T f = first_kind_sc(s, T(abs(c)), kc2_);
    if (c >= 0) return f;
    return (s < 0 ? -two_k_ : two_k_) - f;
  }

  // W(u) and m(u).
  T phase_integral(const T& u, V3<T>* m) const {
    using std::atan;
    using std::cos;
    using std::cosh;
    using std::fmod;
    using std::round;
    using std::sin;
    using std::sqrt;
    using std::tanh;
    if (regime_ == Regime::separatrix) {
      const T th = tanh(u), sech = 1 / cosh(u);
      *m = V3<T>(a_ * sech, b_ * th, c_ * sech);
      const T nn = -n_;
      const T rn = sqrt(nn);
      return (u + rn * atan(rn * th)) / (1 + nn);
    }
    const T j = round(u / two_k_);
    const T r = u - j * two_k_;
    const Jacobi<T> f = landen_->functions(r);
    // am(u) = j pi + am(r): sn and cn change sign with j.
    const T flip = fmod(j, T(2)) == 0 ? T(1) : T(-1);
    *m = V3<T>(flip * a_ * f.cn, flip * b_ * f.sn, c_ * f.dn);
    return 2 * j * complete_ + third_kind_sc(n_, f.sn, f.cn, kc2_);
  }

  void set_up_attitude(const V3<T>& m) {
    using std::atan2;
    const V3<T> spatial = r0_ * pi0_;
    g_ = align_with_e3<T>(spatial / spatial.norm());
    const M3<T> z = g_ * r0_ * s_.transpose() * momentum_frame(m).transpose();
    psi0_ = atan2(z(1, 0), z(0, 0));
  }

  Regime regime_ = Regime::steady;
  Labelling labels_;
  V3<T> inertia_, pi0_, i_;
  M3<T> r0_, s_, g_;
  T distance_ = 0, mu_ = 0, k2_ = 0, kc2_ = 1, a_ = 0, b_ = 0, c_ = 0, lambda_ = 0, n_ = 0, coef_ = 0;
  T nu_ = 0, w_nu_ = 0, two_k_ = 0, complete_ = 0, psi0_ = 0;
  std::shared_ptr<const Landen<T>> landen_;
};

template <class T> RigidBodyState to_double(const StateT<T>& x) {
  return {x.R.template cast<double>(), x.Pi.template cast<double>()};
}

// error_estimate(t) = kOutputRounding + kPhaseRounding (1 + |Pi| |t| / min I). The first term covers the
// final rounding to double (measured <= 1.0e-16); the second the long double evaluation, whose error
// grows with the phases u and psi (measured <= 6.7 eps_ld (1 + |Pi| t / min I), see the block above).
constexpr double kOutputRounding = 4e-16;
constexpr double kPhaseRounding = 16 * static_cast<double>(std::numeric_limits<long double>::epsilon());

}  // namespace

struct ExactSolution::Impl {
  Impl(const Vec3& inertia, const RigidBodyState& x0) : solution(inertia, x0) {}
  Solution<long double> solution;
};

ExactSolution::ExactSolution(const Vec3& inertia, const RigidBodyState& initial)
    : impl_(std::make_unique<Impl>(inertia, initial)) {}
ExactSolution::~ExactSolution() = default;

RigidBodyState ExactSolution::state(double t) const { return to_double(impl_->solution.state(t)); }

double ExactSolution::error_estimate(double t) const {
  const long double w = impl_->solution.omega_bound();
  return kOutputRounding + kPhaseRounding * static_cast<double>(1 + w * std::abs(t));
}

std::string ExactSolution::regime() const {
  switch (impl_->solution.regime()) {
    case Regime::steady: return "steady";
    case Regime::circulating: return "circulating";
    case Regime::separatrix: return "separatrix";
  }
  return "?";
}

double ExactSolution::modulus() const { return static_cast<double>(impl_->solution.modulus()); }
double ExactSolution::complementary_modulus() const {
  return static_cast<double>(impl_->solution.complementary_modulus());
}
double ExactSolution::period() const { return static_cast<double>(impl_->solution.period()); }
double ExactSolution::separatrix_distance() const { return static_cast<double>(impl_->solution.distance()); }

double evaluation_error(const Vec3& inertia, const RigidBodyState& initial, double t) {
  const RigidBodyState a = to_double(Solution<long double>(inertia, initial).state(t));
  const StateT<Digits50> b = Solution<Digits50>(inertia, initial).state(Digits50(t));
  const Digits50 angle = so3::rotation_angle<Digits50>(M3<Digits50>(b.R.transpose() * a.R.cast<Digits50>()));
  const Digits50 momentum = (a.Pi.cast<Digits50>() - b.Pi).norm() / b.Pi.norm();
  return static_cast<double>(angle > momentum ? angle : momentum);
}

namespace elliptic {

long double amplitude(long double u, long double k, long double kc) { return Landen<long double>(k, kc).amplitude(u); }

JacobiFunctions jacobi_functions(long double u, long double k, long double kc) {
  const Jacobi<long double> f = Landen<long double>(k, kc).functions(u);
  return {f.sn, f.cn, f.dn};
}

long double third_kind(long double n, long double phi, long double kc) {
  return third_kind_sc(n, std::sin(phi), std::cos(phi), kc * kc);
}

}  // namespace elliptic

}  // namespace gib::free_rigid_body
