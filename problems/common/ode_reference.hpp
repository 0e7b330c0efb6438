// The engine of the numerical references of Newtonian problems and general vector fields: a first-order system
// y' = f(y) on R^n, integrated twice with Boost.Odeint's Runge-Kutta-Fehlberg 7(8) stepper under a standard
// step-size controller (a step is accepted when |err_i| <= tol (1 + |y_i|), the next step is 0.9 err^(-1/8) times
// this one, within [0.2, 5]):
//   primary  tolerance 1e-13; state(t) is this one;
//   check    10 times looser, integrated only when error_estimate is asked for.
// error_estimate(t) is the largest distance between the two (in the problem's own state and metric), at the
// checkpoints k * interval <= t and at t, plus a round-off floor 1e-15 (1 + |y|): the looser run's own error
// dominates the difference, so it overestimates the primary's error (by ~10x when the error scales with the
// tolerance), and it grows with t as the error does, including exponentially on chaotic orbits.
//
// Determinism and cost: each integration follows one step sequence fixed by the initial state and the controller
// alone (no step is cut short to land on a requested time). state(t) finishes from the last accepted step at or
// before t with a separate short controlled integration, so it depends on t alone, whatever was asked before or by
// which thread. Increasing times continue from where the last request stopped; an earlier time restarts from the
// last checkpoint of the sequence at or before it. Building a reference integrates nothing.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <vector>

namespace gib {

using FlatState = std::vector<double>;
// dy = f(y); called under the owner's lock only, so it may keep scratch space.
using FirstOrderRhs = std::function<void(const FlatState& y, FlatState& dy)>;

struct OdeReferenceSettings {
  double checkpoint_interval = 10.0;  // > 0, in the problem's time unit
  double tolerance = 1e-13;           // primary: |err_i| <= tolerance (1 + |y_i|) per step
  double check_factor = 10.0;         // the check integration runs at tolerance * check_factor (> 1)
};

// The two integrations and the error estimate, on the flat state. Not thread-safe: OdeReference locks.
class OdeTrackPair {
 public:
  // `who` prefixes error messages ("newtonian reference"). Throws std::invalid_argument on bad settings.
  OdeTrackPair(FirstOrderRhs f, FlatState y0, OdeReferenceSettings settings, std::string who);
  ~OdeTrackPair();
  OdeTrackPair(const OdeTrackPair&) = delete;
  OdeTrackPair& operator=(const OdeTrackPair&) = delete;

  // y(t) of the primary (check) integration; t >= 0 and finite (std::domain_error otherwise), std::runtime_error
  // when the step-size control fails (a solution that blows up).
  FlatState primary(double t);
  FlatState check(double t);
  const OdeReferenceSettings& settings() const;
  const std::string& who() const;
  std::int64_t attempts() const;  // step attempts of both integrations, the finishing ones included

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// state(t), memoised, and error_estimate(t) in the problem's state type: `output` maps the flat state to it,
// `distance` and `size` are the metric the estimate is in. Every member may be called concurrently.
template <class State> class OdeReference {
 public:
  struct Output {
    std::function<State(const FlatState&)> state;
    std::function<double(const State&, const State&)> distance;
    std::function<double(const State&)> size;
    State initial;  // reported as state(0), bit for bit
  };

  OdeReference(FirstOrderRhs f, FlatState y0, OdeReferenceSettings settings, std::string who, Output out)
      : tracks_(std::move(f), std::move(y0), settings, std::move(who)), out_(std::move(out)) {}

  State state(double t) {
    std::lock_guard<std::mutex> lock(mutex_);
    return state_locked(t);
  }

  double error_estimate(double t) {
    std::lock_guard<std::mutex> lock(mutex_);
    check_time(t);
    const auto k = static_cast<std::size_t>(std::floor(t / tracks_.settings().checkpoint_interval));
    if (k >= kMaxCheckpoints) throw std::domain_error(tracks_.who() + ": t is too far");
    while (checkpoint_differences_.size() <= k) {
      const double s = static_cast<double>(checkpoint_differences_.size()) * tracks_.settings().checkpoint_interval;
      const double previous = checkpoint_differences_.empty() ? 0.0 : checkpoint_differences_.back();
      checkpoint_differences_.push_back(std::max(previous, difference(s)));
    }
    const double at_t = difference(t);
    return std::max(checkpoint_differences_[k], at_t) + kErrorFloor * (1 + out_.size(state_locked(t)));
  }

  std::int64_t step_attempts() {
    std::lock_guard<std::mutex> lock(mutex_);
    return tracks_.attempts();
  }

 private:
  static constexpr double kErrorFloor = 1e-15;
  static constexpr std::size_t kMaxMemo = 20000;
  static constexpr std::size_t kMaxCheckpoints = 10'000'000;

  void check_time(double t) const {
    if (!(t >= 0) || !std::isfinite(t)) throw std::domain_error(tracks_.who() + ": t must be finite and >= 0");
  }

  const State& state_locked(double t) {
    check_time(t);
    if (auto it = memo_.find(t); it != memo_.end()) return it->second;
    if (memo_.size() >= kMaxMemo) memo_.clear();
    return memo_.emplace(t, t == 0 ? out_.initial : out_.state(tracks_.primary(t))).first->second;
  }

  double difference(double t) { return t == 0 ? 0.0 : out_.distance(state_locked(t), out_.state(tracks_.check(t))); }

  OdeTrackPair tracks_;
  Output out_;
  std::map<double, State> memo_;
  std::vector<double> checkpoint_differences_;  // [k]: the largest difference at j * interval, j <= k
  std::mutex mutex_;
};

// One object per distinct key in the process, built by `build` on first use; bounded (64 entries), so a long study
// does not keep every reference alive. One memo per Ref type.
template <class Ref>
std::shared_ptr<const Ref> shared_reference(const std::string& key,
                                            const std::function<std::shared_ptr<const Ref>()>& build) {
  static std::mutex mutex;
  static std::map<std::string, std::shared_ptr<const Ref>> memo;
  std::lock_guard<std::mutex> lock(mutex);
  if (auto it = memo.find(key); it != memo.end()) return it->second;
  if (memo.size() >= 64) memo.clear();
  return memo.emplace(key, build()).first->second;
}

}  // namespace gib
