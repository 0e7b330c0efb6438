// One pair of dipolar spheres (Kjer spec 5.1, 5.3): the energy, its position gradient and its dipole
// gradients, written once and inlined into every pair loop (all pairs, cell lists, any scalar type).
//
// With r = q_i - q_j, r = |r|, a = mu_i . r, b = mu_j . r, d = mu_i . mu_j:
//   V        = c12 / r^12 - c6 / r^6 + d / r^3 - 3 a b / r^5
//              (c12 = 4 eps sigma^12; c6 = 4 eps sigma^6 for Lennard-Jones, 0 for Kjer's soft spheres)
//   dV/dq_i  = (V_sr'(r)/r - 3 d / r^5 + 15 a b / r^7) r - 3 b / r^5 mu_i - 3 a / r^5 mu_j
//              (the corrected gradient with mu_i . mu_j, spec 7 item 9); dV/dq_j = -dV/dq_i
//   dV/dmu_i = mu_j / r^3 - 3 b r / r^5   (= E_i of spec 5.3, minus the dipolar field at i)
//   dV/dmu_j = mu_i / r^3 - 3 a r / r^5
//
// Optional cutoff: the whole pair energy is multiplied by a quintic switch s(r) that is 1 below r_s,
// 0 beyond r_c and C2 in between; the position gradient includes V s'(r) r / r, so the forces are the
// exact gradient of the energy the model reports and NVE conserves that energy.
#pragma once

#include "problems/dipolar_spheres/scalar_math.hpp"

namespace gib::dipolar_spheres {

// The short-range repulsion: Kjer's 4 eps (sigma/r)^12, or Lennard-Jones 4 eps ((sigma/r)^12 - (sigma/r)^6)
// (what LAMMPS's lj/cut/dipole/cut computes).
enum class ShortRange { soft_sphere, lennard_jones };

template <class S>
struct PairConstants {
  S c12 = S(4);  // coefficient of r^-12
  S c6 = S(0);   // coefficient of -r^-6 (0: soft spheres)
  // Switching window [switch_start, cutoff] of the cutoff kernels; unused by the all-pairs kernel.
  S switch_start = S(0);
  S cutoff = S(0);
  S inv_switch_width = S(0);  // 1 / (cutoff - switch_start)
};

// cutoff = 0: all pairs (the paper). Otherwise the switch runs over [switch_fraction cutoff, cutoff].
template <class S>
PairConstants<S> pair_constants(S sigma, S epsilon, ShortRange kind, S cutoff = S(0), S switch_fraction = S(0)) {
  const S s2 = sigma * sigma, s6 = s2 * s2 * s2;
  PairConstants<S> c;
  c.c12 = S(4) * epsilon * s6 * s6;
  c.c6 = kind == ShortRange::lennard_jones ? S(4) * epsilon * s6 : S(0);
  if (raw(cutoff) > raw(S(0))) {
    c.cutoff = cutoff;
    c.switch_start = switch_fraction * cutoff;
    c.inv_switch_width = S(1) / (cutoff - c.switch_start);
  }
  return c;
}

template <class S>
struct PairTerms {
  S energy;
  S gx, gy, gz;     // dV/dq_i
  S eix, eiy, eiz;  // dV/dmu_i
  S ejx, ejy, ejz;  // dV/dmu_j
};

// A pair's scalar coefficients: every output is the energy or a combination of r, mu_i and mu_j with them.
template <class S>
struct PairCoefficients {
  S energy;
  S radial;  // of r in dV/dq_i
  S wi, wj;  // of mu_i and mu_j in dV/dq_i; wi is also that of r in dV/dmu_i, wj in dV/dmu_j
  S inv3;    // of mu_j in dV/dmu_i and of mu_i in dV/dmu_j
};

// r = q_i - q_j with inv1 = 1/|r|; mu_i = (ax, ay, az), mu_j = (bx, by, bz).
template <class S>
inline PairCoefficients<S> pair_coefficients(const PairConstants<S>& c, S rx, S ry, S rz, S inv1, S ax, S ay, S az,
                                             S bx, S by, S bz) {
  const S inv2 = inv1 * inv1;
  const S inv3 = inv1 * inv2;
  const S inv5 = inv3 * inv2;
  const S inv7 = inv5 * inv2;
  const S inv6 = inv2 * inv2 * inv2;
  const S a = ax * rx + ay * ry + az * rz;
  const S b = bx * rx + by * ry + bz * rz;
  const S d = ax * bx + ay * by + az * bz;
  const S ab = a * b;
  const S short_range = inv6 * (c.c12 * inv6 - c.c6);
  const S short_radial = inv2 * inv6 * (S(6) * c.c6 - S(12) * c.c12 * inv6);  // V_sr'(r) / r
  PairCoefficients<S> k;
  k.radial = short_radial - S(3) * d * inv5 + S(15) * ab * inv7;
  k.wi = S(-3) * b * inv5;
  k.wj = S(-3) * a * inv5;
  k.energy = short_range + d * inv3 - S(3) * ab * inv5;
  k.inv3 = inv3;
  return k;
}

template <class S>
inline PairTerms<S> pair_outputs(const PairCoefficients<S>& k, S rx, S ry, S rz, S ax, S ay, S az, S bx, S by, S bz) {
  PairTerms<S> t;
  t.energy = k.energy;
  t.gx = k.radial * rx + k.wi * ax + k.wj * bx;
  t.gy = k.radial * ry + k.wi * ay + k.wj * by;
  t.gz = k.radial * rz + k.wi * az + k.wj * bz;
  t.eix = bx * k.inv3 + k.wi * rx;
  t.eiy = by * k.inv3 + k.wi * ry;
  t.eiz = bz * k.inv3 + k.wi * rz;
  t.ejx = ax * k.inv3 + k.wj * rx;
  t.ejy = ay * k.inv3 + k.wj * ry;
  t.ejz = az * k.inv3 + k.wj * rz;
  return t;
}

template <class S>
inline PairTerms<S> pair_terms(const PairConstants<S>& c, S rx, S ry, S rz, S inv1, S ax, S ay, S az, S bx, S by,
                               S bz) {
  return pair_outputs(pair_coefficients(c, rx, ry, rz, inv1, ax, ay, az, bx, by, bz), rx, ry, rz, ax, ay, az, bx, by,
                      bz);
}

// The switch s(x) = 1 - x^3 (10 - 15 x + 6 x^2), x = (r - r_s)/(r_c - r_s) clamped to [0, 1]: s(0) = 1,
// s(1) = 0 exactly, s' and s'' vanish at both ends. Branch-free (the clamp compiles to min/max), so pairs
// beyond the cutoff cost a multiplication by zero instead of a branch in the vector loop.
// x clamped to [0, 1] (a NaN stays NaN); simd_pack.hpp has the lane-wise overload for Pack4.
template <class S>
inline S clamp_unit(S x) {
  x = raw(x) < raw(S(0)) ? S(0) : x;
  return raw(x) > raw(S(1)) ? S(1) : x;
}

// The pair's terms times the switch, r = |r| = r^2 inv1, with the position gradient of s V (V s'(r) r / r added).
// The switch is folded into the coefficients before the outputs are formed: s V, s radial + V s' / r, s wi, s wj
// and s / r^3, so switching costs the switch and six products instead of one per output.
template <class S>
inline PairTerms<S> switched_pair_terms(const PairConstants<S>& c, S r, S rx, S ry, S rz, S inv1, S ax, S ay, S az,
                                        S bx, S by, S bz) {
  PairCoefficients<S> k = pair_coefficients(c, rx, ry, rz, inv1, ax, ay, az, bx, by, bz);
  const S x = clamp_unit((r - c.switch_start) * c.inv_switch_width);
  const S x2 = x * x;
  const S one_minus = S(1) - x;
  const S s = S(1) - x2 * x * (S(10) - S(15) * x + S(6) * x2);
  const S ds_dr = S(-30) * x2 * one_minus * one_minus * c.inv_switch_width;
  k.radial = s * k.radial + k.energy * ds_dr * inv1;
  k.wi = s * k.wi;
  k.wj = s * k.wj;
  k.inv3 = s * k.inv3;
  k.energy = s * k.energy;
  return pair_outputs(k, rx, ry, rz, ax, ay, az, bx, by, bz);
}

}  // namespace gib::dipolar_spheres
