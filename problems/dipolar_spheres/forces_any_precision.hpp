// Energy, forces and body torques of the dipolar spheres in any scalar type (long double references,
// 128-bit precision studies): the same kernels as DipolarSpheresModel, instantiated at S, with the state in
// S as well. Allocates per call; the double model keeps its own scratch.
#pragma once

#include <Eigen/Core>
#include <cstddef>
#include <vector>

#include "core/so3.hpp"
#include "problems/dipolar_spheres/cutoff_kernel.hpp"
#include "problems/dipolar_spheres/dipolar_model.hpp"
#include "problems/dipolar_spheres/pair_kernel.hpp"

namespace gib::dipolar_spheres {

template <class S>
using Matrix3X = Eigen::Matrix<S, 3, Eigen::Dynamic>;

// Returns V; F (space frame) and tau (body frame) are resized to 3 x N.
template <class S>
S forces_and_torques_in(const DipoleParameters& p, const Matrix3X<S>& q, const std::vector<so3::Mat3T<S>>& Q,
                        Matrix3X<S>& F, Matrix3X<S>& tau) {
  const auto n = static_cast<std::size_t>(q.cols());
  const so3::Vec3T<S> mu_bar = p.mu_bar.template cast<S>();
  ParticleArrays<S> a;
  a.resize(n);
  for (std::size_t i = 0; i < n; ++i) {
    const auto col = static_cast<Eigen::Index>(i);
    const so3::Vec3T<S> mu = Q[i] * mu_bar;
    a.x[i] = q(0, col);
    a.y[i] = q(1, col);
    a.z[i] = q(2, col);
    a.mx[i] = mu(0);
    a.my[i] = mu(1);
    a.mz[i] = mu(2);
  }
  const PairConstants<S> c =
      pair_constants<S>(S(p.sigma), S(p.epsilon), p.short_range, S(p.cutoff), S(p.switch_fraction));
  PairResult<S> r;
  if (p.cutoff > 0) {
    CutoffWorkspace<S> ws;
    cutoff_pairs(a, c, ws, r);
  } else {
    AllPairsWorkspace<S> ws;
    all_pairs(a, c, ws, r);
  }
  F.resize(3, q.cols());
  tau.resize(3, q.cols());
  for (std::size_t i = 0; i < n; ++i) {
    const auto col = static_cast<Eigen::Index>(i);
    F.col(col) = so3::Vec3T<S>(r.field.fx[i], r.field.fy[i], r.field.fz[i]);
    const so3::Vec3T<S> e_body = Q[i].transpose() * so3::Vec3T<S>(r.field.ex[i], r.field.ey[i], r.field.ez[i]);
    tau.col(col) = e_body.cross(mu_bar);
  }
  return r.energy;
}

}  // namespace gib::dipolar_spheres
