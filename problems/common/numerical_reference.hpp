// A numerical reference solution for rigid bodies with torque, where no closed form exists (the Lagrange
// top, Krysl's Coulomb body). Two independent long double integrations:
//   primary    the unit quaternion q' = q (x) (0, omega)/2 with Euler's equations Pi' = Pi x omega + T(R),
//              Boost.Odeint's Runge-Kutta-Fehlberg 7(8) stepper under a standard step-size controller; q is
//              never renormalised along the run (R = M(q)/|q|^2 where the torque or the output needs it);
//   secondary  the 3x3 matrix R' = R hat(omega) with the same Euler equations, Bulirsch-Stoer
//              extrapolation (a different method on a different formulation).
// state(t) is the primary; error_estimate(t) is the largest difference between the two (rotation 2-norm,
// relative momentum) over the checkpoints up to t and at t itself, plus a floor of 1e-15 for the rounding
// to double and the shared torque code.
//
// Determinism: both integrations restart their step-size control at checkpoints k * interval, and a request
// for t continues from the last checkpoint <= t. So state(t) is a function of t alone, whatever was asked
// before, and a value read from the disk cache has exactly the bits of a fresh computation.
//
// Disk cache: <dir>/reference/<problem parameter hash>-<kTag>.json, t -> (R, Pi, error estimate) written
// with 17 significant digits, merged and written by write_file_atomic (core/safe_file.hpp) when the object
// is destroyed or flush_cache() is called. <dir> is $GIBENCH_CACHE_DIR, else <root>/results/cache with
// <root> = $GIBENCH_ROOT or the source tree; GIBENCH_NO_REFERENCE_CACHE=1 turns it off. The key covers
// the problem's parameters, not the code, so the file also holds a fingerprint, the state at the first
// checkpoint to the bit: a file written by other code (another build, a changed potential or integrator)
// fails that check and is ignored, then overwritten (a change that first shows after the first checkpoint,
// such as a wrong wall term the body has not reached by then, is not caught: delete the cache after such
// an edit). Bump kTag when the file format changes.
//
// Thread safety: every member may be called concurrently (one mutex guards the memo).
#pragma once

#include <filesystem>
#include <functional>
#include <memory>
#include <string>

#include "core/problem.hpp"

namespace gib {

using BodyTorqueLD = std::function<so3::Vec3T<long double>(const so3::Mat3T<long double>& R)>;

// Body torque f'(R33) (R32, -R31, 0) of a potential V = f(R33) (problems/common/r33_potential.hpp),
// with the slope f' evaluated in long double.
BodyTorqueLD r33_body_torque_ld(std::function<long double(long double r33)> slope);

struct ReferenceCacheSettings {
  bool enabled = false;
  std::filesystem::path directory;  // files go to directory / "reference"
  static ReferenceCacheSettings from_environment();
};

struct NumericalReferenceSetup {
  Vec3 inertia;
  RigidBodyState x0;
  BodyTorqueLD torque;  // null for a torque-free body
  double checkpoint_interval = 1.0;  // > 0; a few time scales of the motion
};

struct ReferenceStateLD {
  so3::Mat3T<long double> R;
  so3::Vec3T<long double> Pi;
};

class NumericalReference final : public RigidBodyReference {
 public:
  static constexpr const char* kTag = "rkf78q-bsm-v2";

  explicit NumericalReference(NumericalReferenceSetup setup);
  ~NumericalReference() override;  // flushes new samples to the disk cache (errors become a warning)
  NumericalReference(const NumericalReference&) = delete;
  NumericalReference& operator=(const NumericalReference&) = delete;

  // Enables the disk cache for this reference; `identity` (the problem's parameters) is stored in the file,
  // and a file whose identity or tag differs is ignored.
  void attach_cache(const ReferenceCacheSettings& settings, const std::string& key, const Json& identity);
  std::filesystem::path cache_file() const;  // empty without a cache
  void flush_cache() const;

  // t >= 0 (throws std::domain_error otherwise). state(0) is the initial state, bit for bit.
  RigidBodyState state(double t) const override;
  std::string kind() const override { return "numerical"; }
  double error_estimate(double t) const override;

  // Both integrations at t in long double, bypassing the memo and the cache (tests, studies).
  struct Solutions {
    ReferenceStateLD primary, secondary;
  };
  Solutions solutions(double t) const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace gib
