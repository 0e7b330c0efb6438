// The floating-point half of the Kjer (2017) energy-spike question (issue deliverable 5).
//
// The thesis sees spikes in the relative energy error of RKMK4 on the dipolar spheres (Figs 3.9/3.10,
// h = 0.01) and suspects that the r^-12 term "becomes very large, resulting in a floating point error",
// which 128-bit arithmetic "may fix"; the spec's double prototype (spec 6, 9) finds that halving h cuts them
// 20-40x, i.e. time-step error. The step half runs through the normal harness (figure kjer2017-spikes-steps);
// this file runs the precision half: the same initial state, the same RKMK4, with the WHOLE computation in a
// scalar S (state, stage algebra elements, exp and dexp, forces and torques, the energy) for S = double,
// long double and binary128, at h, h/2, h/4, ...
//
// binary128 is GCC's __float128 behind the thin class of problems/dipolar_spheres/quad_scalar.hpp (Eigen, so3 and
// the pair kernel need a class type; the arithmetic is __float128's, in software: ~0.8 ms per N = 10 step, ~100x
// double). The verdict rule and its inputs are documented at classify_spikes below.
//
// The method is the registered rkmk4's own: the one RKMK kernel (methods/rkmk/kernel.hpp) on the particle group,
// instantiated at S (Rkmk4InPrecision below). What differs from the registered stepper is only the scalar and the
// force kernel (dipolar_spheres::forces_and_torques_in, the pair kernel at S), so the comparison with the registered
// rkmk4 in double checks those two.
#pragma once

#include <Eigen/Core>
#include <cstdint>
#include <limits>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "core/counters.hpp"
#include "core/so3.hpp"
#include "core/state.hpp"
#include "methods/rkmk/kernel.hpp"
#include "methods/rkmk/particles_group.hpp"
#include "methods/rkmk/tableau.hpp"
#include "problems/dipolar_spheres/dipolar_model.hpp"
#include "problems/dipolar_spheres/forces_any_precision.hpp"

namespace gib {
class Problem;
}

namespace gib::precision {

using Json = nlohmann::json;
using dipolar_spheres::DipoleParameters;
using dipolar_spheres::Matrix3X;

// N rigid particles with every component in S (the layout of ParticlesState).
template <class S>
struct StateIn {
  Matrix3X<S> q, p, m;
  std::vector<so3::Mat3T<S>> Q;
  Eigen::Index size() const { return q.cols(); }
};

// Exact: every double is representable in long double and binary128, so all precisions start from the same bits.
template <class S>
StateIn<S> convert(const ParticlesState& x) {
  StateIn<S> y{x.q.cast<S>(), x.p.cast<S>(), x.m.cast<S>(), {}};
  for (const Mat3& R : x.Q) y.Q.push_back(R.cast<S>());
  return y;
}

template <class S>
ParticlesState to_double(const StateIn<S>& x) {
  ParticlesState y{x.q.template cast<double>(), x.p.template cast<double>(), x.m.template cast<double>(), {}};
  for (const auto& R : x.Q) y.Q.push_back(R.template cast<double>());
  return y;
}

// All of q, Q (row by row), p, m of every particle in one vector, in long double (binary128 rounds to it at
// 1e-19 relative, far below the differences this is used to measure).
template <class S>
std::vector<long double> flatten(const StateIn<S>& x) {
  std::vector<long double> v;
  const Eigen::Index n = x.size();
  v.reserve(static_cast<std::size_t>(21 * n));
  for (Eigen::Index i = 0; i < n; ++i) {
    for (int k = 0; k < 3; ++k) v.push_back(static_cast<long double>(x.q(k, i)));
    for (int r = 0; r < 3; ++r)
      for (int c = 0; c < 3; ++c) v.push_back(static_cast<long double>(x.Q[static_cast<std::size_t>(i)](r, c)));
    for (int k = 0; k < 3; ++k) v.push_back(static_cast<long double>(x.p(k, i)));
    for (int k = 0; k < 3; ++k) v.push_back(static_cast<long double>(x.m(k, i)));
  }
  return v;
}

// The dipolar spheres' forces in S for the RKMK kernel's particle group, keeping the potential of the first
// evaluation since start_step(): an explicit kernel evaluates its first stage at y_n, so that is V(y_n), and the
// energy record costs no force evaluation of its own (a fifth of a step in software binary128).
template <class S>
class PairForcesIn {
 public:
  explicit PairForcesIn(const DipoleParameters& p) : params_(p) {}

  void forces_and_torques(const StateIn<S>& x, Matrix3X<S>& F, Matrix3X<S>& tau) {
    const S v = dipolar_spheres::forces_and_torques_in<S>(params_, x.q, x.Q, F, tau);
    if (!have_first_) first_ = v, have_first_ = true;
  }
  void start_step() { have_first_ = false; }
  const S& first_potential() const { return first_; }
  S potential(const StateIn<S>& x) const {
    Matrix3X<S> F, tau;
    return dipolar_spheres::forces_and_torques_in<S>(params_, x.q, x.Q, F, tau);
  }

 private:
  DipoleParameters params_;
  S first_{};
  bool have_first_ = false;
};

// RKMK4 on the dipolar spheres, every operation in S: the one RKMK kernel (methods/rkmk/kernel.hpp) on the
// particle group in S, configured as the registered rkmk4 (classical RK4, dexp^-1 truncated after 3 ad terms, i.e.
// the +1/2 and 1/12 terms as B_3 = 0, with the series of the y exp(sigma) action: Kjer spec 3.5's corrected left
// version).
template <class S>
class Rkmk4InPrecision {
 public:
  explicit Rkmk4InPrecision(const DipoleParameters& p)
      : forces_(p),
        inv_mass_(S(1) / S(p.mass)),
        inv_inertia_(inverse_inertia(p)),
        kernel_(Group(forces_, Vector::Constant(p.n, inv_mass_), inv_inertia_.replicate(1, p.n), kTruncation,
                      so3::ActionSide::right_multiply),
                rkmk::classical_rk4()) {}
  // The group keeps a pointer to forces_.
  Rkmk4InPrecision(const Rkmk4InPrecision&) = delete;
  Rkmk4InPrecision& operator=(const Rkmk4InPrecision&) = delete;

  // Advances x by h; returns V(x) before the step.
  S step(StateIn<S>& x, const S& h) {
    forces_.start_step();
    kernel_.step(x, h, counters_);
    return forces_.first_potential();
  }

  S potential(const StateIn<S>& x) const { return forces_.potential(x); }

  S kinetic(const StateIn<S>& x) const {
    S t = S(0);
    for (Eigen::Index i = 0; i < x.size(); ++i) {
      t += x.p.col(i).squaredNorm() * inv_mass_ / S(2);
      t += x.m.col(i).dot(inv_inertia_.cwiseProduct(x.m.col(i))) / S(2);
    }
    return t;
  }

 private:
  using Group = rkmk::RigidParticlesGroup<StateIn<S>, PairForcesIn<S>>;
  using Vector = typename Group::Vector;
  static constexpr int kTruncation = 3;

  static so3::Vec3T<S> inverse_inertia(const DipoleParameters& p) {
    so3::Vec3T<S> r;
    for (int k = 0; k < 3; ++k) r(k) = S(1) / S(p.inertia(k));
    return r;
  }

  PairForcesIn<S> forces_;
  S inv_mass_;
  so3::Vec3T<S> inv_inertia_;
  rkmk::Kernel<Group> kernel_;
  OpCounters counters_;  // the kernel counts; the study reports run time instead
};

// ---------------------------------------------------------------------------------------------------------
// The study.

enum class Precision { double_precision, long_double, binary128 };
const char* to_string(Precision p);
// Machine epsilon of the precision (2^-52, 2^-63, 2^-112).
double epsilon_of(Precision p);
// Throws InputError on a name other than double, long_double, binary128.
Precision precision_from_string(const std::string& name);
// binary128 is available only with GCC's __float128 and glibc's *f128 functions.
bool binary128_available();

struct RunRecord {
  Precision precision = Precision::double_precision;
  double h = 0;
  std::int64_t steps = 0;
  std::string status = "ok";           // ok, or nonfinite (the energy stopped being finite)
  std::vector<double> energy_rel_err;  // (H_n - H_0)/H_0 in S, rounded to double; n = 0..steps
  std::vector<double> min_distance;    // closest pair at step n
  std::vector<long double> final_state;  // flatten() of the last state
  // flatten() of the state every checkpoint_every steps (from step 0), to see where precisions part ways.
  std::int64_t checkpoint_every = 0;
  std::vector<std::vector<long double>> checkpoints;
  double seconds = 0;
};

// One RKMK4 run in precision p from x0 (converted exactly), recording every step; checkpoint_every = 0 keeps no
// checkpoints.
RunRecord run_in_precision(Precision p, const DipoleParameters& params, const ParticlesState& x0, double h,
                           std::int64_t steps, std::int64_t checkpoint_every = 0);

struct RunSummary {
  double max_abs_err = 0, t_max_abs_err = 0;        // max_n |e_n| and its time
  double largest_jump = 0, t_largest_jump = 0;      // max_n |e_n - e_{n-1}| and the time of step n
  double closest_approach = 0, t_closest = 0;       // min_n of the closest pair distance
  double final_err = 0;
};
// Over the steps with t_n <= t_end (default: all).
RunSummary summarise(const RunRecord& r, double t_end = std::numeric_limits<double>::infinity());

// The verdict rule (data, not prose). precision_ratio: largest over h of max_S E / min_S E (E = max |dH/H0|
// of a run), >= 1. halving_ratio_min / _max: smallest and largest E(h)/E(h/2) of the first halving over the
// precisions. Time-step error when precisions differ by < 10% and halving h cuts E by > 4x in every precision;
// floating point when precisions differ by > 4x and halving changes E by < 10%; otherwise inconclusive.
//
// Which E: the dynamics is chaotic (a close encounter amplifies any perturbation), so runs that differ only in
// round-off follow the same trajectory for a while and then different ones; beyond that point their energy
// errors belong to different solutions and say nothing about arithmetic. E is therefore the max over the
// common window in which every precision stays within kSameTrajectory (relative state distance) of the most
// precise run at every h; the window must contain the largest spike, else the verdict is inconclusive.
// Whole-run maxima are reported beside it.
enum class SpikeVerdict { time_step, floating_point, inconclusive };
inline constexpr double kSameTrajectory = 1e-6;
SpikeVerdict classify_spikes(double precision_ratio, double halving_ratio_min, double halving_ratio_max);
const char* verdict_text(SpikeVerdict v);
const char* verdict_id(SpikeVerdict v);

struct StudyOptions {
  std::string preset = "kjer2017_n10";
  Json overrides = Json::object();
  std::string ic = "preset";
  double T = 300;
  double h = 0.01;
  int halvings = 2;                                // runs at h, h/2, ..., h/2^halvings
  std::vector<Precision> precisions;               // empty: double, long double and binary128 (when available)
  std::int64_t series_points = 2000;               // per run, in the JSON (the statistics use every step)
  std::int64_t registered_check_steps = 1000;      // steps of the comparison with the registered rkmk4
  std::int64_t checkpoints = 1000;                 // state checkpoints per run (trajectory separation)
  int jobs = 0;                                    // runs in parallel; 0: all cores
};

// Throws InputError on bad options (T or h not positive, T not a whole number of steps, halvings out of
// [0, 6], an unknown preset or precision). Runs every (precision, h), returns the results document.
Json run_precision_study(const StudyOptions& o, const std::vector<std::string>& command_line);

// The markdown report of a results document: table, trajectory differences, verdict.
std::string precision_study_markdown(const Json& doc);

// The dipolar-spheres model of a problem; throws InputError for any other problem (no other has an any-precision
// kernel).
const dipolar_spheres::DipolarSpheresModel& dipole_model(const Problem& problem);

}  // namespace gib::precision
