// The few scalar operations the dipole pair kernel needs, for every scalar it is instantiated with:
// double, long double, __float128 and boost::multiprecision::float128 (the precision study).
//
// sqrt is the only transcendental function in the kernel. The 128-bit types take glibc's sqrtf128 (in
// libm, which every C++ program links), so the kernel runs in quad precision without libquadmath;
// other types find sqrt by argument-dependent lookup.
#pragma once

#include <math.h>  // sqrtf128 (glibc, IEC 60559 extended types) is declared here, not in <cmath>

#include <Eigen/Core>
#include <cmath>
#include <concepts>
#include <cstddef>
#include <type_traits>

#include "problems/common/row_chunks.hpp"  // GIB_PRAGMA

namespace gib::dipolar_spheres {

#if defined(__SIZEOF_FLOAT128__) && defined(__GLIBC__)
#define GIB_HAVE_SQRTF128 1
#endif

template <class S>
S root(const S& x) {
#ifdef GIB_HAVE_SQRTF128
  if constexpr (std::is_same_v<S, __float128>) {
    return sqrtf128(x);
  } else if constexpr (requires {
                         { x.backend().value() } -> std::same_as<const __float128&>;
                       }) {
    return S(sqrtf128(x.backend().value()));  // Boost.Multiprecision float128: its own sqrt needs libquadmath
  } else
#endif
  {
    using std::sqrt;
    return sqrt(x);
  }
}

// The built-in value behind a scalar, for comparisons: Boost's float128 compares through libquadmath's
// isnanq, its __float128 does not.
template <class S>
decltype(auto) raw(const S& x) {
#ifdef GIB_HAVE_SQRTF128
  if constexpr (requires {
                  { x.backend().value() } -> std::same_as<const __float128&>;
                })
    return x.backend().value();
  else
#endif
    return (x);
}

// In-place square roots of a contiguous run. For double, Eigen's packet sqrt (sqrtpd), which GCC does not
// emit for std::sqrt without -fno-math-errno; both are correctly rounded, so the bits are the same.
template <class S>
void sqrt_in_place(S* v, std::size_t n) {
  if constexpr (std::is_same_v<S, double>) {
    Eigen::Map<Eigen::ArrayXd> a(v, static_cast<Eigen::Index>(n));
    a = a.sqrt();
  } else {
    for (std::size_t k = 0; k < n; ++k) v[k] = root(v[k]);
  }
}

// OpenMP reductions need arithmetic types; class types (Boost float128) take the plain loops.
template <class S>
inline constexpr bool kSimdReducible = !std::is_class_v<S>;

}  // namespace gib::dipolar_spheres
