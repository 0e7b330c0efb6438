// A binary128 scalar for the whole-state precision study (papers/kjer2017/precision_study.hpp): GCC's __float128
// behind a thin class, so that Eigen matrices, core/so3.hpp and the pair kernel can be instantiated on it.
//
// Why not __float128 itself: in ISO C++ mode the library has no sin/cos/sqrt overloads and no numeric_limits
// for it, and a fundamental type has no namespace for argument-dependent lookup, so so3's `using std::sin;
// sin(t)` cannot reach glibc's sinf128. Why not boost::multiprecision::float128: its transcendental functions
// and comparisons call libquadmath (sinq, isnanq), which gibench does not link. This class forwards every
// operation to the __float128 arithmetic and glibc's *f128 functions in libm, so the results are exactly
// those of __float128 and no library is added.
#pragma once

#include <math.h>  // glibc's *f128 functions (declared here, not in <cmath>)

#include <Eigen/Core>
#include <limits>
#include <type_traits>

#if defined(__SIZEOF_FLOAT128__) && defined(__GLIBC__)
#define GIB_HAVE_QUAD_SCALAR 1

namespace gib::quad {

class Quad {
 public:
  constexpr Quad() = default;
  // Implicit from every arithmetic type, as Eigen and the generic code write S(2), S(0.5), static_cast<S>(1.0L).
  template <class T>
    requires std::is_arithmetic_v<T>
  constexpr Quad(T x) : v_(static_cast<__float128>(x)) {}  // NOLINT(google-explicit-constructor)
  static constexpr Quad from_raw(__float128 v) {
    Quad q;
    q.v_ = v;
    return q;
  }
  constexpr __float128 raw() const { return v_; }
  explicit constexpr operator double() const { return static_cast<double>(v_); }
  explicit constexpr operator long double() const { return static_cast<long double>(v_); }
  explicit constexpr operator float() const { return static_cast<float>(v_); }

  constexpr Quad& operator+=(Quad o) { v_ += o.v_; return *this; }
  constexpr Quad& operator-=(Quad o) { v_ -= o.v_; return *this; }
  constexpr Quad& operator*=(Quad o) { v_ *= o.v_; return *this; }
  constexpr Quad& operator/=(Quad o) { v_ /= o.v_; return *this; }
  friend constexpr Quad operator+(Quad a, Quad b) { return from_raw(a.v_ + b.v_); }
  friend constexpr Quad operator-(Quad a, Quad b) { return from_raw(a.v_ - b.v_); }
  friend constexpr Quad operator*(Quad a, Quad b) { return from_raw(a.v_ * b.v_); }
  friend constexpr Quad operator/(Quad a, Quad b) { return from_raw(a.v_ / b.v_); }
  friend constexpr Quad operator-(Quad a) { return from_raw(-a.v_); }
  friend constexpr Quad operator+(Quad a) { return a; }
  friend constexpr bool operator==(Quad a, Quad b) { return a.v_ == b.v_; }
  friend constexpr bool operator!=(Quad a, Quad b) { return a.v_ != b.v_; }
  friend constexpr bool operator<(Quad a, Quad b) { return a.v_ < b.v_; }
  friend constexpr bool operator>(Quad a, Quad b) { return a.v_ > b.v_; }
  friend constexpr bool operator<=(Quad a, Quad b) { return a.v_ <= b.v_; }
  friend constexpr bool operator>=(Quad a, Quad b) { return a.v_ >= b.v_; }

 private:
  __float128 v_ = 0;
};

// Found by argument-dependent lookup from generic code (`using std::sqrt; sqrt(x)`).
inline Quad sqrt(Quad x) { return Quad::from_raw(sqrtf128(x.raw())); }
inline Quad sin(Quad x) { return Quad::from_raw(sinf128(x.raw())); }
inline Quad cos(Quad x) { return Quad::from_raw(cosf128(x.raw())); }
inline Quad tan(Quad x) { return Quad::from_raw(tanf128(x.raw())); }
inline Quad atan2(Quad y, Quad x) { return Quad::from_raw(atan2f128(y.raw(), x.raw())); }
inline Quad exp(Quad x) { return Quad::from_raw(expf128(x.raw())); }
inline Quad log(Quad x) { return Quad::from_raw(logf128(x.raw())); }
inline Quad pow(Quad x, Quad y) { return Quad::from_raw(powf128(x.raw(), y.raw())); }
inline Quad floor(Quad x) { return Quad::from_raw(floorf128(x.raw())); }
inline Quad ceil(Quad x) { return Quad::from_raw(ceilf128(x.raw())); }
inline constexpr Quad abs(Quad x) { return x < Quad(0) ? -x : x; }
inline constexpr Quad fabs(Quad x) { return abs(x); }
inline constexpr bool isnan(Quad x) { return x != x; }
inline constexpr bool isinf(Quad x) { return !isnan(x) && isnan(x - x); }
inline constexpr bool isfinite(Quad x) { return !isnan(x - x); }

// 2^e by repeated squaring, exact in binary128 for every normal e (constexpr, for the limits below).
constexpr Quad power_of_two(int e) {
  __float128 base = e < 0 ? 0.5 : 2.0, r = 1;
  for (unsigned n = static_cast<unsigned>(e < 0 ? -e : e); n != 0; n >>= 1, base *= base)
    if (n & 1u) r *= base;
  return Quad::from_raw(r);
}

}  // namespace gib::quad

template <>
struct std::numeric_limits<gib::quad::Quad> {
  using Q = gib::quad::Quad;

  static constexpr bool is_specialized = true;
  static constexpr bool is_signed = true;
  static constexpr bool is_integer = false;
  static constexpr bool is_exact = false;
  static constexpr bool has_infinity = true;
  static constexpr bool has_quiet_NaN = true;
  static constexpr bool is_iec559 = true;
  static constexpr int radix = 2;
  static constexpr int digits = 113;
  static constexpr int digits10 = 33;
  static constexpr int max_digits10 = 36;
  static constexpr int min_exponent = -16381;
  static constexpr int max_exponent = 16384;
  static constexpr std::float_round_style round_style = std::round_to_nearest;
  static constexpr Q epsilon() { return gib::quad::power_of_two(-112); }
  static constexpr Q round_error() { return Q(0.5); }
  static constexpr Q min() { return gib::quad::power_of_two(-16382); }
  static constexpr Q max() { return (Q(2) - epsilon()) * gib::quad::power_of_two(16383); }
  static constexpr Q lowest() { return -max(); }
  static Q infinity() { return Q::from_raw(__builtin_inff128()); }
  static Q quiet_NaN() { return Q::from_raw(__builtin_nanf128("")); }
};

template <>
struct Eigen::NumTraits<gib::quad::Quad> : Eigen::GenericNumTraits<gib::quad::Quad> {
  using Real = gib::quad::Quad;
  using NonInteger = gib::quad::Quad;
  using Literal = gib::quad::Quad;
  using Nested = gib::quad::Quad;
  enum {
    IsComplex = 0,
    IsInteger = 0,
    IsSigned = 1,
    RequireInitialization = 1,
    ReadCost = 1,
    AddCost = 10,  // software arithmetic
    MulCost = 20
  };
  static Real epsilon() { return std::numeric_limits<Real>::epsilon(); }
  static Real dummy_precision() { return Real(1e-30); }
  static Real highest() { return std::numeric_limits<Real>::max(); }
  static Real lowest() { return std::numeric_limits<Real>::lowest(); }
  static int digits10() { return std::numeric_limits<Real>::digits10; }
};

#endif
