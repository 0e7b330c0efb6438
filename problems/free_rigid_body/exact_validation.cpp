#include "problems/free_rigid_body/exact_validation.hpp"

#include <algorithm>
#include <array>
#include <boost/multiprecision/cpp_bin_float.hpp>
#include <boost/numeric/odeint/integrate/integrate_n_steps.hpp>
#include <boost/numeric/odeint/stepper/runge_kutta_fehlberg78.hpp>
#include <cmath>
#include <stdexcept>

namespace gib::free_rigid_body {
namespace {

using LD = long double;
template <class T> using State7 = std::array<T, 7>;  // quaternion (w, x, y, z), then Pi

template <class T> struct FreeBody {
  std::array<T, 3> inverse_inertia;

  void operator()(const State7<T>& x, State7<T>& dx, const T& /*t*/) const {
    const T w0 = x[4] * inverse_inertia[0], w1 = x[5] * inverse_inertia[1], w2 = x[6] * inverse_inertia[2];
    // q' = q (x) (0, omega) / 2 = (-v.omega, q0 omega + v x omega) / 2
    dx[0] = -(x[1] * w0 + x[2] * w1 + x[3] * w2) / 2;
    dx[1] = (x[0] * w0 + x[2] * w2 - x[3] * w1) / 2;
    dx[2] = (x[0] * w1 + x[3] * w0 - x[1] * w2) / 2;
    dx[3] = (x[0] * w2 + x[1] * w1 - x[2] * w0) / 2;
    dx[4] = x[5] * w2 - x[6] * w1;
    dx[5] = x[6] * w0 - x[4] * w2;
    dx[6] = x[4] * w1 - x[5] * w0;
  }
};

template <class T> State7<T> pack(const RigidBodyState& x0) {
  // The quaternion is formed in long double: its rounding is a fixed spatial rotation of ~1e-19, which
  // no later time amplifies.
  const Eigen::Matrix<LD, 4, 1> q = so3::quaternion_from_matrix<LD>(x0.R.cast<LD>());
  return {T(q(0)), T(q(1)), T(q(2)), T(q(3)), T(x0.Pi(0)), T(x0.Pi(1)), T(x0.Pi(2))};
}

template <class T> RigidBodyStateLD unpack(const State7<T>& x) {
  using std::sqrt;
  const T norm = sqrt(x[0] * x[0] + x[1] * x[1] + x[2] * x[2] + x[3] * x[3]);
  Eigen::Matrix<LD, 4, 1> q;
  for (int i = 0; i < 4; ++i) q(i) = static_cast<LD>(T(x[i] / norm));
  return {so3::matrix_from_quaternion<LD>(q),
          so3::Vec3T<LD>(static_cast<LD>(x[4]), static_cast<LD>(x[5]), static_cast<LD>(x[6]))};
}

template <class T>
std::vector<RigidBodyStateLD> integrate(const Vec3& inertia, const RigidBodyState& x0,
                                        const std::vector<double>& times, double h) {
  namespace odeint = boost::numeric::odeint;
  if (!(h > 0)) throw std::invalid_argument("integrate_free_body_trajectory: step must be positive");
  const FreeBody<T> body{{1 / T(inertia(0)), 1 / T(inertia(1)), 1 / T(inertia(2))}};
  odeint::runge_kutta_fehlberg78<State7<T>, T, State7<T>, T> stepper;
  State7<T> x = pack<T>(x0);
  std::vector<RigidBodyStateLD> out;
  out.reserve(times.size());
  T now = 0;
  for (const double t : times) {
    const T span = T(t) - now;
    if (span < 0) throw std::invalid_argument("integrate_free_body_trajectory: times must be non-decreasing");
    using std::ceil;
    const auto steps = static_cast<std::size_t>(ceil(span / T(h)));
    if (steps > 0) odeint::integrate_n_steps(stepper, body, x, now, T(span / T(steps)), steps);
    now = T(t);
    out.push_back(unpack(x));
  }
  return out;
}

}  // namespace

std::vector<RigidBodyStateLD> integrate_free_body_trajectory(const Vec3& inertia, const RigidBodyState& x0,
                                                             const std::vector<double>& times, double h) {
  return integrate<LD>(inertia, x0, times, h);
}

std::vector<RigidBodyStateLD> integrate_free_body_trajectory_digits50(const Vec3& inertia, const RigidBodyState& x0,
                                                                      const std::vector<double>& times, double h) {
  return integrate<boost::multiprecision::cpp_bin_float_50>(inertia, x0, times, h);
}

RigidBodyStateLD integrate_free_body_long_double(const Vec3& inertia, const RigidBodyState& x0, double t, double h) {
  return integrate_free_body_trajectory(inertia, x0, {t}, h).front();
}

StateDistance distance(const RigidBodyStateLD& reference, const RigidBodyStateLD& x) {
  return {so3::rotation_angle<LD>(reference.R.transpose() * x.R),
          (x.Pi - reference.Pi).norm() / reference.Pi.norm()};
}

StateDistance distance(const RigidBodyStateLD& reference, const RigidBodyState& x) {
  return distance(reference, RigidBodyStateLD{x.R.cast<LD>(), x.Pi.cast<LD>()});
}

StateDistance compare_with_numerical(const ExactSolution& exact, const Vec3& inertia, const RigidBodyState& x0,
                                     const std::vector<double>& times, double h) {
  const auto numerical = integrate_free_body_trajectory(inertia, x0, times, h);
  StateDistance worst;
  for (std::size_t i = 0; i < times.size(); ++i) {
    const StateDistance d = distance(numerical[i], exact.state(times[i]));
    worst.rotation = std::max(worst.rotation, d.rotation);
    worst.momentum = std::max(worst.momentum, d.momentum);
  }
  return worst;
}

}  // namespace gib::free_rigid_body
