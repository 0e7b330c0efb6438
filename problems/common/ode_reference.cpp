#include "problems/common/ode_reference.hpp"

#include <algorithm>
#include <boost/numeric/odeint/stepper/runge_kutta_fehlberg78.hpp>
#include <cmath>
#include <limits>
#include <optional>
#include <stdexcept>

#include "problems/common/rkf78_controlled.hpp"

namespace gib {
namespace {

constexpr double kFirstStepFraction = 1.0 / 1024;  // of the checkpoint interval; the controller adapts it at once
constexpr std::size_t kMaxCheckpoints = 10'000'000;

// A point of a step sequence: time, state and the controller's next trial step from here.
struct Node {
  double t = 0;
  FlatState y;
  double dt = 0;
};

// One controlled integration: its step sequence depends on the initial node and the tolerance alone.
class Track {
 public:
  Track(FlatState y0, double tolerance, double interval, const std::string& who)
      : tolerance_(tolerance), interval_(interval), who_(who), cursor_{0.0, std::move(y0), interval * kFirstStepFraction} {
    checkpoints_.push_back(cursor_);
  }

  FlatState at(const FirstOrderRhs& f, double t);
  std::int64_t attempts() const { return attempts_; }

 private:
  Node next_of(const FirstOrderRhs& f, const Node& from);
  const Node& advance_cursor(const FirstOrderRhs& f, double t);

  double tolerance_, interval_;
  const std::string& who_;
  boost::numeric::odeint::runge_kutta_fehlberg78<FlatState> stepper_;
  std::vector<Node> checkpoints_;  // [k]: the last node of the sequence at or before k * interval
  Node cursor_;                    // the furthest node reached so far
  std::optional<Node> ahead_;      // the node after cursor_, once computed
  std::int64_t attempts_ = 0;
};

// The next accepted node after `from`: trial steps from from.dt, shrinking until one is accepted.
Node Track::next_of(const FirstOrderRhs& f, const Node& from) {
  FlatState out(from.y.size()), err(from.y.size());
  const auto system = [&f](const FlatState& y, FlatState& dy, double) { f(y, dy); };  // odeint copies it
  double h = from.dt;
  for (;;) {
    stepper_.do_step(system, from.y, from.t, out, h, err);
    ++attempts_;
    double e = 0;
    for (std::size_t i = 0; i < out.size(); ++i) e = std::max(e, std::abs(err[i]) / (tolerance_ * (1 + std::abs(out[i]))));
    if (!std::isfinite(e) || h < std::numeric_limits<double>::epsilon() * std::max(1.0, std::abs(from.t)))
      throw std::runtime_error(who_ + ": step-size control failed at t = " + std::to_string(from.t));
    const double next = h * std::clamp(0.9 * std::pow(std::max(e, 1e-30), -1.0 / 8), 0.2, 5.0);
    if (e <= 1) return {from.t + h, out, next};
    h = next;
  }
}

// Moves the cursor to the last node at or before t, recording checkpoints on the way.
const Node& Track::advance_cursor(const FirstOrderRhs& f, double t) {
  for (;;) {
    if (!ahead_) ahead_ = next_of(f, cursor_);
    while (static_cast<double>(checkpoints_.size()) * interval_ < ahead_->t) {
      if (checkpoints_.size() >= kMaxCheckpoints) throw std::domain_error(who_ + ": t is too far");
      checkpoints_.push_back(cursor_);
    }
    if (ahead_->t > t) return cursor_;
    cursor_ = std::move(*ahead_);
    ahead_.reset();
  }
}

FlatState Track::at(const FirstOrderRhs& f, double t) {
  if (!(t >= 0) || !std::isfinite(t)) throw std::domain_error(who_ + ": t must be finite and >= 0");
  Node base;
  if (t >= cursor_.t) {
    base = advance_cursor(f, t);
  } else {
    auto k = std::min(static_cast<std::size_t>(std::floor(t / interval_)), checkpoints_.size() - 1);
    while (k > 0 && checkpoints_[k].t > t) --k;
    base = checkpoints_[k];
    for (Node next = next_of(f, base); next.t <= t; next = next_of(f, base)) base = std::move(next);
  }
  // A separate short control from the sequence's node to t, so the sequence itself is never cut short.
  const auto system = [&f](const FlatState& y, FlatState& dy, double) { f(y, dy); };
  rkf78_controlled(system, base.y, base.t, t, t - base.t, tolerance_, who_.c_str());
  return base.y;
}

}  // namespace

struct OdeTrackPair::Impl {
  Impl(FirstOrderRhs rhs, FlatState y0, OdeReferenceSettings s, std::string w)
      : f(std::move(rhs)),
        settings(s),
        who(std::move(w)),
        primary(y0, s.tolerance, s.checkpoint_interval, who),
        check(std::move(y0), s.tolerance * s.check_factor, s.checkpoint_interval, who) {}

  FirstOrderRhs f;
  OdeReferenceSettings settings;
  std::string who;
  Track primary, check;
};

OdeTrackPair::OdeTrackPair(FirstOrderRhs f, FlatState y0, OdeReferenceSettings settings, std::string who) {
  if (y0.empty() || !f) throw std::invalid_argument(who + ": an initial state and a right-hand side are needed");
  if (!(settings.checkpoint_interval > 0) || !std::isfinite(settings.checkpoint_interval) ||
      !(settings.tolerance > 0) || !(settings.check_factor > 1))
    throw std::invalid_argument(who + ": bad settings");
  impl_ = std::make_unique<Impl>(std::move(f), std::move(y0), settings, std::move(who));
}

OdeTrackPair::~OdeTrackPair() = default;

FlatState OdeTrackPair::primary(double t) { return impl_->primary.at(impl_->f, t); }
FlatState OdeTrackPair::check(double t) { return impl_->check.at(impl_->f, t); }
const OdeReferenceSettings& OdeTrackPair::settings() const { return impl_->settings; }
const std::string& OdeTrackPair::who() const { return impl_->who; }
std::int64_t OdeTrackPair::attempts() const { return impl_->primary.attempts() + impl_->check.attempts(); }

}  // namespace gib
