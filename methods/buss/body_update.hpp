// Pieces shared by the Buss (2001) methods (spec 4.1, 4.2): every one of them ends a step with a single
// rotation. Buss writes it in the world frame, Omega_{i+1} = R_{h omega_bar} Omega_i; with
// R_{Omega v} = Omega R_v Omega^T this is the body-side update R <- R exp(h nu_bar), nu_bar = R^T omega_bar,
// and since the world momentum L = R Pi is constant without torque, Pi <- exp(h nu_bar)^T Pi keeps R Pi
// (and |Pi|) to round-off.
#pragma once

#include <cstdint>
#include <cstring>
#include <string>
#include <utility>

#include "core/method.hpp"
#include "core/so3.hpp"
#include "core/state.hpp"

namespace gib::buss {

// R <- R E, Pi <- E^T Pi. The products are written straight into x from copies of its old values: `x.R = x.R * E`
// builds the product in a temporary with column-sized stores and copies it back with 16-byte loads that straddle
// them, and each straddling load waits for its stores to retire (about 6 ns of a 34 ns rotation). Same products.
inline void rotate_body_by(RigidBodyState& x, const Mat3& E) {
  const Mat3 R = x.R;
  x.R.noalias() = R * E;
  const Vec3 Pi = x.Pi;
  x.Pi.noalias() = E.transpose() * Pi;
}

// R <- R exp(u), Pi <- exp(u)^T Pi: one Rodrigues rotation, acting on a state in body coordinates.
inline void rotate_body(RigidBodyState& x, const Vec3& u) { rotate_body_by(x, so3::exp(u)); }

// exp(u)^T v without forming the matrix (stage momenta of the RK and AB-AM methods): Rodrigues on a vector.
inline Vec3 rotate_back(const Vec3& u, const Vec3& v) {
  const auto k = so3::rodrigues_coefficients(u.squaredNorm());
  const Vec3 uv = u.cross(v);
  return v - k.a * uv + k.b * u.cross(uv);
}

// exp(u) v.
inline Vec3 rotate_forward(const Vec3& u, const Vec3& v) {
  const auto k = so3::rodrigues_coefficients(u.squaredNorm());
  const Vec3 uv = u.cross(v);
  return v + k.a * uv + k.b * u.cross(uv);
}

inline bool same_bits(double a, double b) { return std::memcmp(&a, &b, sizeof(double)) == 0; }

// A stepper with history that a wrapper may legitimately edit between steps (the energy correction rotates
// the state after every base step). The wrapper calls continue_from(x) after its edit so that the edited
// state continues the history instead of being taken for a foreign state, which would restart the method.
// step() leaves the state it wrote recorded, whatever its status.
//
// step_continued(x, h) is the step() a caller that hands back the recorded state with the h of the last step
// would take, without the bit-for-bit comparison that tells it so and without recording what it writes: a loop
// that owns the state between steps (advance, the energy correction's advance) knows it continues, and records
// once, with continue_from, when it returns. Valid only after a step() since the last reset().
class HistoryStepper : public RigidBodyStepper {
 public:
  virtual void continue_from(const RigidBodyState& x) = 0;
  virtual StepStatus step_continued(RigidBodyState& x, double h, OpCounters& c) = 0;
};

// advance() of a history stepper: step() checks the caller's state once, step_continued() takes the others.
// Self is the final class, so that the loop's calls are not virtual.
template <class Self>
Advanced advance_continuing(Self& self, RigidBodyState& x, double h, std::int64_t n, OpCounters& c) {
  if (n <= 0) return {StepStatus::ok, 0};
  StepStatus s = self.step(x, h, c);
  std::int64_t i = 1;
  for (; i < n && s == StepStatus::ok; ++i) s = self.step_continued(x, h, c);
  self.continue_from(x);
  return {s, i};
}

// Metadata every Buss method shares. Each step only multiplies R by rotations and Pi by their transposes,
// so R stays on SO(3) and |Pi| and R Pi are kept to round-off. The methods differentiate (or extrapolate)
// the torque-free Euler equations, so the harness refuses them on bodies with a potential.
inline MethodInfo buss_method_info(std::string id, std::string display_name, std::string citation, int order) {
  MethodInfo m;
  m.id = std::move(id);
  m.display_name = std::move(display_name);
  m.citation = std::move(citation);
  m.family = "buss";
  m.claims.order = order;
  m.claims.stays_on_group = true;
  m.claims.invariants = {{Invariant::casimir, Preservation::exact, Applies::torque_free},
                         {Invariant::spatial_momentum, Preservation::exact, Applies::torque_free}};
  m.torque_free_only = true;
  return m;
}

}  // namespace gib::buss
