#include "harness/timing.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <functional>
#include <memory>

#include "core/problem.hpp"
#include "core/run_scope.hpp"
#include "harness/json_util.hpp"
#include "harness/model_kinds.hpp"
#include "harness/statistics.hpp"

namespace gib {
namespace {

using Clock = std::chrono::steady_clock;

// Kinds whose traits can build a stepper on a clocked model (the Newtonian traits' clocked_stepper) get the split of
// a run into time inside the model and the rest; the others report no split.
template <class Kind>
concept HasModelSplit = requires(const MethodInfo& m, const typename Kind::ProblemType& p, const Json& params,
                                 ModelClock& clock) { Kind::clocked_stepper(m, p, params, clock); };

// One clocked sample: seconds per run, seconds per run inside the model, model calls per run.
struct SplitSample {
  double run_s = 0, model_s = 0, calls = 0;
};

// Everything a timed run needs, built once outside the timed region.
class TimedCell {
 public:
  explicit TimedCell(const PreparedCell& p) : cell_(p.cell) {
    visit_kind(*p.problem, [&](auto kind, const auto& typed) {
      using Kind = typename decltype(kind)::type;
      run_once_ = bind_run<Kind>(p, typed);
      if constexpr (HasModelSplit<Kind>) run_clocked_ = bind_clocked_run<Kind>(p, typed);
    });
  }

  // Seconds per run, averaged over `inner` runs.
  double sample(int inner) {
    const auto t0 = Clock::now();
    for (int i = 0; i < inner; ++i) sink_ += run_once_();
    return std::chrono::duration<double>(Clock::now() - t0).count() / inner;
  }

  // The same runs on the clocked model, in repetitions of their own: a clock reading costs tens of nanoseconds,
  // more than a cheap model's gradient, so it must not touch the samples median_s is taken from.
  bool has_split() const { return static_cast<bool>(run_clocked_); }
  SplitSample sample_split(int inner) {
    ModelClock clock;
    const auto t0 = Clock::now();
    for (int i = 0; i < inner; ++i) sink_ += run_clocked_(clock);
    const double run_s = std::chrono::duration<double>(Clock::now() - t0).count();
    return {run_s / inner, clock.seconds() / inner, static_cast<double>(clock.calls) / inner};
  }

  void calibrate(double min_sample_seconds) {
    const double first = sample(1);  // also warms caches and the allocator
    inner_ = static_cast<int>(std::clamp(std::ceil(min_sample_seconds / std::max(first, 1e-9)), 1.0, 1000.0));
  }

  int inner() const { return inner_; }
  std::int64_t steps() const { return cell_.steps; }
  double sink() const { return sink_; }

 private:
  // One run from the initial state, stepper built inside (its set-up is part of the cost); returns a
  // number that depends on the final state so the loop cannot be optimised away. advance() lets a method step in
  // its own state and convert once, as a user of it would; it is bit for bit the accuracy pass's steps.
  template <class Kind> static std::function<double()> bind_run(const PreparedCell& c, const typename Kind::ProblemType& p) {
    return [&c, &p] {
      auto stepper = Kind::stepper(*c.method, p, c.params);
      return run_from_initial_state<Kind>(*stepper, c, p);
    };
  }
  template <class Kind>
  static std::function<double(ModelClock&)> bind_clocked_run(const PreparedCell& c, const typename Kind::ProblemType& p) {
    return [&c, &p](ModelClock& clock) {
      auto clocked = Kind::clocked_stepper(*c.method, p, c.params, clock);
      return run_from_initial_state<Kind>(*clocked.stepper, c, p);
    };
  }
  template <class Kind>
  static double run_from_initial_state(Stepper<typename Kind::State>& stepper, const PreparedCell& c,
                                       const typename Kind::ProblemType& p) {
    const RunScope run_scope;
    stepper.reset();
    typename Kind::State x = p.initial_state();
    OpCounters counters;
    stepper.advance(x, c.cell.h, c.cell.steps, counters);
    return Kind::manifold_residual(p, x) + Kind::energy(p, x);
  }

  const Cell& cell_;
  std::function<double()> run_once_;
  std::function<double(ModelClock&)> run_clocked_;  // empty when the kind has no split
  int inner_ = 1;
  double sink_ = 0;
};

Json summarise(const std::vector<double>& samples, int inner, std::int64_t steps) {
  const double med = stats::median(samples);
  return {{"reps", samples.size()},
          {"inner_runs", inner},
          {"median_s", json_number(med)},
          {"min_s", json_number(*std::min_element(samples.begin(), samples.end()))},
          {"max_s", json_number(*std::max_element(samples.begin(), samples.end()))},
          {"iqr_s", json_number(stats::quantile(samples, 0.75) - stats::quantile(samples, 0.25))},
          {"ns_per_step", json_number(med / static_cast<double>(steps) * 1e9)},
          {"mode", "serial, interleaved"}};
}

// The split's fields (results/SCHEMA.md "Timing"): medians over the clocked repetitions.
void add_split(const std::vector<SplitSample>& samples, std::int64_t steps, Json& timing) {
  std::vector<double> run, model, fraction, calls;
  for (const SplitSample& s : samples) {
    run.push_back(s.run_s);
    model.push_back(s.model_s);
    fraction.push_back(s.run_s > 0 ? s.model_s / s.run_s : 0.0);
    calls.push_back(s.calls);
  }
  timing["model_s"] = json_number(stats::median(model));
  timing["model_fraction"] = json_number(stats::median(fraction));
  timing["model_calls_per_step"] = json_number(stats::median(calls) / static_cast<double>(steps));
  timing["clocked_median_s"] = json_number(stats::median(run));
}

}  // namespace

std::vector<Json> time_prepared_interleaved(const std::vector<const PreparedCell*>& cells) {
  if (cells.empty()) return {};
  const TimingOptions opt = cells.front()->cell.timing;
  std::vector<std::unique_ptr<TimedCell>> timed;
  for (const PreparedCell* c : cells) {
    timed.push_back(std::make_unique<TimedCell>(*c));
    timed.back()->calibrate(opt.min_sample_seconds);
  }
  // A cell's clocked sample, where it has one, right after its plain one: drift between them would otherwise show
  // as the clock's cost in clocked_median_s (measured: clocked runs 25 % faster than plain ones taken in a block
  // before them, on a 2-core machine whose load fell meanwhile).
  std::vector<std::vector<double>> samples(cells.size());
  std::vector<std::vector<SplitSample>> splits(cells.size());
  for (int r = 0; r < opt.reps; ++r)
    for (std::size_t i = 0; i < timed.size(); ++i) {
      samples[i].push_back(timed[i]->sample(timed[i]->inner()));
      if (timed[i]->has_split()) splits[i].push_back(timed[i]->sample_split(timed[i]->inner()));
    }
  std::vector<Json> out;
  double sink = 0;
  for (std::size_t i = 0; i < timed.size(); ++i) {
    out.push_back(summarise(samples[i], timed[i]->inner(), timed[i]->steps()));
    if (!splits[i].empty()) add_split(splits[i], timed[i]->steps(), out.back());
    sink += timed[i]->sink();
  }
  volatile double keep = sink;
  (void)keep;
  return out;
}

std::vector<Json> time_cells_interleaved(const std::vector<Cell>& cells, const MethodCatalog& methods) {
  std::vector<PreparedCell> prepared;
  prepared.reserve(cells.size());
  for (const Cell& c : cells) prepared.push_back(prepare_cell(c, methods));
  std::vector<const PreparedCell*> ptrs;
  for (const PreparedCell& p : prepared) ptrs.push_back(&p);
  return time_prepared_interleaved(ptrs);
}

}  // namespace gib
