// Property battery for core/so3.hpp in the manif/Sophus style: one generic set of checks, instantiated
// for double and long double, run over a fixed fixture list of rotation vectors (the angles where series
// branches, the log's branches and the near-pi regime bite, along several axes) plus seeded random ones.
//
// References are independent of the code under test:
//   * exp, dexp and the Cayley map are compared against their defining power series summed in 113-bit
//     binary floating point (boost::multiprecision::cpp_bin_float_quad), so the reference error is far
//     below long double epsilon;
//   * the Rodrigues / Jacobian coefficients are compared against quad-precision evaluations that avoid
//     cancellation (series for (t - sin t)/t^3, (sin x - x cos x)/sin x for the dexp^{-1} one);
//   * Jacobians are checked against finite differences of exp computed in long double.
// Tolerances are k * epsilon of the scalar under test (errors are reported in units of eps), except for
// finite-difference checks, whose tolerance is set by the difference formula and stated where used.
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdlib>
#include <iostream>
#include <limits>
#include <numbers>
#include <sstream>
#include <string>
#include <vector>

#include <boost/multiprecision/cpp_bin_float.hpp>
#include <catch2/catch.hpp>

#include "core/random.hpp"
#include "core/so3.hpp"

namespace gibench_test_so3 {

namespace {

using namespace gib;
using so3::ActionSide;

template <class S> using V3 = so3::Vec3T<S>;
template <class S> using M3 = so3::Mat3T<S>;
template <class S> using V4 = Eigen::Matrix<S, 4, 1>;

template <class S> constexpr S eps() { return std::numeric_limits<S>::epsilon(); }
template <class S> S pi() { return std::numbers::pi_v<S>; }

// An error expressed in units of the scalar's epsilon (as double, so Catch2 prints it).
template <class S> double in_eps(const S& err) { return static_cast<double>(err / eps<S>()); }

// Optional diagnostics: GIBENCH_TEST_VERBOSE=1 prints the worst error of every check (in eps).
struct Worst {
  std::string name;
  double value = 0.0;
  std::string where;
  explicit Worst(std::string n) : name(std::move(n)) {}
  void see(double v, const std::string& w) {
    if (v > value || std::isnan(v)) {
      value = v;
      where = w;
    }
  }
  ~Worst() {
    if (std::getenv("GIBENCH_TEST_VERBOSE"))
      std::cout << "  worst " << name << ": " << value << " eps  at " << where << "\n";
  }
};

template <class S> const char* type_name() { return sizeof(S) == sizeof(double) ? "double" : "long double"; }

template <class S> std::string describe(const V3<S>& u) {
  std::ostringstream os;
  os.precision(21);
  os << "u = (" << static_cast<long double>(u(0)) << ", " << static_cast<long double>(u(1)) << ", "
     << static_cast<long double>(u(2)) << "), |u| = " << static_cast<long double>(u.norm());
  return os.str();
}

// ----------------------------------------------------------------------------------------------
// Fixtures
// ----------------------------------------------------------------------------------------------

template <class S> V3<S> unit(double x, double y, double z) {
  V3<S> v{S(x), S(y), S(z)};
  return v / v.norm();
}

template <class S> V3<S> to_s(const so3::Vec3& v) { return v.template cast<S>(); }

template <class S> std::vector<V3<S>> fixture_axes() {
  random::Stream rng(0x5035u);
  return {unit<S>(1, 0, 0), unit<S>(0, 1, 0), unit<S>(0, 0, 1), unit<S>(1, 2, 3),
          unit<S>(-0.3, 0.8, -0.52), unit<S>(1, 1, 1e-3), [&] {
            V3<S> v = to_s<S>(rng.unit3());
            return V3<S>(v / v.norm());
          }()};
}

// The angles of the brief: 0, the Taylor regime, both sides of the 0.5 series threshold of so3.hpp,
// the log's branch change (2 pi / 3 ~ 2.094 lies between 2 and pi - 1e-8), and 1e-8 below pi.
template <class S> std::vector<S> fixture_angles() {
  return {S(1e-8), S(1e-4), S(1e-2), S(0.49), S(0.51), S(1), S(2), S(2.1), pi<S>() - S(1e-8)};
}

// Rotation vectors: zero, every angle along every axis, and seeded random vectors with |u| < pi
// (16 with a uniform angle, 8 with a log-uniform angle in [1e-9, 1]).
template <class S> const std::vector<V3<S>>& fixtures() {
  static const std::vector<V3<S>> list = [] {
    std::vector<V3<S>> out;
    out.push_back(V3<S>::Zero());
    for (const auto& n : fixture_axes<S>())
      for (const S& a : fixture_angles<S>()) out.push_back(V3<S>(a * n));
    random::Stream rng(random::derive_seed(2017, 3));
    for (int i = 0; i < 24; ++i) {
      V3<S> n = to_s<S>(rng.unit3());
      n /= n.norm();
      const double angle = i < 16 ? rng.uniform(0.0, 3.14) : std::pow(10.0, rng.uniform(-9.0, 0.0));
      out.push_back(V3<S>(S(angle) * n));
    }
    return out;
  }();
  return list;
}

template <class S> V3<S> random_vector(random::Stream& rng) { return to_s<S>(rng.normal3()); }

// A rotation exact to the precision of S: a random quaternion normalised in S.
template <class S> V4<S> random_unit_quaternion(random::Stream& rng) {
  V4<S> q;
  do {
    for (int i = 0; i < 4; ++i) q(i) = S(rng.normal());
  } while (q.norm() == S(0));
  return q / q.norm();
}
template <class S> M3<S> random_rotation(random::Stream& rng) {
  return so3::matrix_from_quaternion<S>(random_unit_quaternion<S>(rng));
}

// ----------------------------------------------------------------------------------------------
// Quad-precision references (113-bit significand), independent of the formulas in so3.hpp.
// ----------------------------------------------------------------------------------------------

using Q = boost::multiprecision::cpp_bin_float_quad;
using QMat = std::array<Q, 9>;  // row-major 3x3

QMat q_identity() {
  QMat m{};
  for (auto& x : m) x = 0;
  m[0] = m[4] = m[8] = 1;
  return m;
}
template <class S> QMat q_hat(const V3<S>& u) {  // exact: the conversion long double -> quad is exact
  const Q x = static_cast<long double>(u(0)), y = static_cast<long double>(u(1)),
          z = static_cast<long double>(u(2));
  return {Q(0), -z, y, z, Q(0), -x, -y, x, Q(0)};
}
QMat q_mul(const QMat& a, const QMat& b) {
  QMat c{};
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) {
      Q s = 0;
      for (int k = 0; k < 3; ++k) s += a[3 * i + k] * b[3 * k + j];
      c[3 * i + j] = s;
    }
  return c;
}
Q q_max_abs(const QMat& a) {
  Q m = 0;
  for (const auto& x : a) m = std::max(m, Q(abs(x)));
  return m;
}

// sum_{k>=0} coef(k) A^k, stopped when the terms are below 1e-40 relative to the sum.
template <class Coef> QMat q_series(const QMat& a, Coef coef) {
  QMat sum = q_identity();
  for (auto& x : sum) x *= coef(0);
  QMat power = q_identity();
  for (int k = 1; k < 400; ++k) {
    power = q_mul(power, a);
    const Q c = coef(k);
    QMat term = power;
    for (auto& x : term) x *= c;
    for (int i = 0; i < 9; ++i) sum[i] += term[i];
    if (q_max_abs(term) < Q(1e-40) * (Q(1) + q_max_abs(sum)) && k > 4) break;
  }
  return sum;
}

// exp(U) = sum U^k / k!,  J_l(u) = sum U^k / (k+1)!,  cay(u) = I + 2 sum_{k>=1} (U/2)^k.
template <class S> QMat q_exp(const V3<S>& u) {
  return q_series(q_hat(u), [f = Q(1), n = 0](int k) mutable {
    while (n < k) f *= ++n;
    return Q(1) / f;
  });
}
template <class S> QMat q_dexp_left(const V3<S>& u) {
  return q_series(q_hat(u), [f = Q(1), n = 1](int k) mutable {
    while (n < k + 1) f *= ++n;
    return Q(1) / f;
  });
}
template <class S> QMat q_cayley(const V3<S>& u) {
  return q_series(q_hat(u), [](int k) { return k == 0 ? Q(1) : Q(2) / pow(Q(2), k); });
}

template <class S> S max_abs_diff(const M3<S>& a, const QMat& b) {
  Q m = 0;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) m = std::max(m, Q(abs(Q(static_cast<long double>(a(i, j))) - b[3 * i + j])));
  return S(static_cast<long double>(m));
}

// Coefficients a = sin t/t, b = (1 - cos t)/t^2, c = (t - sin t)/t^3, d = (1 - (t/2)cot(t/2))/t^2 at
// t^2 = theta2 (taken exactly), without cancellation at any t in (0, pi].
struct QCoefficients {
  Q a, b, c, d;
};
QCoefficients q_coefficients(const Q& theta2) {
  using boost::multiprecision::cos;
  using boost::multiprecision::sin;
  using boost::multiprecision::sqrt;
  const Q t = sqrt(theta2);
  const Q half = t / 2;
  QCoefficients r;
  r.a = sin(t) / t;
  r.b = 2 * sin(half) * sin(half) / theta2;
  // (t - sin t)/t^3 = sum_k (-1)^k t^{2k} / (2k+3)!
  {
    Q term = Q(1) / 6, sum = 0;
    for (int k = 0; k < 80; ++k) {
      sum += term;
      term *= -theta2 / Q((2 * k + 4) * (2 * k + 5));
    }
    r.c = sum;
  }
  // 1 - x cot x = (sin x - x cos x)/sin x with sin x - x cos x = sum_{k>=1} (-1)^{k+1} 2k x^{2k+1}/(2k+1)!
  {
    const Q x2 = half * half;
    Q power = half * x2 / 6;  // x^3 / 3!
    Q sum = 0;
    for (int k = 1; k < 80; ++k) {
      sum += Q(2 * k) * power;
      power *= -x2 / Q((2 * k + 2) * (2 * k + 3));
    }
    r.d = sum / sin(half) / theta2;
  }
  return r;
}

// Finite differences in long double. Central 4th-order stencil: truncation ~ h^4 |f^(5)| / 30 and roundoff
// ~ 1.5 eps_ld / h; with h = 2e-4 both are below 1e-15 for the smooth maps here (|u| <= pi, |d| = 1).
using LD = long double;
constexpr LD kFdStep = 2e-4L;
constexpr double kFdTol = 1e-13;  // ~40x the measured finite-difference error (2.5e-15)
template <class F> M3<LD> fd_derivative(F f) {
  const LD h = kFdStep;
  return (-f(2 * h) + LD(8) * f(h) - LD(8) * f(-h) + f(-2 * h)) / (LD(12) * h);
}

}  // namespace

// ================================================================================================
// hat / vee
// ================================================================================================

TEMPLATE_TEST_CASE("so3: hat and vee", "[so3]", double, long double) {
  using S = TestType;
  random::Stream rng(11);
  Worst w_cross("hat(a) b - a x b");
  for (int i = 0; i < 50; ++i) {
    const V3<S> a = random_vector<S>(rng), b = random_vector<S>(rng);
    const M3<S> A = so3::hat(a);
    CHECK(so3::vee(A) == a);                                   // exact round trip
    CHECK((A + A.transpose()).norm() == S(0));                 // skew, exactly
    CHECK(so3::vee_skew_part<S>(A) == a);                      // exact on a skew matrix
    const double e = in_eps<S>((A * b - a.cross(b)).norm() / (a.norm() * b.norm()));
    w_cross.see(e, std::to_string(i));
    CHECK(e <= 4.0);
    // hat(vee(M)) = M for every skew M
    CHECK(so3::hat<S>(so3::vee(A)) == A);
    // vee_skew_part of an arbitrary matrix is the vee of its skew part
    M3<S> m;
    for (int r = 0; r < 3; ++r)
      for (int c = 0; c < 3; ++c) m(r, c) = S(rng.normal());
    const M3<S> skew = (m - m.transpose()) / S(2);
    CHECK(in_eps<S>((so3::vee_skew_part<S>(m) - so3::vee(skew)).norm() / m.norm()) <= 2.0);
  }
}

// ================================================================================================
// Rodrigues / Jacobian coefficients against quad references, and continuity at the series threshold
// ================================================================================================

TEMPLATE_TEST_CASE("so3: coefficients match quad references on both sides of the series threshold",
                   "[so3]", double, long double) {
  using S = TestType;
  const S thr2 = S(so3::detail::kSeriesAngle * so3::detail::kSeriesAngle);
  const S below = std::nextafter(thr2, S(0));  // last theta^2 on the series branch
  std::vector<S> theta2 = {S(1e-16), S(1e-8), S(1e-4), S(1e-2), S(0.1), S(0.2401), below, thr2,
                           std::nextafter(thr2, S(1)), S(0.2601), S(1), S(4), S(9)};
  {
    const S t = pi<S>() - S(1e-8);
    theta2.push_back(t * t);
  }
  Worst wa("a"), wb("b"), wc("c"), wd("d");
  for (const S& t2 : theta2) {
    INFO(type_name<S>() << ": theta^2 = " << static_cast<long double>(t2));
    const auto k = so3::rodrigues_coefficients(t2);
    const S d = so3::dexp_inv_coefficient(t2);
    const QCoefficients r = q_coefficients(Q(static_cast<long double>(t2)));
    // Errors relative to the coefficient's value at theta = 0 (1, 1/2, 1/6, 1/12), the scale at which
    // it enters exp and dexp. (Relative to the value itself would be meaningless for a = sin t / t near
    // pi, where a ~ 1e-9 is ill-conditioned in t but contributes only O(eps) to R.)
    auto rel = [](const S& x, const Q& ref, const Q& scale) {
      return in_eps<S>(S(static_cast<long double>(abs((Q(static_cast<long double>(x)) - ref) / scale))));
    };
    const double ea = rel(k.a, r.a, Q(1)), eb = rel(k.b, r.b, Q(1) / 2), ec = rel(k.c, r.c, Q(1) / 6),
                 ed = rel(d, r.d, Q(1) / 12);
    const std::string where = std::to_string(static_cast<double>(t2));
    wa.see(ea, where);
    wb.see(eb, where);
    wc.see(ec, where);
    wd.see(ed, where);
    CAPTURE(ea, eb, ec, ed);
    // a and b involve no cancellation on either branch.
    CHECK(ea <= 8.0);
    CHECK(eb <= 8.0);
    // c = (t - sin t)/t^3 and d = (1 - x cot x)/t^2 (x = t/2) cancel on the closed-form branch: the
    // relative error is bounded by (operand size / result size) * eps, i.e. 6/t^2 and 3/x^2 = 12/t^2
    // eps at leading order (24 and 48 eps at the threshold t = 0.5). The series branch has no such loss.
    const S amp_c = t2 < thr2 ? S(1) : S(6) / t2;
    const S amp_d = t2 < thr2 ? S(1) : S(12) / t2;
    CHECK(ec <= 8.0 * static_cast<double>(std::max(S(1), amp_c)));
    CHECK(ed <= 8.0 * static_cast<double>(std::max(S(1), amp_d)));
  }
  // Continuity across the threshold: the two branches agree to the accuracy above.
  const auto lo = so3::rodrigues_coefficients(below), hi = so3::rodrigues_coefficients(thr2);
  const S dlo = so3::dexp_inv_coefficient(below), dhi = so3::dexp_inv_coefficient(thr2);
  // d/d(theta^2) of the coefficients is O(1), and below and thr2 differ by one ulp, so the jumps are
  // pure branch disagreement.
  CHECK(in_eps<S>(std::abs(lo.a - hi.a) / hi.a) <= 16.0);
  CHECK(in_eps<S>(std::abs(lo.b - hi.b) / hi.b) <= 16.0);
  CHECK(in_eps<S>(std::abs(lo.c - hi.c) / hi.c) <= 8.0 * 24 + 8.0);
  CHECK(in_eps<S>(std::abs(dlo - dhi) / dhi) <= 8.0 * 48 + 8.0);
}

// ================================================================================================
// exp
// ================================================================================================

TEMPLATE_TEST_CASE("so3: exp is a rotation and equals the matrix-exponential series", "[so3]", double,
                   long double) {
  using S = TestType;
  Worst w_orth("R^T R - I"), w_det("det - 1"), w_ref("exp - series"), w_hat("exp commutes with hat");
  for (const V3<S>& u : fixtures<S>()) {
    INFO(type_name<S>() << ": " << describe(u));
    const M3<S> R = so3::exp(u);
    const double orth = in_eps<S>((R.transpose() * R - M3<S>::Identity()).norm());
    const double det = in_eps<S>(std::abs(R.determinant() - S(1)));
    const double ref = in_eps<S>(max_abs_diff(R, q_exp(u)));
    // exp(u) u = u (the axis is fixed) and R hat(u) R^T = hat(R u).
    const double axis = in_eps<S>((R * u - u).norm() / std::max(S(1), u.norm()));
    w_orth.see(orth, describe(u));
    w_det.see(det, describe(u));
    w_ref.see(ref, describe(u));
    w_hat.see(axis, describe(u));
    CHECK(orth <= 16.0);
    CHECK(det <= 16.0);
    CHECK(ref <= 8.0);
    CHECK(axis <= 16.0);
    // Group property along a one-parameter subgroup: exp(u/2)^2 = exp(u), exp(-u) = exp(u)^T.
    const M3<S> Rh = so3::exp<S>(u / S(2));
    CHECK(in_eps<S>((Rh * Rh - R).norm()) <= 16.0);
    CHECK(in_eps<S>((so3::exp<S>(-u) - R.transpose()).norm()) <= 8.0);
  }
}

// ================================================================================================
// log
// ================================================================================================

TEMPLATE_TEST_CASE("so3: log inverts exp on |u| < pi, rotation_angle = |log R|", "[so3]", double,
                   long double) {
  using S = TestType;
  Worst w_log("|log(exp u) - u| / max(|u|, eps)"), w_angle("rotation_angle - |u|");
  for (const V3<S>& u : fixtures<S>()) {
    INFO(type_name<S>() << ": " << describe(u));
    const M3<S> R = so3::exp(u);
    const V3<S> l = so3::log(R);
    // Relative accuracy: exp keeps the small entries of R relatively accurate, so log(exp(u)) must
    // recover tiny u to relative precision (this catches a log that goes through acos or 1 + tr).
    const S scale = u.norm() > S(0) ? u.norm() : S(1);
    const double e = in_eps<S>((l - u).norm() / scale);
    w_log.see(e, describe(u));
    CHECK(e <= 16.0);
    const double ea = in_eps<S>(std::abs(so3::rotation_angle(R) - u.norm()) / scale);
    w_angle.see(ea, describe(u));
    CHECK(ea <= 16.0);
    CHECK(in_eps<S>(std::abs(so3::rotation_angle(R) - l.norm()) / scale) <= 4.0);
  }
}

TEMPLATE_TEST_CASE("so3: log at exactly pi (up to sign) and exp(log R) = R", "[so3]", double, long double) {
  using S = TestType;
  // Rotation by the representable pi: log may return either of +-pi n.
  for (const V3<S>& n : fixture_axes<S>()) {
    INFO(type_name<S>() << ": " << describe(n));
    const V3<S> u = pi<S>() * n;
    const V3<S> l = so3::log(so3::exp(u));
    const S e = std::min((l - u).norm(), (l + u).norm());
    CHECK(in_eps<S>(e / pi<S>()) <= 16.0);
    // ... and a rotation by exactly 180 degrees built without exp: R = 2 n n^T - I.
    const M3<S> R = S(2) * n * n.transpose() - M3<S>::Identity();
    const V3<S> l2 = so3::log(R);
    CHECK(in_eps<S>(std::min((l2 - u).norm(), (l2 + u).norm()) / pi<S>()) <= 16.0);
    CHECK(in_eps<S>((so3::exp(l2) - R).norm()) <= 16.0);
  }

  Worst w("|exp(log R) - R|");
  std::vector<M3<S>> rotations;
  random::Stream rng(random::derive_seed(2017, 4));
  for (int i = 0; i < 40; ++i) rotations.push_back(random_rotation<S>(rng));
  // Near the identity and near a half turn, built from quaternions (independently of exp) ...
  for (double w0 : {1e-4, 1e-8, 1e-12, 0.0}) {
    for (int i = 0; i < 3; ++i) {
      V4<S> q = random_unit_quaternion<S>(rng);
      q(0) = S(w0) * q.template tail<3>().norm();  // half turn minus ~2 w0
      rotations.push_back(so3::matrix_from_quaternion<S>(V4<S>(q / q.norm())));
      V4<S> p = random_unit_quaternion<S>(rng);
      p.template tail<3>() *= S(w0);  // identity plus ~2 w0
      p(0) = S(1);
      rotations.push_back(so3::matrix_from_quaternion<S>(V4<S>(p / p.norm())));
    }
  }
  // ... and via exp, including R = exp((pi - 1e-8) n).
  for (const V3<S>& u : fixtures<S>()) rotations.push_back(so3::exp(u));
  for (const M3<S>& R : rotations) {
    const V3<S> l = so3::log(R);
    CHECK(l.norm() <= pi<S>() * (S(1) + S(4) * eps<S>()));
    const double e = in_eps<S>((so3::exp(l) - R).norm());
    std::ostringstream os;
    os << R;
    w.see(e, os.str());
    INFO(type_name<S>() << ": R =\n" << os.str());
    CHECK(e <= 16.0);
  }
}

// ================================================================================================
// dexp and dexp^{-1}
// ================================================================================================

TEMPLATE_TEST_CASE("so3: dexp closed forms, inverses and identities", "[so3]", double, long double) {
  using S = TestType;
  Worst w_ref("dexp_left - series"), w_inv_l("J_l J_l^-1 - I"), w_inv_r("J_r J_r^-1 - I"),
      w_trans("J_r - J_l^T"), w_exp("exp(u) J_r - J_l"), w_id("J_l U - (exp(u) - I)");
  const M3<S> I = M3<S>::Identity();
  for (const V3<S>& u : fixtures<S>()) {
    INFO(type_name<S>() << ": " << describe(u));
    const M3<S> Jl = so3::dexp_left(u), Jr = so3::dexp_right(u);
    const M3<S> Jli = so3::dexp_inv_left(u), Jri = so3::dexp_inv_right(u);
    const M3<S> R = so3::exp(u);
    const std::string where = describe(u);
    const double ref = in_eps<S>(max_abs_diff(Jl, q_dexp_left(u)));
    w_ref.see(ref, where);
    CHECK(ref <= 8.0);
    // Inverses, both orders. |J| <= 1 and |J^-1| <= pi/2 on |u| <= pi.
    const double il = in_eps<S>(std::max((Jl * Jli - I).norm(), (Jli * Jl - I).norm()));
    const double ir = in_eps<S>(std::max((Jr * Jri - I).norm(), (Jri * Jr - I).norm()));
    w_inv_l.see(il, where);
    w_inv_r.see(ir, where);
    CHECK(il <= 16.0);
    CHECK(ir <= 16.0);
    // J_r(u) = J_l(u)^T = J_l(-u), and the same for the inverses.
    const double tr = in_eps<S>(std::max((Jr - Jl.transpose()).norm(), (Jr - so3::dexp_left<S>(-u)).norm()));
    w_trans.see(tr, where);
    CHECK(tr <= 4.0);
    CHECK(in_eps<S>((Jri - Jli.transpose()).norm()) <= 4.0);
    CHECK(in_eps<S>((Jri - so3::dexp_inv_left<S>(-u)).norm()) <= 4.0);
    // exp(u) J_r(u) = J_l(u) (= Ad_{exp u} J_r).
    const double ej = in_eps<S>((R * Jr - Jl).norm());
    w_exp.see(ej, where);
    CHECK(ej <= 16.0);
    // J_l(u) hat(u) = hat(u) J_l(u) = exp(u) - I, and J_l(u) u = u.
    const M3<S> U = so3::hat(u);
    const double id = in_eps<S>(std::max((Jl * U - (R - I)).norm(), (U * Jl - (R - I)).norm()));
    w_id.see(id, where);
    CHECK(id <= 16.0);
    CHECK(in_eps<S>((Jl * u - u).norm() / std::max(S(1), u.norm())) <= 8.0);
    CHECK(in_eps<S>((Jli * u - u).norm() / std::max(S(1), u.norm())) <= 8.0);
  }
}

TEMPLATE_TEST_CASE("so3: dexp against finite differences of exp", "[so3]", double, long double) {
  using S = TestType;
  // Finite differences are taken of so3::exp in long double with the 4th-order stencil (error ~1e-15,
  // tolerance kFdTol = 1e-13, see above); the Jacobians under test are evaluated in S. This resolves J
  // to ~500 double eps (eps-level accuracy is checked against the quad series above); a wrong Jacobian
  // (J_l for J_r, J^T, a sign) is off by O(|u|) >= 1e-8 on every nonzero fixture.
  random::Stream rng(random::derive_seed(2017, 5));
  double worst_l = 0, worst_r = 0, worst_log = 0;
  for (const V3<S>& us : fixtures<S>()) {
    const V3<LD> u = us.template cast<LD>();
    INFO(type_name<S>() << ": " << describe(us));
    const M3<LD> R = so3::exp(u);
    const M3<LD> Jl = so3::dexp_left(us).template cast<LD>();
    const M3<LD> Jr = so3::dexp_right(us).template cast<LD>();
    std::vector<V3<LD>> dirs = {V3<LD>::UnitX(), V3<LD>::UnitY(), V3<LD>::UnitZ()};
    for (int i = 0; i < 2; ++i) {
      V3<LD> d = rng.unit3().cast<LD>();
      dirs.push_back(d / d.norm());
    }
    for (const V3<LD>& d : dirs) {
      // d/de exp(u + e d) at e = 0  ==  hat(J_l d) exp(u)  ==  exp(u) hat(J_r d).
      const M3<LD> D = fd_derivative([&](LD e) { return so3::exp<LD>(u + e * d); });
      const LD el = (D - so3::hat<LD>(Jl * d) * R).norm();
      const LD er = (D - R * so3::hat<LD>(Jr * d)).norm();
      worst_l = std::max(worst_l, static_cast<double>(el));
      worst_r = std::max(worst_r, static_cast<double>(er));
      CHECK(static_cast<double>(el) <= kFdTol);
      CHECK(static_cast<double>(er) <= kFdTol);
      // The same through log: exp(u + e d) exp(u)^T = exp(e J_l d + O(e^2)) and
      // exp(u)^T exp(u + e d) = exp(e J_r d + O(e^2)); central differences of log(...) remove O(e^2).
      // Near |u| = pi, u + e d leaves the ball |u| < pi: exp(u+ed) is still smooth, and log is applied
      // only to rotations near the identity, so this stays valid there.
      const auto left_log = [&](LD e) {
        return M3<LD>(so3::hat<LD>(so3::log<LD>(M3<LD>(so3::exp<LD>(u + e * d) * R.transpose()))));
      };
      const auto right_log = [&](LD e) {
        return M3<LD>(so3::hat<LD>(so3::log<LD>(M3<LD>(R.transpose() * so3::exp<LD>(u + e * d)))));
      };
      const LD ll = (so3::vee<LD>(fd_derivative(left_log)) - Jl * d).norm();
      const LD lr = (so3::vee<LD>(fd_derivative(right_log)) - Jr * d).norm();
      worst_log = std::max({worst_log, static_cast<double>(ll), static_cast<double>(lr)});
      CHECK(static_cast<double>(ll) <= kFdTol);
      CHECK(static_cast<double>(lr) <= kFdTol);
    }
    // The literal first-order statement with a finite e: exp(u + e d) exp(u)^T = exp(e J_l d) + O(e^2),
    // with the O(e^2) remainder: halving e divides the defect by 4 (by 2 if J were wrong).
    const V3<LD> d = dirs.back();
    auto defect = [&](LD e) {
      return (so3::exp<LD>(u + e * d) * R.transpose() - so3::exp<LD>(e * Jl * d)).norm();
    };
    const LD d1 = defect(1e-3L), d2 = defect(5e-4L);
    if (d1 > 1e-14L) {
      const double ratio = static_cast<double>(d1 / d2);
      CAPTURE(ratio);
      CHECK(ratio > 3.9);
      CHECK(ratio < 4.1);
    }
  }
  if (std::getenv("GIBENCH_TEST_VERBOSE"))
    std::cout << "  worst FD (" << type_name<S>() << "): left " << worst_l << ", right " << worst_r
              << ", via log " << worst_log << "\n";
}

// ================================================================================================
// Truncated dexp^{-1} series
// ================================================================================================

TEMPLATE_TEST_CASE("so3: dexp_inv_series converges to dexp_inv with the side's sign", "[so3]", double,
                   long double) {
  using S = TestType;
  random::Stream rng(random::derive_seed(2017, 6));
  Worst w_conv("series(K=20) - dexp_inv v");
  for (const V3<S>& u : fixtures<S>()) {
    if (u.norm() > S(1.0001)) continue;
    INFO(type_name<S>() << ": " << describe(u));
    const V3<S> v = random_vector<S>(rng);
    for (ActionSide side : {ActionSide::left_multiply, ActionSide::right_multiply}) {
      const V3<S> exact = (side == ActionSide::left_multiply ? so3::dexp_inv_left(u) : so3::dexp_inv_right(u)) * v;
      // K = 0 is the identity, exactly.
      CHECK(so3::dexp_inv_series(u, v, 0, side) == v);
      // Truncation error after K: bounded by the tail sum_{k>K} |B_k/k!| |u|^k |v| (|ad_u^k v| <= |u|^k |v|).
      const S th = u.norm();
      for (int K = 0; K <= so3::kBernoulliTableOrder; ++K) {
        S tail = 0;
        // |B_k/k!| ~ 2/(2 pi)^k: sum the known coefficients, then a geometric bound for k > 20.
        for (int k = K + 1; k <= so3::kBernoulliTableOrder; ++k)
          tail += S(std::abs(so3::kBernoulliOverFactorial[k])) * std::pow(th, S(k));
        tail += S(2) * std::pow(th / (S(2) * pi<S>()), S(so3::kBernoulliTableOrder + 1)) /
                (S(1) - th / (S(2) * pi<S>()));
        const S err = (so3::dexp_inv_series(u, v, K, side) - exact).norm();
        CAPTURE(K, static_cast<double>(err), static_cast<double>(tail * v.norm()));
        CHECK(err <= S(1.0001) * tail * v.norm() + S(16) * eps<S>() * v.norm());
      }
      // With all 20 terms and |u| <= 0.51 the series equals the closed form to rounding: the tail is
      // < 1e-24 and the terms decrease geometrically (ratio <= |u|/2), so a few eps of |v| from the cross
      // products plus the ~2 eps of dexp_inv itself.
      if (th <= S(0.51)) {
        const double e = in_eps<S>((so3::dexp_inv_series(u, v, 20, side) - exact).norm() / v.norm());
        w_conv.see(e, describe(u));
        CHECK(e <= 8.0);
      }
    }
  }
}

TEMPLATE_TEST_CASE("so3: dexp_inv_series truncation error is O(|u|^(K+1))", "[so3]", double, long double) {
  using S = TestType;
  // err_K(u) ~ |B_m/m!| |u|^m |v_perp| with m the first k > K with B_k != 0 (m = K+1, or K+2 when K+1 is
  // odd and >= 3), so halving |u| divides the error by 2^m.
  const V3<S> n = unit<S>(1, -2, 0.5);
  const V3<S> v = V3<S>(S(0.3), S(0.9), S(-1.1));
  for (ActionSide side : {ActionSide::left_multiply, ActionSide::right_multiply}) {
    for (int K = 0; K <= 6; ++K) {
      const int m = (K + 1 == 1 || (K + 1) % 2 == 0) ? K + 1 : K + 2;
      const V3<S> u1 = S(0.5) * n, u2 = S(0.25) * n;
      const S e1 = (so3::dexp_inv_series(u1, v, K, side) -
                    (side == ActionSide::left_multiply ? so3::dexp_inv_left(u1) : so3::dexp_inv_right(u1)) * v)
                       .norm();
      const S e2 = (so3::dexp_inv_series(u2, v, K, side) -
                    (side == ActionSide::left_multiply ? so3::dexp_inv_left(u2) : so3::dexp_inv_right(u2)) * v)
                       .norm();
      const double slope = static_cast<double>(std::log2(e1 / e2));
      CAPTURE(K, m, slope);
      CHECK(std::abs(slope - m) < 0.15);
    }
  }
}

TEMPLATE_TEST_CASE("so3: dexp_inv_series sign rule follows the action side", "[so3]", double, long double) {
  using S = TestType;
  // For R(t) = R0 exp(sigma(t)) (right_multiply) with sigma' = dexp_inv_series(sigma, f, K, right_multiply),
  // R^T R' = hat(f): the body (left-trivialised) velocity is f. For R(t) = exp(sigma(t)) R0
  // (left_multiply) the spatial velocity R' R^T is hat(f). With the other side's sign the velocity is off
  // by O(|sigma| |f|). Checked at sigma != 0 (at sigma = 0 every sign agrees) by long-double central
  // differences of the curve sigma(t) = sigma0 + t k; the K = 20 series is exact to ~1e-18 for
  // |sigma| <= 0.6, so the tolerance is the finite-difference one.
  random::Stream rng(random::derive_seed(2017, 7));
  const M3<LD> R0 = random_rotation<LD>(rng);
  for (int trial = 0; trial < 10; ++trial) {
    V3<LD> sigma = rng.unit3().cast<LD>() * LD(rng.uniform(0.05, 0.6));
    const V3<LD> f = random_vector<LD>(rng);
    for (ActionSide side : {ActionSide::left_multiply, ActionSide::right_multiply}) {
      const ActionSide other =
          side == ActionSide::left_multiply ? ActionSide::right_multiply : ActionSide::left_multiply;
      auto velocity = [&](ActionSide series_side) {
        const V3<S> ks = so3::dexp_inv_series<S>(sigma.template cast<S>(), f.template cast<S>(), 20, series_side);
        const V3<LD> k = ks.template cast<LD>();
        auto curve = [&](LD t) {
          const M3<LD> E = so3::exp<LD>(sigma + t * k);
          return M3<LD>(side == ActionSide::right_multiply ? M3<LD>(R0 * E) : M3<LD>(E * R0));
        };
        const M3<LD> R = curve(0), D = fd_derivative(curve);
        return side == ActionSide::right_multiply ? so3::vee_skew_part<LD>(R.transpose() * D)
                                                  : so3::vee_skew_part<LD>(D * R.transpose());
      };
      const LD good = (velocity(side) - f).norm() / f.norm();
      const LD bad = (velocity(other) - f).norm() / f.norm();
      CAPTURE(trial, static_cast<int>(side), static_cast<double>(good), static_cast<double>(bad));
      CHECK(static_cast<double>(good) <= std::max(kFdTol, 50.0 * static_cast<double>(eps<S>())));
      CHECK(static_cast<double>(bad) > 1e-3 * static_cast<double>(sigma.norm()));
    }
  }
}

// ================================================================================================
// Cayley map
// ================================================================================================

TEMPLATE_TEST_CASE("so3: Cayley map", "[so3]", double, long double) {
  using S = TestType;
  Worst w_ser("cayley - series"), w_inv("cayley_inv(cayley u) - u");
  std::vector<V3<S>> us = fixtures<S>();
  random::Stream rng(random::derive_seed(2017, 8));
  for (int i = 0; i < 8; ++i) us.push_back(to_s<S>(rng.normal3()) * S(3));  // cayley is defined on all R^3
  const M3<S> I = M3<S>::Identity();
  for (const V3<S>& u : us) {
    INFO(type_name<S>() << ": " << describe(u));
    const M3<S> C = so3::cayley(u);
    CHECK(in_eps<S>((C.transpose() * C - I).norm()) <= 16.0);
    CHECK(in_eps<S>(std::abs(C.determinant() - S(1))) <= 16.0);
    // The defining formula (I - U/2)^{-1} (I + U/2), solved in S.
    const M3<S> U = so3::hat(u);
    const M3<S> direct = (I - U / S(2)).partialPivLu().solve(M3<S>(I + U / S(2)));
    CHECK(in_eps<S>((C - direct).norm()) <= 16.0 * static_cast<double>(S(1) + u.squaredNorm() / S(4)));
    // The series I + 2 sum_{k>=1} (U/2)^k converges for |u| < 2; compared for |u| <= 1.
    if (u.norm() <= S(1.0001)) {
      const double e = in_eps<S>(max_abs_diff(C, q_cayley(u)));
      w_ser.see(e, describe(u));
      CHECK(e <= 8.0);
    }
    // Inverse: rotation angle of cay(u) is 2 atan(|u|/2) < pi, where cayley_inv is defined.
    const S scale = u.norm() > S(0) ? u.norm() : S(1);
    const double ei = in_eps<S>((so3::cayley_inv(C) - u).norm() / scale);
    w_inv.see(ei, describe(u));
    CHECK(ei <= 16.0 * static_cast<double>(S(1) + u.squaredNorm() / S(4)));
    // cay(u) and exp(u) agree to second order: cay(u) - exp(u) = -hat(u)^3/12 + O(|u|^4).
    if (u.norm() >= S(1e-3) && u.norm() <= S(1e-2)) {  // difference ~|u|^3/12, well above rounding
      const S ratio = (C - so3::exp(u)).norm() / ((U * U * U).norm() / S(12));
      CHECK(std::abs(ratio - S(1)) < S(0.01));
    }
  }
}

// ================================================================================================
// Quaternions
// ================================================================================================

TEMPLATE_TEST_CASE("so3: quaternion conversions", "[so3]", double, long double) {
  using S = TestType;
  random::Stream rng(random::derive_seed(2017, 9));
  std::vector<V4<S>> qs;
  for (int i = 0; i < 40; ++i) qs.push_back(random_unit_quaternion<S>(rng));
  // Near 180 degrees (w ~ 0, both signs), exactly 180 degrees about axes, near the identity.
  for (double w0 : {1e-3, 1e-8, 1e-12, 0.0, -1e-12, -1e-8}) {
    for (int i = 0; i < 3; ++i) {
      V4<S> q = random_unit_quaternion<S>(rng);
      q(0) = S(w0);
      qs.push_back(q / q.norm());
    }
  }
  for (int a = 1; a < 4; ++a) {
    V4<S> q = V4<S>::Zero();
    q(a) = S(1);
    qs.push_back(q);
    qs.push_back(-q);
  }
  qs.push_back(V4<S>(S(1), S(0), S(0), S(0)));
  qs.push_back(V4<S>(S(-1), S(1e-9), S(0), S(0)).normalized());
  Worst w_rt("quat -> matrix -> quat");
  for (const V4<S>& q : qs) {
    INFO(type_name<S>() << ": q = " << q.transpose().template cast<double>());
    const M3<S> R = so3::matrix_from_quaternion(q);
    CHECK(in_eps<S>((R.transpose() * R - M3<S>::Identity()).norm()) <= 16.0);
    CHECK(in_eps<S>(std::abs(R.determinant() - S(1))) <= 16.0);
    const V4<S> p = so3::quaternion_from_matrix(R);
    CHECK(p(0) >= S(0));
    const double e = in_eps<S>(std::min((p - q).norm(), (p + q).norm()));
    w_rt.see(e, "");
    CHECK(e <= 8.0);
    // The quaternion (cos(t/2), sin(t/2) n) is the rotation exp(t n).
    const V3<S> u = so3::log(R);
    const S t = u.norm();
    if (t > S(0)) {
      const V4<S> qq = (V4<S>() << std::cos(t / S(2)), std::sin(t / S(2)) * u / t).finished();
      CHECK(in_eps<S>(std::min((qq - q).norm(), (qq + q).norm())) <= 16.0);
    }
  }
  // matrix -> quaternion -> matrix for the exp fixtures (including half turns minus 1e-8).
  for (const V3<S>& u : fixtures<S>()) {
    const M3<S> R = so3::exp(u);
    const V4<S> q = so3::quaternion_from_matrix(R);
    INFO(type_name<S>() << ": " << describe(u));
    CHECK(in_eps<S>(std::abs(q.norm() - S(1))) <= 8.0);
    CHECK(in_eps<S>((so3::matrix_from_quaternion(q) - R).norm()) <= 16.0);
  }
  // A non-unit q gives |q|^2 times the rotation of q/|q| (the homogeneous formula).
  for (int i = 0; i < 20; ++i) {
    const V4<S> qu = random_unit_quaternion<S>(rng);
    const S s = S(std::exp(rng.uniform(-2.0, 2.0)));
    const V4<S> q = s * qu;
    const M3<S> M = so3::matrix_from_quaternion(q);
    const S n2 = q.squaredNorm();
    CHECK(in_eps<S>((M - n2 * so3::matrix_from_quaternion(qu)).norm() / n2) <= 16.0);
    CHECK(in_eps<S>((M.transpose() * M - n2 * n2 * M3<S>::Identity()).norm() / (n2 * n2)) <= 16.0);
    CHECK(in_eps<S>(std::abs(M.determinant() / (n2 * n2 * n2) - S(1))) <= 16.0);
  }
}

// ================================================================================================
// Orthogonality defect
// ================================================================================================

TEMPLATE_TEST_CASE("so3: orthogonality_defect", "[so3]", double, long double) {
  using S = TestType;
  CHECK(so3::orthogonality_defect<S>(M3<S>::Identity()) == S(0));
  // (1 + s) R has defect |((1+s)^2 - 1) I|_F = sqrt(3) (2 s + s^2).
  const M3<S> R = so3::exp<S>(V3<S>(S(0.3), S(-1), S(2)));
  const S s = S(1e-6);
  const S expect = std::sqrt(S(3)) * (S(2) * s + s * s);
  CHECK(std::abs(so3::orthogonality_defect<S>(M3<S>((S(1) + s) * R)) - expect) <= S(1e-6) * expect);
}

TEMPLATE_TEST_CASE("dexp_inv_series beyond the Bernoulli table converges to the closed form", "[so3]", double, long double) {
  using S = TestType;
  // Near |u| = 3 the terms shrink only like (|u|/2pi)^k = 0.48^k: orders far beyond 20 are needed.
  const so3::Vec3T<S> u = so3::Vec3T<S>(S(1), S(-2), S(2)).normalized() * S(3);
  const so3::Vec3T<S> v(S(0.3), S(0.5), S(-0.7));
  for (auto side : {so3::ActionSide::left_multiply, so3::ActionSide::right_multiply}) {
    const so3::Vec3T<S> exact = (side == so3::ActionSide::left_multiply ? so3::dexp_inv_left(u) : so3::dexp_inv_right(u)) * v;
    const S e20 = (so3::dexp_inv_series(u, v, 20, side) - exact).norm();
    const S e40 = (so3::dexp_inv_series(u, v, 40, side) - exact).norm();
    const S e80 = (so3::dexp_inv_series(u, v, 80, side) - exact).norm();
    CAPTURE(static_cast<double>(e20), static_cast<double>(e40), static_cast<double>(e80));
    CHECK(e20 > S(1e-8));                                         // 20 terms are not enough here
    CHECK(e40 < e20 * S(1e-5));                                   // the computed coefficients keep converging
    CHECK(e80 < S(200) * std::numeric_limits<S>::epsilon());      // to rounding
  }
  // Past the table: B_22/22! = (854513/138)/22!.
  CHECK(static_cast<double>(so3::bernoulli_over_factorial<long double>(22)) ==
        Approx(854513.0 / 138.0 / 1.1240007277776077e21).epsilon(1e-12));
}

}  // namespace gibench_test_so3
