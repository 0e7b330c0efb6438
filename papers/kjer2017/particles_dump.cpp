// Kjer's dipolar spheres as a peer code needs them (papers/kjer2017/particles_dump.hpp).
#include "papers/kjer2017/particles_dump.hpp"

#include <Eigen/Core>
#include <cstddef>

#include "core/problem.hpp"
#include "harness/json_util.hpp"
#include "papers/kjer2017/precision_study.hpp"

// In the precision study's namespace: the dump evaluates with its any-precision state and kernel, in long double.
namespace gib::precision {

namespace {

Json columns(const Eigen::Matrix3Xd& a) {
  Json out = Json::array();
  for (Eigen::Index i = 0; i < a.cols(); ++i) out.push_back({json_number(a(0, i)), json_number(a(1, i)), json_number(a(2, i))});
  return out;
}

Json vec(const Vec3& v) { return {v(0), v(1), v(2)}; }

}  // namespace

Json particles_dump(const Problem& problem) {
  using LD = long double;
  const DipoleParameters& p = dipole_model(problem).parameters();
  const ParticlesState& x = dynamic_cast<const ParticlesProblem&>(problem).initial_state();
  const StateIn<LD> y = convert<LD>(x);
  Matrix3X<LD> F, tau;
  const LD potential = dipolar_spheres::forces_and_torques_in<LD>(p, y.q, y.Q, F, tau);
  Rkmk4InPrecision<LD> kin(p);
  const LD kinetic = kin.kinetic(y);
  const Eigen::Index n = x.size();
  Eigen::Matrix3Xd velocity(3, n), dipole(3, n), omega(3, n), torque(3, n), force = F.cast<double>();
  const so3::Vec3T<LD> mu_bar = p.mu_bar.cast<LD>(), inv_inertia = p.inertia.cast<LD>().cwiseInverse();
  for (Eigen::Index i = 0; i < n; ++i) {
    const so3::Mat3T<LD>& Q = y.Q[static_cast<std::size_t>(i)];
    velocity.col(i) = (y.p.col(i) / LD(p.mass)).cast<double>();
    dipole.col(i) = (Q * mu_bar).cast<double>();
    omega.col(i) = (Q * inv_inertia.cwiseProduct(y.m.col(i))).cast<double>();
    torque.col(i) = (Q * tau.col(i)).cast<double>();
  }
  Json Q = Json::array();
  for (const Mat3& R : x.Q) Q.push_back({vec(R.row(0)), vec(R.row(1)), vec(R.row(2))});
  return {{"problem", problem.id()}, {"preset", problem.preset()}, {"ic", problem.initial_condition()},
          {"params", problem.parameters()},
          {"N", n}, {"mass", p.mass}, {"inertia", vec(p.inertia)}, {"mu_bar", vec(p.mu_bar)},
          {"sigma", p.sigma}, {"epsilon", p.epsilon},
          {"short_range", p.short_range == dipolar_spheres::ShortRange::lennard_jones ? "lj" : "soft_sphere"},
          {"cutoff", p.cutoff},
          {"frames", "positions, velocities, dipoles, omega, forces, torques: space frame; body_momentum: body frame; "
                     "Q: body to space, row-major"},
          {"positions", columns(x.q)}, {"velocities", columns(velocity)}, {"dipoles", columns(dipole)},
          {"omega", columns(omega)}, {"body_momentum", columns(x.m)}, {"Q", Q},
          {"potential_energy", static_cast<double>(potential)}, {"kinetic_energy", static_cast<double>(kinetic)},
          {"energy", static_cast<double>(potential + kinetic)},
          {"forces", columns(force)}, {"torques", columns(torque)},
          {"evaluated_in", "long double, rounded to double"}};
}

}  // namespace gib::precision
