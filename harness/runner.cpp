#include "harness/runner.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <map>

#include "core/errors.hpp"
#include "core/metrics.hpp"
#include "core/run_scope.hpp"
#include "harness/json_util.hpp"
#include "harness/model_kinds.hpp"
#include "harness/statistics.hpp"
#include "harness/timing.hpp"

namespace gib {

namespace {

// Tracks one invariant's error along the run: max |err|, final signed value, per-block maxima.
template <class Inv> class InvariantTracker {
 public:
  InvariantTracker(const Inv& inv, const auto& x0, int blocks)
      : inv_(inv), v0_(inv.value(x0)), block_max_(static_cast<std::size_t>(blocks), 0.0),
        signed_(static_cast<std::size_t>(blocks)) {
    const double n = v0_.norm();
    scale_ = inv.kind == InvariantErrorKind::relative ? (n > 0 ? n : 1.0) : 1.0;
    roundoff_scale_ = std::max({n, inv.scale, 1e-300});
  }

  template <class S> double error(const S& x) const {
    const InvariantValue v = inv_.value(x);
    if (inv_.kind == InvariantErrorKind::vector_norm) return (v - v0_).norm();
    return (v(0) - v0_(0)) / scale_;
  }

  template <class S> void observe(const S& x, std::size_t block) {
    ++observed_;
    last_ = error(x);
    const double a = std::abs(last_);
    max_ = std::max(max_, a);
    block_max_[block] = std::max(block_max_[block], a);
    signed_[block].add(last_);
  }

  // finished: the run reached its last step. A run that stopped early reports what it saw up to its last
  // state, null when it saw none, and no class (a failed run is not round-off, bounded or drifting).
  void write(Json& m, double T, bool block_stats, bool finished) const;
  const Inv& invariant() const { return inv_; }
  // |I(x) - I0| of the last observed state, in the invariant's own units (scalar invariants).
  double last_change() const { return std::abs(last_ * scale_); }
  const std::string& metric() const { return inv_.metric; }
  double absolute_scale() const { return inv_.kind == InvariantErrorKind::relative ? 1.0 : roundoff_scale_; }
  double last() const { return last_; }
  // Relative invariants also report the absolute error (Kjer plots H(m_k) - H(m_1)); "" otherwise.
  std::string absolute_metric() const {
    if (inv_.kind != InvariantErrorKind::relative) return "";
    return metrics::absolute_name(inv_.metric);
  }
  double last_absolute() const { return last_ * scale_; }

 private:
  const Inv& inv_;
  InvariantValue v0_;
  double scale_ = 1;
  double roundoff_scale_ = 1;
  double max_ = 0, last_ = 0;
  std::int64_t observed_ = 0;
  std::vector<double> block_max_;
  // Signed error per block, every step: min, max and the sums for mean and standard deviation.
  struct BlockStats {
    double min = INFINITY, max = -INFINITY, sum = 0, sumsq = 0;
    std::int64_t n = 0;
    void add(double e) {
      min = std::min(min, e);
      max = std::max(max, e);
      sum += e;
      sumsq += e * e;
      ++n;
    }
  };
  std::vector<BlockStats> signed_;
  Json block_stats_json() const;
};

template <class Inv> Json InvariantTracker<Inv>::block_stats_json() const {
  Json out = {{"min", Json::array()}, {"max", Json::array()}, {"mean", Json::array()}, {"std", Json::array()}};
  for (const auto& b : signed_) {
    const double n = static_cast<double>(std::max<std::int64_t>(b.n, 1));
    const double mean = b.sum / n;
    out["min"].push_back(json_number(b.min));
    out["max"].push_back(json_number(b.max));
    out["mean"].push_back(json_number(mean));
    out["std"].push_back(json_number(std::sqrt(std::max(b.sumsq / n - mean * mean, 0.0))));
  }
  return out;
}

template <class Inv> void InvariantTracker<Inv>::write(Json& m, double T, bool block_stats, bool finished) const {
  const auto seen = [this](double v) { return observed_ > 0 ? json_number(v) : Json(nullptr); };
  m[inv_.metric + metrics::kMax] = seen(max_);
  if (block_stats) m[inv_.metric + metrics::kBlocks] = block_stats_json();
  m[inv_.metric + metrics::kFinal] = seen(last_);
  if (const std::string abs = absolute_metric(); !abs.empty()) {
    m[abs + metrics::kMax] = seen(max_ * scale_);
    m[abs + metrics::kFinal] = seen(last_ * scale_);
  }
  if (!finished) {
    m[inv_.metric + metrics::kDriftSlope] = nullptr;
    m[inv_.metric + metrics::kDriftSlopeCi95] = nullptr;
    m[inv_.metric + metrics::kClass] = nullptr;
    return;
  }
  // Drift: slope of per-block maxima against block end time.
  std::vector<double> t, y;
  const auto nb = block_max_.size();
  for (std::size_t b = 0; b < nb; ++b) {
    t.push_back(T * static_cast<double>(b + 1) / static_cast<double>(nb));
    y.push_back(block_max_[b]);
  }
  const stats::LineFit f = stats::fit_line(t, y);
  m[inv_.metric + metrics::kDriftSlope] = f.ok ? json_number(f.slope) : Json(nullptr);
  m[inv_.metric + metrics::kDriftSlopeCi95] =
      f.ok ? Json::array({json_number(f.slope_ci_lo), json_number(f.slope_ci_hi)}) : Json(nullptr);
  std::string cls = "bounded";
  if (max_ <= 1e-12 * absolute_scale()) {
    cls = "roundoff";
  } else if (f.ok && f.slope_ci_lo > 0 && f.slope * (t.back() - t.front()) >= std::max(y.front(), 1e-300)) {
    cls = "drift";
  }
  m[inv_.metric + metrics::kClass] = cls;
}

// Checks the clock every 16 steps only: a step can be a few nanoseconds.
class WallBudget {
 public:
  explicit WallBudget(double seconds) : seconds_(seconds), t0_(clock::now()) {}
  bool exhausted() {
    if (seconds_ <= 0 || (++calls_ & 15U) != 0) return false;
    return std::chrono::duration<double>(clock::now() - t0_).count() > seconds_;
  }

 private:
  using clock = std::chrono::steady_clock;
  double seconds_;
  clock::time_point t0_;
  unsigned calls_ = 0;
};

struct RunStatus {
  std::string status = "ok";
  std::int64_t step = -1;
  std::string detail;
};

// The accuracy pass for one cell of any model kind (harness/model_kinds.hpp).
template <class Kind> class KindRun {
  using ProblemType = typename Kind::ProblemType;
  using State = typename Kind::State;

 public:
  KindRun(const Cell& cell, const ProblemType& problem, const MethodInfo& method, const Json& params)
      : cell_(cell), problem_(problem), method_(method), params_(params), kind_observer_(problem, cell.observe),
        energy_limit_(cell.observe.divergence_energy * Kind::energy_scale(problem)) {}

  CellOutcome run();

 private:
  void observe_reference(const State& x, double t, bool final_step);
  void record_series(const State& x, double t);
  bool check_health(const State& x, std::int64_t n);
  void write_metrics(Json& m, const State& x) const;
  const typename Kind::ReferenceType* reference() const {
    return cell_.observe.reference ? Kind::reference(problem_, method_) : nullptr;
  }
  void observe_quantities(const State& x, double t);
  void record_quantities(const State& x);

  const Cell& cell_;
  const ProblemType& problem_;
  const MethodInfo& method_;
  const Json& params_;
  RunStatus status_;
  std::vector<InvariantTracker<typename Kind::InvariantType>> trackers_;
  double residual_max_ = 0, residual_last_ = 0;
  double rotation_max_ = 0, rotation_sum_ = 0;  // angle of R_{n-1}^T R_n (Krysl: "well over 30 deg per step")
  typename Kind::Observer kind_observer_;
  double energy_limit_;  // |E - E0| beyond which a run has diverged
  typename Kind::Errors max_err_{};
  typename Kind::Errors final_err_{};
  bool have_final_err_ = false;
  double last_state_err_ = NAN;
  typename Kind::Errors last_err_{};
  Json series_;
  std::unique_ptr<Stepper<State>> stepper_;
  // Named scalars a paper plots (Newtonian observables, a method's multipliers): min, max, last.
  struct Quantity {
    double min = INFINITY, max = -INFINITY, last = NAN;
  };
  std::map<std::string, Quantity> quantities_;
  std::vector<std::pair<std::string, double>> scratch_;
};

template <class Kind> void KindRun<Kind>::observe_quantities(const State& x, double t) {
  const bool in_window = t >= cell_.observe.quantities_after;
  const auto add = [this, in_window](const std::string& name, double v) {
    Quantity& q = quantities_[name];
    if (in_window) {
      q.min = std::min(q.min, v);
      q.max = std::max(q.max, v);
    }
    q.last = v;
  };
  kind_observer_.observables(x, add);
  kind_observer_.step_sample(x, in_window);
  if (stepper_ != nullptr) {
    stepper_->method_observables(scratch_);
    for (const auto& [name, v] : scratch_) add(name, v);
  }
}

template <class Kind> void KindRun<Kind>::record_quantities(const State& /*x*/) {
  // A quantity that first appears after some samples (a method's multipliers exist only after its first step) is
  // padded with leading nulls, so every series stays aligned with t.
  const std::size_t n = series_["t"].size();
  for (const auto& [name, q] : quantities_) {
    Json& s = series_[name];
    while (s.size() + 1 < n) s.push_back(nullptr);
    s.push_back(json_number(q.last));
  }
}

// Called after the trackers saw x, so a diverged row reports the invariant errors that condemned it.
template <class Kind> bool KindRun<Kind>::check_health(const State& x, std::int64_t n) {
  for (const auto& tr : trackers_) {
    if (tr.invariant().id != Invariant::energy) continue;
    const double change = tr.last_change(), limit = energy_limit_;
    if (!(change <= limit)) {
      status_ = {"diverged", n,
                 "|E - E0| = " + json_number(change).dump() + " passed " + json_number(cell_.observe.divergence_energy).dump() +
                     " times the energy scale " + json_number(Kind::energy_scale(problem_)).dump()};
      return false;
    }
  }
  if (std::string why = Kind::divergence(x, problem_, cell_.observe.divergence_factor); !why.empty()) {
    status_ = {"diverged", n, why};
    return false;
  }
  return true;
}

template <class Kind> void KindRun<Kind>::observe_reference(const State& x, double t, bool final_step) {
  kind_observer_.sample(x);
  const auto* ref = reference();
  if (ref == nullptr) return;
  const typename Kind::Errors e = Kind::errors(problem_, x, ref->state(t));
  // NaN (an error the problem does not define) stays NaN: std::max would keep the 0 it starts from.
  for (std::size_t i = 0; i < Kind::Errors::kSize; ++i)
    max_err_.value[i] = std::isnan(e.value[i]) ? e.value[i] : std::max(max_err_.value[i], e.value[i]);
  last_state_err_ = e.state_err();
  last_err_ = e;
  if (final_step) {
    final_err_ = e;
    have_final_err_ = true;
  }
}

template <class Kind> void KindRun<Kind>::record_series(const State& x, double t) {
  series_["t"].push_back(t);
  for (const auto& tr : trackers_) {
    series_[tr.metric()].push_back(json_number(tr.last()));
    if (const std::string abs = tr.absolute_metric(); !abs.empty()) series_[abs].push_back(json_number(tr.last_absolute()));
  }
  series_[metrics::manifold_residual.name].push_back(json_number(residual_last_));
  if (cell_.observe.series_state_err) series_[metrics::state_err.name].push_back(json_number(last_state_err_));
  record_quantities(x);
  kind_observer_.record_series(x, last_err_, series_);
}

template <class Kind> CellOutcome KindRun<Kind>::run() {
  const RunScope run_scope;  // a model's caches (the cutoff kernel's Verlet list) stay within this run
  const auto invariants = problem_.invariants();
  State x = problem_.initial_state();
  const std::int64_t N = cell_.steps;
  const int blocks = static_cast<int>(std::min<std::int64_t>(cell_.observe.drift_blocks, N));
  for (const auto& inv : invariants) trackers_.emplace_back(inv, x, std::max(blocks, 1));
  const std::int64_t ref_every =
      cell_.observe.ref_samples > 0 ? std::max<std::int64_t>(1, N / cell_.observe.ref_samples) : N;
  const std::int64_t series_every =
      cell_.observe.series_points > 0 ? std::max<std::int64_t>(1, N / cell_.observe.series_points) : 0;
  residual_last_ = Kind::manifold_residual(problem_, x);
  observe_quantities(x, 0.0);
  if (series_every > 0) {
    series_ = Json::object();
    last_state_err_ = 0;
    record_series(x, 0.0);
  }

  stepper_ = Kind::stepper(method_, problem_, params_);
  stepper_->reset();
  OpCounters counters;
  // The turn angle needs the state before the step; assigning to a state of the same shape allocates nothing.
  State before = x;
  WallBudget budget(cell_.time_budget_s);
  // Sampling points and drift blocks are tracked incrementally: the three 64-bit divisions per step they took
  // (n % ref_every, n % series_every, (n - 1) blocks / N) cost tens of cycles each, on steps of a few hundred.
  std::int64_t next_ref = ref_every, next_series = series_every;
  std::int64_t block_num = -blocks;  // (n - 1) * blocks, advanced before use
  std::size_t block = 0;
  const auto blocks_n = static_cast<std::int64_t>(blocks);
  for (std::int64_t n = 1; n <= N; ++n) {
    before = x;
    const StepStatus st = stepper_->step(x, cell_.h, counters);
    ++counters.steps;
    if (st == StepStatus::solver_failed) {
      status_ = {"solver_failed", n, "the nonlinear solver did not converge"};
      break;
    }
    if (budget.exhausted()) {
      status_ = {"time_budget", n, "wall-time budget of " + Json(cell_.time_budget_s).dump() + " s used up"};
      break;
    }
    if (!Kind::finite(x)) {
      status_ = {"nonfinite", n, "state has NaN or Inf entries"};
      break;
    }
    const double t = cell_.h * static_cast<double>(n);
    block_num += blocks_n;  // block = floor(block_num / N), moving by at most one since blocks <= N
    if (block_num >= static_cast<std::int64_t>(block + 1) * N) ++block;
    for (auto& tr : trackers_) tr.observe(x, block);
    residual_last_ = Kind::manifold_residual(problem_, x);
    residual_max_ = std::max(residual_max_, residual_last_);
    observe_quantities(x, t);
    const double turn = Kind::turn(before, x);
    rotation_max_ = std::max(rotation_max_, turn);
    rotation_sum_ += turn;
    if (!check_health(x, n)) break;
    const bool ref_point = n == next_ref;
    if (ref_point) next_ref += ref_every;
    if (ref_point || n == N) observe_reference(x, t, n == N);
    if (series_every > 0) {
      const bool series_point = n == next_series;
      if (series_point) next_series += series_every;
      if (series_point || n == N) record_series(x, t);
    }
  }

  // The kind's end-of-run work that needs the method (a vector field's structure probes, observe.probes).
  kind_observer_.finish(method_, params_, cell_, status_.status == "ok");
  Json row = cell_identity(cell_, problem_, params_);
  row["status"] = status_.status;
  row["status_step"] = status_.step >= 0 ? Json(status_.step) : Json(nullptr);
  row["status_detail"] = status_.detail;
  Json m = Json::object();
  write_metrics(m, x);
  row["metrics"] = m;
  row["cost"] = counters_json(counters);
  row["final_state"] = Kind::state_json(x);
  kind_observer_.write_row(row);
  const double T = cell_.h * static_cast<double>(N);
  if (const auto* ref = reference())
    row["reference"] = {{"kind", ref->kind()}, {"error_estimate", json_number(ref->error_estimate(T))}};
  else
    row["reference"] = nullptr;
  return {row, series_};
}

template <class Kind> void KindRun<Kind>::write_metrics(Json& m, const State& x) const {
  const bool ok = status_.status == "ok";
  const std::int64_t N = cell_.steps;
  for (std::size_t i = 0; i < Kind::Errors::kSize; ++i) {
    const std::string stem = Kind::kErrorNames[i];
    m[stem + metrics::kFinal] = ok && have_final_err_ ? json_number(final_err_.value[i]) : Json(nullptr);
    m[stem + metrics::kMax] = ok && have_final_err_ ? json_number(max_err_.value[i]) : Json(nullptr);
  }
  const double T = cell_.h * static_cast<double>(N);
  for (const auto& tr : trackers_) tr.write(m, T, cell_.observe.block_stats, ok);
  m[metrics::key(metrics::manifold_residual, metrics::kMax)] = json_number(residual_max_);
  m[metrics::key(metrics::manifold_residual, metrics::kFinal)] = json_number(residual_last_);
  m[metrics::rotation_per_step_max_deg.name] = ok ? json_number(rotation_max_ * 180.0 / M_PI) : Json(nullptr);
  m[metrics::rotation_per_step_mean_deg.name] = ok && N > 0 ? json_number(rotation_sum_ / static_cast<double>(N) * 180.0 / M_PI) : Json(nullptr);
  // The energy itself (papers print it: Buss's Figures 4 and 5 tabulate E after N - 1 steps).
  m[metrics::energy_initial.name] = json_number(Kind::energy(problem_, problem_.initial_state()));
  m[metrics::energy_final.name] = ok ? json_number(Kind::energy(problem_, x)) : Json(nullptr);
  kind_observer_.write_metrics(m);
  for (const auto& [name, q] : quantities_) {
    m[name + metrics::kMin] = json_number(q.min);
    m[name + metrics::kMax] = json_number(q.max);
    m[name + metrics::kFinal] = json_number(q.last);
  }
}

}  // namespace

CellOutcome run_problem(const Cell& cell, const Problem& problem, const MethodInfo& method, const Json& params) {
  return visit_kind(problem, [&](auto kind, const auto& typed) {
    return KindRun<typename decltype(kind)::type>(cell, typed, method, params).run();
  });
}

CellOutcome run_prepared(const PreparedCell& p) { return run_problem(p.cell, *p.problem, *p.method, p.params); }

RigidBodyState integrate_rigid_body(const MethodInfo& method, const RigidBodyModel& model, const Json& params,
                                    RigidBodyState x, double h, std::int64_t steps) {
  const RunScope run_scope;
  auto stepper = method.rigid_body(model, params);
  stepper->reset();
  OpCounters c;
  stepper->advance(x, h, steps, c);
  return x;
}

ParticlesState integrate_particles(const MethodInfo& method, const RigidParticlesModel& model, const Json& params,
                                   ParticlesState x, double h, std::int64_t steps) {
  const RunScope run_scope;
  auto stepper = method.particles(model, params);
  stepper->reset();
  OpCounters c;
  stepper->advance(x, h, steps, c);
  return x;
}

CellOutcome run_cell(const PreparedCell& prepared) {
  CellOutcome out = run_prepared(prepared);
  if (prepared.cell.timing.reps > 0 && out.row["status"] == "ok")
    out.row["timing"] = time_prepared_interleaved({&prepared}).front();
  else
    out.row["timing"] = nullptr;
  return out;
}

CellOutcome run_cell(const Cell& cell, const MethodCatalog& methods) { return run_cell(prepare_cell(cell, methods)); }

}  // namespace gib
