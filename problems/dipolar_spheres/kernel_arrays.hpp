// Structure-of-arrays inputs and outputs of the dipole pair kernels. The model gathers positions and
// space-frame dipoles into these once per evaluation, so the pair loops read contiguous runs of each
// component and vectorise.
#pragma once

#include <cstddef>
#include <vector>

namespace gib::dipolar_spheres {

template <class S>
struct ParticleArrays {
  std::vector<S> x, y, z;     // positions
  std::vector<S> mx, my, mz;  // space-frame dipoles mu_i = Q_i mu_bar

  std::size_t size() const { return x.size(); }
  void resize(std::size_t n) {
    for (auto* v : {&x, &y, &z, &mx, &my, &mz}) v->resize(n);
  }
};

template <class S>
struct FieldArrays {
  std::vector<S> fx, fy, fz;  // forces -dV/dq_i
  std::vector<S> ex, ey, ez;  // dV/dmu_i, minus the dipolar field at i (E_i of Kjer spec 5.3)

  std::size_t size() const { return fx.size(); }
  void assign_zero(std::size_t n) {
    for (auto* v : {&fx, &fy, &fz, &ex, &ey, &ez}) v->assign(n, S(0));
  }
};

// One row's own sums: its energy share, -dV/dq_i and dV/dmu_i over the partners visited so far.
template <class S>
struct RowSums {
  S energy = S(0), fx = S(0), fy = S(0), fz = S(0), ex = S(0), ey = S(0), ez = S(0);
};

template <class S>
struct PairResult {
  S energy = S(0);
  FieldArrays<S> field;
};

}  // namespace gib::dipolar_spheres
