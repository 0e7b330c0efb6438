// Four doubles as one value: the fixed-width vector the pair kernels are written in (issue 24).
//
// Why a fixed width of 4, rather than whatever the machine's widest register holds: a pair kernel's row sums are
// reductions, and their bits depend on how the terms are grouped. With a fixed 4 lanes, lane l always sums the pairs
// k = l mod 4 and the lanes are added ((0 + 1) + (2 + 3)), so the grouping is part of the source, not of the ISA:
// a build for SSE2 (two 2-wide halves), a function compiled for AVX2 (one 4-wide register) and an AVX-512 machine
// give the same bits. Every operation here is IEEE-754 correctly rounded per lane (+, -, *, /, sqrt), and nothing
// may be fused: the kernels are compiled for "avx2" without "fma", so no multiply-add is contracted (a contracted
// one rounds once instead of twice and would change the bits between machines with and without FMA).
//
// GCC/Clang vector extensions, not intrinsics: the same source compiles for every x86-64 level (and for any other
// architecture), and a function given __attribute__((target("avx2"))) inlines these operations as 256-bit ones.
#pragma once

#include <cstddef>
#include <cstring>

// A 32-byte vector passed by value is returned in memory without AVX and in a register with it (-Wpsabi says so at
// every such function). Every function here is inlined into its caller, which is compiled for one target, so no
// such value crosses between code built for different targets.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wpsabi"

namespace gib::simd {

#if !defined(__GNUC__)
#error "problems/common/simd_pack.hpp needs GCC or Clang vector extensions"
#endif

inline constexpr std::size_t kLanes = 4;

typedef double VecD4 __attribute__((vector_size(32)));
typedef long long MaskD4 __attribute__((vector_size(32)));  // all ones (-1) where a lane is live, 0 where not

struct Pack4 {
  VecD4 v;
  Pack4() = default;
  constexpr Pack4(VecD4 x) : v(x) {}
  constexpr Pack4(double s) : v{s, s, s, s} {}
  constexpr Pack4(int s) : Pack4(static_cast<double>(s)) {}  // the kernels' S(3), S(15)

  friend Pack4 operator+(Pack4 a, Pack4 b) { return a.v + b.v; }
  friend Pack4 operator-(Pack4 a, Pack4 b) { return a.v - b.v; }
  friend Pack4 operator*(Pack4 a, Pack4 b) { return a.v * b.v; }
  friend Pack4 operator/(Pack4 a, Pack4 b) { return a.v / b.v; }
  friend Pack4 operator-(Pack4 a) { return -a.v; }  // a sign flip, as the scalar -x
  Pack4& operator+=(Pack4 b) {
    v += b.v;
    return *this;
  }
  Pack4& operator-=(Pack4 b) {
    v -= b.v;
    return *this;
  }
};

// Unaligned loads and stores (memcpy compiles to one movupd per register).
inline Pack4 load(const double* p) {
  VecD4 r;
  std::memcpy(&r, p, sizeof r);
  return r;
}
inline void store(double* p, Pack4 a) { std::memcpy(p, &a.v, sizeof a.v); }

// The first r < 4 values of p, the other lanes set to fill (a value the kernel can evaluate without overflow).
inline Pack4 load_first(const double* p, std::size_t r, double fill) {
  double t[kLanes] = {fill, fill, fill, fill};
  for (std::size_t l = 0; l < r; ++l) t[l] = p[l];
  return load(t);
}
inline void add_first(double* p, std::size_t r, Pack4 a) {
  for (std::size_t l = 0; l < r; ++l) p[l] += a.v[l];
}

inline MaskD4 first_lanes(std::size_t r) {
  MaskD4 m;
  for (std::size_t l = 0; l < kLanes; ++l) m[l] = l < r ? -1 : 0;
  return m;
}

// a where the mask is set, b elsewhere (a blend: no arithmetic, so an Inf or NaN in a dead lane stays there).
inline Pack4 select(MaskD4 m, Pack4 a, Pack4 b) { return m ? a.v : b.v; }

// Lane-wise square root. A loop over lanes of __builtin_sqrt becomes one sqrtpd per register where the translation
// unit is compiled with -fno-math-errno (the kernels' are: problems/CMakeLists); correctly rounded either way.
inline Pack4 sqrt(Pack4 a) {
  Pack4 r;
  for (std::size_t l = 0; l < kLanes; ++l) r.v[l] = __builtin_sqrt(a.v[l]);
  return r;
}

// Lane-wise clamp to [0, 1], as the scalar clamp_unit of the pair kernels (a NaN lane stays NaN).
inline Pack4 clamp_unit(Pack4 x) {
  const VecD4 zero = {0.0, 0.0, 0.0, 0.0}, one = {1.0, 1.0, 1.0, 1.0};
  const VecD4 low = x.v < zero ? zero : x.v;
  return low > one ? one : low;
}

// Stores the first r < 4 lanes of a.
inline void store_first(double* p, std::size_t r, Pack4 a) {
  for (std::size_t l = 0; l < r; ++l) p[l] = a.v[l];
}

// Transposes the 4 x 4 matrix whose rows are a, b, c, d: four records loaded one per pack become one component per
// pack, and back. Shuffles only, so no value changes.
inline void transpose4(Pack4& a, Pack4& b, Pack4& c, Pack4& d) {
  const VecD4 t0 = __builtin_shuffle(a.v, b.v, MaskD4{0, 4, 2, 6});  // a0 b0 a2 b2
  const VecD4 t1 = __builtin_shuffle(a.v, b.v, MaskD4{1, 5, 3, 7});  // a1 b1 a3 b3
  const VecD4 t2 = __builtin_shuffle(c.v, d.v, MaskD4{0, 4, 2, 6});
  const VecD4 t3 = __builtin_shuffle(c.v, d.v, MaskD4{1, 5, 3, 7});
  a = __builtin_shuffle(t0, t2, MaskD4{0, 1, 4, 5});
  b = __builtin_shuffle(t1, t3, MaskD4{0, 1, 4, 5});
  c = __builtin_shuffle(t0, t2, MaskD4{2, 3, 6, 7});
  d = __builtin_shuffle(t1, t3, MaskD4{2, 3, 6, 7});
}

// The lanes' sum in the fixed grouping (l0 + l1) + (l2 + l3).
inline double sum_lanes(Pack4 a) { return (a.v[0] + a.v[1]) + (a.v[2] + a.v[3]); }

}  // namespace gib::simd

#pragma GCC diagnostic pop
