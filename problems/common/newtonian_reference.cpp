#include "problems/common/newtonian_reference.hpp"

#include <Eigen/Cholesky>
#include <algorithm>
#include <boost/numeric/odeint/stepper/runge_kutta_fehlberg78.hpp>
#include <cmath>
#include <limits>
#include <map>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <vector>

#include "problems/common/rkf78_controlled.hpp"

namespace gib {
namespace {

using Flat = std::vector<double>;

constexpr double kErrorFloor = 1e-15;
constexpr double kFirstStepFraction = 1.0 / 1024;  // of the checkpoint interval; the controller adapts it at once
constexpr std::size_t kMaxMemo = 20000;
constexpr std::size_t kMaxCheckpoints = 10'000'000;

// (q, v) -> (v, a(q, v)) on the flat state odeint steps. The scratch vectors are used under the reference's
// mutex only.
class FirstOrderSystem {
 public:
  explicit FirstOrderSystem(const SecondOrderOde& ode) : ode_(ode), n_(static_cast<int>(ode.q0.size())) {}

  void operator()(const Flat& y, Flat& dy, double /*t*/) const {
    q_ = Eigen::Map<const Eigen::VectorXd>(y.data(), n_);
    v_ = Eigen::Map<const Eigen::VectorXd>(y.data() + n_, n_);
    ode_.acceleration(q_, v_, a_);
    std::copy(y.begin() + n_, y.end(), dy.begin());
    std::copy(a_.data(), a_.data() + n_, dy.begin() + n_);
  }

 private:
  const SecondOrderOde& ode_;
  int n_;
  mutable Eigen::VectorXd q_, v_, a_;
};

// A point of a step sequence: time, state and the controller's next trial step from here.
struct Node {
  double t = 0;
  Flat y;
  double dt = 0;
};

// One controlled integration: its step sequence depends on the initial node and the tolerance alone.
class Track {
 public:
  Track(Flat y0, double tolerance, double interval)
      : tolerance_(tolerance), interval_(interval), cursor_{0.0, std::move(y0), interval * kFirstStepFraction} {
    checkpoints_.push_back(cursor_);
  }

  Flat at(const FirstOrderSystem& system, double t);
  std::int64_t attempts() const { return attempts_; }

 private:
  Node next_of(const FirstOrderSystem& system, const Node& from);
  const Node& advance_cursor(const FirstOrderSystem& system, double t);

  double tolerance_, interval_;
  boost::numeric::odeint::runge_kutta_fehlberg78<Flat> stepper_;
  std::vector<Node> checkpoints_;  // [k]: the last node of the sequence at or before k * interval
  Node cursor_;                    // the furthest node reached so far
  std::optional<Node> ahead_;      // the node after cursor_, once computed
  std::int64_t attempts_ = 0;
};

// The next accepted node after `from`: trial steps from from.dt, shrinking until one is accepted.
Node Track::next_of(const FirstOrderSystem& system, const Node& from) {
  Flat out(from.y.size()), err(from.y.size());
  const auto f = [&system](const Flat& y, Flat& dy, double t) { system(y, dy, t); };  // odeint copies it
  double h = from.dt;
  for (;;) {
    stepper_.do_step(f, from.y, from.t, out, h, err);
    ++attempts_;
    double e = 0;
    for (std::size_t i = 0; i < out.size(); ++i) e = std::max(e, std::abs(err[i]) / (tolerance_ * (1 + std::abs(out[i]))));
    if (!std::isfinite(e) || h < std::numeric_limits<double>::epsilon() * std::max(1.0, std::abs(from.t)))
      throw std::runtime_error("newtonian reference: step-size control failed at t = " + std::to_string(from.t));
    const double next = h * std::clamp(0.9 * std::pow(std::max(e, 1e-30), -1.0 / 8), 0.2, 5.0);
    if (e <= 1) return {from.t + h, out, next};
    h = next;
  }
}

// Moves the cursor to the last node at or before t, recording checkpoints on the way.
const Node& Track::advance_cursor(const FirstOrderSystem& system, double t) {
  for (;;) {
    if (!ahead_) ahead_ = next_of(system, cursor_);
    while (static_cast<double>(checkpoints_.size()) * interval_ < ahead_->t) {
      if (checkpoints_.size() >= kMaxCheckpoints) throw std::domain_error("newtonian reference: t is too far");
      checkpoints_.push_back(cursor_);
    }
    if (ahead_->t > t) return cursor_;
    cursor_ = std::move(*ahead_);
    ahead_.reset();
  }
}

Flat Track::at(const FirstOrderSystem& system, double t) {
  Node base;
  if (t >= cursor_.t) {
    base = advance_cursor(system, t);
  } else {
    auto k = std::min(static_cast<std::size_t>(std::floor(t / interval_)), checkpoints_.size() - 1);
    while (k > 0 && checkpoints_[k].t > t) --k;
    base = checkpoints_[k];
    for (Node next = next_of(system, base); next.t <= t; next = next_of(system, base)) base = std::move(next);
  }
  // A separate short control from the sequence's node to t, so the sequence itself is never cut short.
  const auto f = [&system](const Flat& y, Flat& dy, double s) { system(y, dy, s); };
  rkf78_controlled(f, base.y, base.t, t, t - base.t, tolerance_, "newtonian reference");
  return base.y;
}

Flat pack(const Eigen::VectorXd& q, const Eigen::VectorXd& v) {
  Flat y(static_cast<std::size_t>(q.size() + v.size()));
  std::copy(q.data(), q.data() + q.size(), y.begin());
  std::copy(v.data(), v.data() + v.size(), y.begin() + q.size());
  return y;
}

double distance(const NewtonianState& a, const NewtonianState& b) {
  return std::sqrt((a.q - b.q).squaredNorm() + (a.v - b.v).squaredNorm());
}

double size_of(const NewtonianState& x) { return std::sqrt(x.q.squaredNorm() + x.v.squaredNorm()); }

}  // namespace

struct NewtonianNumericalReference::Impl {
  Impl(SecondOrderOde o, NewtonianReferenceSettings s)
      : ode(std::move(o)),
        settings(s),
        system(ode),
        primary(pack(ode.q0, ode.v0), s.tolerance, s.checkpoint_interval),
        check(pack(ode.q0, ode.v0), s.tolerance * s.check_factor, s.checkpoint_interval),
        initial(ode.initial.q.size() > 0 ? ode.initial : output(pack(ode.q0, ode.v0))) {}

  SecondOrderOde ode;
  NewtonianReferenceSettings settings;
  FirstOrderSystem system;
  Track primary, check;
  NewtonianState initial;
  std::map<double, NewtonianState> memo;
  std::vector<double> checkpoint_differences;  // [k]: the largest difference at j * interval, j <= k
  std::mutex mutex;

  NewtonianState output(const Flat& y) const {
    const auto n = ode.q0.size();
    const Eigen::VectorXd q = Eigen::Map<const Eigen::VectorXd>(y.data(), n);
    const Eigen::VectorXd v = Eigen::Map<const Eigen::VectorXd>(y.data() + n, n);
    return ode.output ? ode.output(q, v) : NewtonianState{q, v};
  }

  static void check_time(double t) {
    if (!(t >= 0) || !std::isfinite(t)) throw std::domain_error("newtonian reference: t must be finite and >= 0");
  }

  NewtonianState primary_at(double t) { return t == 0 ? initial : output(primary.at(system, t)); }

  const NewtonianState& state(double t) {
    check_time(t);
    if (auto it = memo.find(t); it != memo.end()) return it->second;
    if (memo.size() >= kMaxMemo) memo.clear();
    return memo.emplace(t, primary_at(t)).first->second;
  }

  double difference(double t) { return t == 0 ? 0.0 : distance(state(t), output(check.at(system, t))); }

  double error_estimate(double t) {
    check_time(t);
    const auto k = static_cast<std::size_t>(std::floor(t / settings.checkpoint_interval));
    if (k >= kMaxCheckpoints) throw std::domain_error("newtonian reference: t is too far");
    while (checkpoint_differences.size() <= k) {
      const double s = static_cast<double>(checkpoint_differences.size()) * settings.checkpoint_interval;
      const double previous = checkpoint_differences.empty() ? 0.0 : checkpoint_differences.back();
      checkpoint_differences.push_back(std::max(previous, difference(s)));
    }
    const double at_t = difference(t);
    return std::max(checkpoint_differences[k], at_t) + kErrorFloor * (1 + size_of(state(t)));
  }
};

NewtonianNumericalReference::NewtonianNumericalReference(SecondOrderOde ode, NewtonianReferenceSettings settings) {
  const auto n = ode.q0.size();
  if (n == 0 || ode.v0.size() != n || !ode.acceleration)
    throw std::invalid_argument("newtonian reference: q0 and v0 must have one size and an acceleration is needed");
  if (!(settings.checkpoint_interval > 0) || !std::isfinite(settings.checkpoint_interval) ||
      !(settings.tolerance > 0) || !(settings.check_factor > 1))
    throw std::invalid_argument("newtonian reference: bad settings");
  impl_ = std::make_unique<Impl>(std::move(ode), settings);
}

NewtonianNumericalReference::~NewtonianNumericalReference() = default;

NewtonianState NewtonianNumericalReference::state(double t) const {
  std::lock_guard<std::mutex> lock(impl_->mutex);
  return impl_->state(t);
}

double NewtonianNumericalReference::error_estimate(double t) const {
  std::lock_guard<std::mutex> lock(impl_->mutex);
  return impl_->error_estimate(t);
}

std::int64_t NewtonianNumericalReference::step_attempts() const {
  std::lock_guard<std::mutex> lock(impl_->mutex);
  return impl_->primary.attempts() + impl_->check.attempts();
}

SecondOrderOde newtonian_ode(std::shared_ptr<const NewtonianModel> model, const NewtonianState& x0) {
  if (model == nullptr || x0.q.size() != model->dim() || x0.v.size() != model->dim())
    throw std::invalid_argument("newtonian_ode: model and initial state disagree on the dimension");
  SecondOrderOde ode;
  ode.q0 = x0.q;
  ode.v0 = x0.v;
  ode.initial = x0;
  if (model->diagonal_mass()) {
    const Eigen::VectorXd inverse_mass = model->mass_matrix().diagonal().cwiseInverse();
    ode.acceleration = [model, inverse_mass](const Eigen::VectorXd& q, const Eigen::VectorXd&, Eigen::VectorXd& a) {
      model->gradient(q, a);
      a = -a.cwiseProduct(inverse_mass);
    };
  } else {
    const Eigen::LLT<Eigen::MatrixXd> mass(model->mass_matrix());
    ode.acceleration = [model, mass](const Eigen::VectorXd& q, const Eigen::VectorXd&, Eigen::VectorXd& a) {
      Eigen::VectorXd g;
      model->gradient(q, g);
      a = -mass.solve(g);
    };
  }
  return ode;
}

std::shared_ptr<const NewtonianReference> shared_newtonian_reference(
    const std::string& key, const std::function<std::shared_ptr<const NewtonianReference>()>& build) {
  static std::mutex mutex;
  static std::map<std::string, std::shared_ptr<const NewtonianReference>> memo;
  std::lock_guard<std::mutex> lock(mutex);
  if (auto it = memo.find(key); it != memo.end()) return it->second;
  if (memo.size() >= 64) memo.clear();  // bounded: a long study does not keep every reference alive
  return memo.emplace(key, build()).first->second;
}

}  // namespace gib
