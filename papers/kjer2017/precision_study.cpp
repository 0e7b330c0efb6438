#include "papers/kjer2017/precision_study.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <iomanip>
#include <limits>
#include <sstream>
#include <stdexcept>

#include "core/errors.hpp"
#include "core/method.hpp"
#include "core/problem.hpp"
#include "core/user_input.hpp"
#include "harness/cell.hpp"
#include "harness/json_util.hpp"
#include "harness/manifest.hpp"
#include "harness/results_storage.hpp"
#include "harness/runner.hpp"
#include "harness/threads.hpp"
#include "problems/dipolar_spheres/quad_scalar.hpp"

namespace gib::precision {

const char* to_string(Precision p) {
  switch (p) {
    case Precision::double_precision: return "double";
    case Precision::long_double: return "long_double";
    case Precision::binary128: return "binary128";
  }
  return "?";
}

double epsilon_of(Precision p) {
  switch (p) {
    case Precision::double_precision: return std::numeric_limits<double>::epsilon();
    case Precision::long_double: return static_cast<double>(std::numeric_limits<long double>::epsilon());
    case Precision::binary128: return std::ldexp(1.0, -112);
  }
  return 0;
}

Precision precision_from_string(const std::string& name) {
  for (Precision p : {Precision::double_precision, Precision::long_double, Precision::binary128})
    if (name == to_string(p)) return p;
  throw InputError(unknown_id_message("precision", name, {"double", "long_double", "binary128"}));
}

bool binary128_available() {
#ifdef GIB_HAVE_QUAD_SCALAR
  return true;
#else
  return false;
#endif
}

namespace {

template <class S>
double closest_pair(const Matrix3X<S>& q) {
  double best = std::numeric_limits<double>::infinity();
  const Eigen::Matrix3Xd x = q.template cast<double>();  // a diagnostic: double is plenty
  for (Eigen::Index i = 0; i < x.cols(); ++i)
    for (Eigen::Index j = i + 1; j < x.cols(); ++j) best = std::min(best, (x.col(i) - x.col(j)).squaredNorm());
  return std::sqrt(best);
}

// H_n comes from the first stage of step n + 1 (the forces are evaluated at y_n there); the last one needs
// its own evaluation. The relative error is formed in S and only then rounded.
template <class S>
RunRecord run_typed(Precision tag, const DipoleParameters& params, const ParticlesState& x0, double h,
                    std::int64_t steps, std::int64_t checkpoint_every) {
  const auto start = std::chrono::steady_clock::now();
  RunRecord r;
  r.precision = tag;
  r.h = h;
  r.steps = steps;
  r.checkpoint_every = checkpoint_every;
  StateIn<S> x = convert<S>(x0);
  Rkmk4InPrecision<S> method(params);
  const S hs = S(h);
  S kinetic = method.kinetic(x);
  S h0 = S(0);
  r.energy_rel_err.reserve(static_cast<std::size_t>(steps + 1));
  r.min_distance.reserve(static_cast<std::size_t>(steps + 1));
  auto record = [&](const S& potential, std::int64_t n) {
    const S energy = kinetic + potential;
    if (n == 0) h0 = energy;
    const double e = static_cast<double>((energy - h0) / h0);
    r.energy_rel_err.push_back(e);
    return std::isfinite(e);
  };
  for (std::int64_t n = 0; n < steps; ++n) {
    r.min_distance.push_back(closest_pair(x.q));
    if (checkpoint_every > 0 && n % checkpoint_every == 0) r.checkpoints.push_back(flatten(x));
    const S potential = method.step(x, hs);
    if (!record(potential, n)) {
      r.status = "nonfinite";
      break;
    }
    kinetic = method.kinetic(x);
  }
  if (r.status == "ok") {
    r.min_distance.push_back(closest_pair(x.q));
    if (checkpoint_every > 0 && steps % checkpoint_every == 0) r.checkpoints.push_back(flatten(x));
    if (!record(method.potential(x), steps)) r.status = "nonfinite";
  }
  r.final_state = flatten(x);
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return r;
}

}  // namespace

RunRecord run_in_precision(Precision p, const DipoleParameters& params, const ParticlesState& x0, double h,
                           std::int64_t steps, std::int64_t checkpoint_every) {
  switch (p) {
    case Precision::double_precision: return run_typed<double>(p, params, x0, h, steps, checkpoint_every);
    case Precision::long_double: return run_typed<long double>(p, params, x0, h, steps, checkpoint_every);
    case Precision::binary128:
#ifdef GIB_HAVE_QUAD_SCALAR
      return run_typed<quad::Quad>(p, params, x0, h, steps, checkpoint_every);
#else
      throw InputError("binary128 needs GCC's __float128 with glibc");
#endif
  }
  throw std::logic_error("unhandled precision");
}

RunSummary summarise(const RunRecord& r, double t_end) {
  RunSummary s;
  s.closest_approach = std::numeric_limits<double>::infinity();
  const auto& e = r.energy_rel_err;
  for (std::size_t n = 0; n < e.size(); ++n) {
    const double t = static_cast<double>(n) * r.h;
    if (t > t_end) break;
    const double a = std::isfinite(e[n]) ? std::abs(e[n]) : std::numeric_limits<double>::infinity();
    if (a > s.max_abs_err) s.max_abs_err = a, s.t_max_abs_err = t;
    const double jump = n > 0 ? std::abs(e[n] - e[n - 1]) : 0.0;
    if (jump > s.largest_jump) s.largest_jump = jump, s.t_largest_jump = t;
  }
  for (std::size_t n = 0; n < r.min_distance.size() && static_cast<double>(n) * r.h <= t_end; ++n)
    if (r.min_distance[n] < s.closest_approach) s.closest_approach = r.min_distance[n], s.t_closest = static_cast<double>(n) * r.h;
  s.final_err = e.empty() ? 0.0 : e.back();
  return s;
}

SpikeVerdict classify_spikes(double precision_ratio, double halving_ratio_min, double halving_ratio_max) {
  constexpr double kSame = 1.10, kClear = 4.0;  // within 10%; a change of more than 4x
  const bool finite = std::isfinite(precision_ratio) && std::isfinite(halving_ratio_min) && std::isfinite(halving_ratio_max);
  if (!finite || !(halving_ratio_min > 0)) return SpikeVerdict::inconclusive;
  if (precision_ratio < kSame && halving_ratio_min > kClear) return SpikeVerdict::time_step;
  const bool halving_flat = halving_ratio_max < kSame && 1.0 / halving_ratio_min < kSame;
  if (precision_ratio > kClear && halving_flat) return SpikeVerdict::floating_point;
  return SpikeVerdict::inconclusive;
}

const char* verdict_text(SpikeVerdict v) {
  switch (v) {
    // In the words of the verdict scale (README, Verdicts): the thesis's hypothesis is that the spikes are floating point.
    case SpikeVerdict::time_step: return "the thesis's hypothesis is refuted: time-step error; higher precision does not remove the spikes";
    case SpikeVerdict::floating_point:
      return "the thesis's hypothesis is reproduced: floating point; higher precision removes the spikes, a smaller step does not";
    case SpikeVerdict::inconclusive: return "inconclusive";
  }
  return "?";
}

const char* verdict_id(SpikeVerdict v) {
  switch (v) {
    case SpikeVerdict::time_step: return "time_step";
    case SpikeVerdict::floating_point: return "floating_point";
    case SpikeVerdict::inconclusive: return "inconclusive";
  }
  return "?";
}

const dipolar_spheres::DipolarSpheresModel& dipole_model(const Problem& problem) {
  const auto* particles = dynamic_cast<const ParticlesProblem*>(&problem);
  const auto* model = particles ? dynamic_cast<const dipolar_spheres::DipolarSpheresModel*>(&particles->model()) : nullptr;
  if (model == nullptr) throw InputError("problem " + problem.id() + " is not dipolar_spheres (the only problem with an any-precision kernel)");
  return *model;
}

namespace {

// ---------------------------------------------------------------------------------------------------------
// Options and the problem.

void validate(const StudyOptions& o) {
  if (!std::isfinite(o.h) || o.h <= 0) throw InputError("--h must be a positive finite number");
  if (!std::isfinite(o.T) || o.T <= 0) throw InputError("--T must be a positive finite number");
  if (o.halvings < 0 || o.halvings > 6) throw InputError("--halvings must be an integer in [0, 6]");
  if (o.series_points < 2) throw InputError("--series must be at least 2");
  if (o.registered_check_steps < 0) throw InputError("the registered-rkmk4 check needs a step count >= 0");
  if (o.checkpoints < 1) throw InputError("the precision study needs at least one checkpoint per run");
  for (int k = 0; k <= o.halvings; ++k) {
    try {
      (void)steps_for(o.T, o.h / std::ldexp(1.0, k));
    } catch (const InputError&) {
      throw InputError("--T " + Json(o.T).dump() + " is not a whole number of steps h = " + Json(o.h / std::ldexp(1.0, k)).dump() +
                       " (every run goes from 0 to T at h, h/2, ..., h/2^halvings)");
    }
  }
}

std::vector<Precision> precisions_of(const StudyOptions& o) {
  if (!o.precisions.empty()) {
    for (Precision p : o.precisions)
      if (p == Precision::binary128 && !binary128_available()) throw InputError("binary128 is not available in this build");
    std::vector<Precision> ps = o.precisions;  // ascending, so the last one is the reference
    std::sort(ps.begin(), ps.end());
    ps.erase(std::unique(ps.begin(), ps.end()), ps.end());
    return ps;
  }
  std::vector<Precision> all = {Precision::double_precision, Precision::long_double};
  if (binary128_available()) all.push_back(Precision::binary128);
  return all;
}

std::unique_ptr<Problem> dipole_problem(const std::string& preset, const Json& overrides, const std::string& ic) {
  Cell c;
  c.problem = "dipolar_spheres";
  c.preset = preset;
  c.overrides = overrides;
  c.ic = ic;
  auto p = make_problem(c);
  (void)dipole_model(*p);
  return p;
}

// ---------------------------------------------------------------------------------------------------------
// Running every (precision, h), in parallel, the most expensive first.

struct Task {
  Precision precision;
  double h;
  std::int64_t steps, checkpoint_every;
};

std::vector<RunRecord> run_all(const std::vector<Task>& tasks, const DipoleParameters& params, const ParticlesState& x0,
                               int jobs) {
  std::vector<std::size_t> order(tasks.size());
  for (std::size_t k = 0; k < order.size(); ++k) order[k] = k;
  auto cost = [&](const Task& t) { return static_cast<double>(t.steps) * (t.precision == Precision::binary128 ? 100 : 1); };
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return cost(tasks[a]) > cost(tasks[b]); });
  std::vector<RunRecord> out(tasks.size());
  std::vector<std::string> errors(tasks.size());
  const auto n = static_cast<std::ptrdiff_t>(order.size());
  (void)jobs;
#ifdef _OPENMP
#pragma omp parallel for schedule(dynamic, 1) num_threads(thread_count(jobs))
#endif
  for (std::ptrdiff_t k = 0; k < n; ++k) {
    const std::size_t i = order[static_cast<std::size_t>(k)];
    try {
      out[i] = run_in_precision(tasks[i].precision, params, x0, tasks[i].h, tasks[i].steps, tasks[i].checkpoint_every);
    } catch (const std::exception& e) {
      errors[i] = e.what();
    }
  }
  for (const auto& e : errors)
    if (!e.empty()) throw std::runtime_error(e);
  return out;
}

// ---------------------------------------------------------------------------------------------------------
// Comparing the runs.

const RunRecord& find_run(const std::vector<RunRecord>& runs, Precision p, double h) {
  for (const auto& r : runs)
    if (r.precision == p && r.h == h) return r;
  throw std::logic_error("precision study: missing run");
}

long double distance(const std::vector<long double>& a, const std::vector<long double>& b) {
  long double s = 0;
  for (std::size_t k = 0; k < std::min(a.size(), b.size()); ++k) s += (a[k] - b[k]) * (a[k] - b[k]);
  return std::sqrt(s);
}

long double norm(const std::vector<long double>& a) { return distance(a, std::vector<long double>(a.size(), 0.0L)); }

// Relative distance of r to ref at each checkpoint both have (the same times: same h, same spacing).
std::vector<double> separation(const RunRecord& r, const RunRecord& ref) {
  std::vector<double> out;
  for (std::size_t c = 0; c < std::min(r.checkpoints.size(), ref.checkpoints.size()); ++c)
    out.push_back(static_cast<double>(distance(r.checkpoints[c], ref.checkpoints[c]) / norm(ref.checkpoints[c])));
  return out;
}

double checkpoint_time(const RunRecord& r, std::size_t c) {
  return static_cast<double>(c) * static_cast<double>(r.checkpoint_every) * r.h;
}

// The last checkpoint time up to which r stays within kSameTrajectory of ref (every checkpoint when it never
// leaves, which for a finished run is T).
double agreement_time(const RunRecord& r, const std::vector<double>& sep) {
  for (std::size_t c = 0; c < sep.size(); ++c)
    if (!(sep[c] <= kSameTrajectory)) return c == 0 ? 0.0 : checkpoint_time(r, c - 1);
  return sep.empty() ? 0.0 : checkpoint_time(r, sep.size() - 1);
}

// The separation at the first checkpoint at or after t (after a spike: it includes the spike's effect).
double separation_after(const RunRecord& r, const std::vector<double>& sep, double t) {
  for (std::size_t c = 0; c < sep.size(); ++c)
    if (checkpoint_time(r, c) >= t) return sep[c];
  return std::nan("");
}

// At most `points` values: the largest separation in each bin of consecutive checkpoints, with the bin's end time.
Json separation_series(const RunRecord& r, const std::vector<double>& sep, std::size_t points) {
  const std::size_t width = std::max<std::size_t>(1, (sep.size() + points - 1) / points);
  Json t = Json::array(), v = Json::array();
  for (std::size_t lo = 0; lo < sep.size(); lo += width) {
    const std::size_t hi = std::min(sep.size(), lo + width);
    t.push_back(checkpoint_time(r, hi - 1));
    v.push_back(json_number(*std::max_element(sep.begin() + static_cast<std::ptrdiff_t>(lo), sep.begin() + static_cast<std::ptrdiff_t>(hi))));
  }
  return {{"t", t}, {"relative_distance", v}};
}

double energy_difference(const RunRecord& a, const RunRecord& b, double t_end) {
  double d = 0;
  const std::size_t n = std::min(a.energy_rel_err.size(), b.energy_rel_err.size());
  for (std::size_t k = 0; k < n && static_cast<double>(k) * a.h <= t_end; ++k)
    d = std::max(d, std::abs(a.energy_rel_err[k] - b.energy_rel_err[k]));
  return d;
}

// The common window: up to the earliest time any precision leaves the most precise one's trajectory, at any h.
double common_window(const std::vector<RunRecord>& runs, const std::vector<double>& hs, const std::vector<Precision>& ps, double T) {
  double t = T;
  for (double h : hs)
    for (Precision p : ps)
      if (p != ps.back()) t = std::min(t, agreement_time(find_run(runs, p, h), separation(find_run(runs, p, h), find_run(runs, ps.back(), h))));
  return t;
}

// ---------------------------------------------------------------------------------------------------------
// JSON.

// Bins of consecutive steps: the signed error at the bin's end, the largest |error| and the closest pair in
// the bin, so no spike is lost to the sampling.
Json series_json(const RunRecord& r, std::int64_t points) {
  const auto n = static_cast<std::int64_t>(r.energy_rel_err.size());
  const std::int64_t width = std::max<std::int64_t>(1, (n + points - 1) / points);
  Json t = Json::array(), e = Json::array(), a = Json::array(), d = Json::array();
  for (std::int64_t lo = 0; lo < n; lo += width) {
    const std::int64_t hi = std::min(n, lo + width);
    double amax = 0, dmin = std::numeric_limits<double>::infinity();
    for (std::int64_t k = lo; k < hi; ++k) {
      amax = std::max(amax, std::abs(r.energy_rel_err[static_cast<std::size_t>(k)]));
      if (k < static_cast<std::int64_t>(r.min_distance.size())) dmin = std::min(dmin, r.min_distance[static_cast<std::size_t>(k)]);
    }
    // Stored like every figure's series (harness/results_storage.hpp): the summaries and verdicts above are taken
    // from the full-precision record, the series only draws the figure.
    t.push_back(round_significant(static_cast<double>(hi - 1) * r.h, kTimeDigits));
    e.push_back(json_number(round_significant(r.energy_rel_err[static_cast<std::size_t>(hi - 1)], kSeriesDigits)));
    a.push_back(json_number(round_significant(amax, kSeriesDigits)));
    d.push_back(json_number(round_significant(dmin, kSeriesDigits)));
  }
  return {{"steps_per_point", width}, {"t", t}, {"energy_rel_err", e}, {"energy_rel_err_abs_max", a}, {"min_distance", d}};
}

Json run_json(const RunRecord& r, std::int64_t points, double window) {
  const RunSummary s = summarise(r);
  return {{"precision", to_string(r.precision)},
          {"epsilon", epsilon_of(r.precision)},
          {"h", r.h},
          {"steps", r.steps},
          {"status", r.status},
          {"energy_rel_err_max_abs_window", json_number(summarise(r, window).max_abs_err)},
          {"energy_rel_err_max_abs", json_number(s.max_abs_err)},
          {"t_energy_rel_err_max_abs", s.t_max_abs_err},
          {"energy_rel_err_final", json_number(s.final_err)},
          {"largest_jump", json_number(s.largest_jump)},
          {"t_largest_jump", s.t_largest_jump},
          {"closest_approach", json_number(s.closest_approach)},
          {"t_closest_approach", s.t_closest},
          {"seconds", r.seconds},
          {"series", series_json(r, points)}};
}

// Each precision against the most precise one at the same h: how far round-off moved the trajectory.
Json trajectory_differences(const std::vector<RunRecord>& runs, const std::vector<double>& hs, const std::vector<Precision>& ps,
                            double window) {
  Json out = Json::array();
  for (double h : hs) {
    const RunRecord& ref = find_run(runs, ps.back(), h);
    const double t_spike = summarise(ref).t_largest_jump;
    for (Precision p : ps) {
      if (p == ps.back()) continue;
      const RunRecord& r = find_run(runs, p, h);
      const std::vector<double> sep = separation(r, ref);
      const double t_agree = agreement_time(r, sep);
      const long double d = distance(r.final_state, ref.final_state);
      out.push_back({{"h", h},
                     {"precision", to_string(p)},
                     {"against", to_string(ps.back())},
                     {"t_largest_jump", t_spike},
                     {"separation_after_largest_jump", json_number(separation_after(r, sep, t_spike))},
                     {"same_trajectory_until", t_agree},
                     {"leaves_trajectory", t_agree < checkpoint_time(r, sep.empty() ? 0 : sep.size() - 1)},
                     {"energy_rel_err_max_difference_window", json_number(energy_difference(r, ref, window))},
                     {"energy_rel_err_max_difference", json_number(energy_difference(r, ref, std::numeric_limits<double>::infinity()))},
                     {"energy_rel_err_max_abs_window", json_number(summarise(ref, window).max_abs_err)},
                     {"final_state_distance", json_number(static_cast<double>(d))},
                     {"final_state_relative", json_number(static_cast<double>(d / norm(ref.final_state)))},
                     {"separation", separation_series(r, sep, 200)}});
    }
  }
  return out;
}

struct RuleInputs {
  double precision_ratio = 1;
  double halving_min = std::numeric_limits<double>::infinity(), halving_max = 0;
  Json halving = Json::object();  // every E(h_k)/E(h_{k+1}) per precision
};

// The rule's inputs from E = max |dH/H0| over t <= t_end.
RuleInputs rule_inputs(const std::vector<RunRecord>& runs, const std::vector<double>& hs, const std::vector<Precision>& ps,
                       double t_end) {
  auto E = [&](Precision p, double h) { return summarise(find_run(runs, p, h), t_end).max_abs_err; };
  RuleInputs in;
  for (double h : hs) {
    double lo = std::numeric_limits<double>::infinity(), hi = 0;
    for (Precision p : ps) lo = std::min(lo, E(p, h)), hi = std::max(hi, E(p, h));
    in.precision_ratio = std::max(in.precision_ratio, lo > 0 ? hi / lo : std::numeric_limits<double>::infinity());
  }
  for (Precision p : ps) {
    Json ratios = Json::array();
    for (std::size_t k = 0; k + 1 < hs.size(); ++k) ratios.push_back(json_number(E(p, hs[k]) / E(p, hs[k + 1])));
    in.halving[to_string(p)] = ratios;
    if (hs.size() < 2) continue;
    in.halving_min = std::min(in.halving_min, E(p, hs[0]) / E(p, hs[1]));
    in.halving_max = std::max(in.halving_max, E(p, hs[0]) / E(p, hs[1]));
  }
  return in;
}

Json rule_json(const RuleInputs& in, SpikeVerdict v) {
  return {{"verdict", verdict_id(v)},
          {"text", verdict_text(v)},
          {"precision_ratio", json_number(in.precision_ratio)},
          {"precision_spread_percent", json_number(100 * (in.precision_ratio - 1))},
          {"first_halving_ratio_min", json_number(in.halving_min)},
          {"first_halving_ratio_max", json_number(in.halving_max)},
          {"halving_ratios", in.halving}};
}

Json verdict_json(const std::vector<RunRecord>& runs, const std::vector<double>& hs, const std::vector<Precision>& ps,
                  double window) {
  const double t_spike = summarise(find_run(runs, ps.back(), hs[0])).t_largest_jump;
  const bool enough = hs.size() >= 2 && ps.size() >= 2;
  const bool contains = window >= t_spike;
  const RuleInputs w = rule_inputs(runs, hs, ps, window);
  const RuleInputs whole = rule_inputs(runs, hs, ps, std::numeric_limits<double>::infinity());
  auto apply = [&](const RuleInputs& in) {
    return enough ? classify_spikes(in.precision_ratio, in.halving_min, in.halving_max) : SpikeVerdict::inconclusive;
  };
  const SpikeVerdict v = contains ? apply(w) : SpikeVerdict::inconclusive;
  Json out = rule_json(w, v);
  out["window"] = {{"t_end", window},
                   {"same_trajectory_tolerance", kSameTrajectory},
                   {"t_largest_jump", t_spike},
                   {"contains_largest_jump", contains}};
  out["whole_run"] = rule_json(whole, apply(whole));
  out["enough_data"] = enough;
  out["rule"] =
      "E = max |dH/H0| over the window in which every precision stays on the most precise run's trajectory (relative "
      "state distance <= 1e-6, at every h; it must contain the largest spike). time_step if E differs between "
      "precisions by < 10% (at every h) while halving h cuts it by > 4x (every precision); floating_point if "
      "precisions differ by > 4x while halving changes it by < 10%; otherwise inconclusive";
  return out;
}

// The registered rkmk4 (methods/rkmk, double) against the study's runs over the first steps: the same kernel, so
// what can differ is the study's force kernel at S and its state layout, which must agree to round-off.
Json registered_check(const Problem& problem, const DipoleParameters& params, double h, std::int64_t steps) {
  const auto& particles = dynamic_cast<const ParticlesProblem&>(problem);
  const MethodInfo& m = find_method("rkmk4");
  const ParticlesState reg = integrate_particles(m, particles.model(), merge_method_params(m, Json::object()),
                                                 particles.initial_state(), h, steps);
  const std::vector<long double> reg_flat = flatten(convert<double>(reg));
  Json out = {{"method", "rkmk4"}, {"h", h}, {"steps", steps}};
  for (Precision p : {Precision::double_precision, Precision::long_double}) {
    const RunRecord r = run_in_precision(p, params, particles.initial_state(), h, steps);
    const long double d = distance(reg_flat, r.final_state);
    out[std::string("distance_to_") + to_string(p)] = json_number(static_cast<double>(d));
    out[std::string("relative_to_") + to_string(p)] = json_number(static_cast<double>(d / norm(r.final_state)));
  }
  return out;
}

Json prototype_json() {
  return {{"source", "Kjer spec 6 and 9: independent double-precision prototype, N = 10, T = 300, RKMK4"},
          {"energy_rel_err_max_abs", {{"0.01", 3.9e-2}, {"0.005", 2.0e-3}, {"0.0025", 5.0e-5}}},
          {"claim", "halving h cuts the max error about 20-40x: time-discretisation error, not floating point"}};
}

const char* kThesis =
    "Kjer 2017 3.2 (Figs 3.9, 3.10): the spikes occur when two particles come close; the r^-12 term 'becomes very "
    "large, resulting in a floating point error', and 'increasing the floating point precision to e.g. 128 bits may "
    "fix these spikes'";

Json precision_names(const std::vector<Precision>& ps) {
  Json a = Json::array();
  for (Precision p : ps) a.push_back(to_string(p));
  return a;
}

}  // namespace

Json run_precision_study(const StudyOptions& o, const std::vector<std::string>& command_line) {
  validate(o);
  const auto problem = dipole_problem(o.preset, o.overrides, o.ic);
  const DipoleParameters& params = dipole_model(*problem).parameters();
  const ParticlesState& x0 = dynamic_cast<const ParticlesProblem&>(*problem).initial_state();
  const std::vector<Precision> ps = precisions_of(o);
  std::vector<double> hs;
  std::vector<Task> tasks;
  for (int k = 0; k <= o.halvings; ++k) {
    hs.push_back(o.h / std::ldexp(1.0, k));
    const std::int64_t steps = steps_for(o.T, hs.back());
    for (Precision p : ps) tasks.push_back({p, hs.back(), steps, std::max<std::int64_t>(1, steps / std::max<std::int64_t>(1, o.checkpoints))});
  }
  const auto start = std::chrono::steady_clock::now();
  const std::vector<RunRecord> runs = run_all(tasks, params, x0, o.jobs);
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  const double window = common_window(runs, hs, ps, o.T);
  Json runs_json = Json::array();
  double cpu = 0;
  for (const auto& r : runs) runs_json.push_back(run_json(r, o.series_points, window)), cpu += r.seconds;
  const std::int64_t check_steps = std::min(o.registered_check_steps, steps_for(o.T, o.h));
  return {{"schema_version", 1},
          {"kind", "gibench.precision_study"},
          {"manifest", build_manifest(command_line, Json::object())},
          {"problem", problem->id()},
          {"preset", problem->preset()},
          {"ic", problem->initial_condition()},
          {"overrides", o.overrides},
          {"params", problem->parameters()},
          {"parameter_hash", problem->parameter_hash()},
          {"N", params.n},
          {"method", "RKMK4, left version, Kjer spec 3.5 (the rkmk kernel of methods/rkmk/kernel.hpp), every operation in the run's precision "
                     "(papers/kjer2017/precision_study.hpp)"},
          {"T", o.T},
          {"h", hs},
          {"precisions", precision_names(ps)},
          {"runs", runs_json},
          {"trajectory_differences", trajectory_differences(runs, hs, ps, window)},
          {"registered_rkmk4_check", check_steps > 0 ? registered_check(*problem, params, o.h, check_steps) : Json(nullptr)},
          {"verdict", verdict_json(runs, hs, ps, window)},
          {"thesis_hypothesis", kThesis},
          {"spec_prototype", prototype_json()},
          {"runtime", {{"wall_seconds", wall}, {"run_seconds_sum", cpu}, {"threads", thread_count(o.jobs)}}}};
}

// ---------------------------------------------------------------------------------------------------------
// Markdown.

namespace {

std::string sci(const Json& v, int digits = 2) {
  if (!v.is_number()) return "n/a";
  std::ostringstream s;
  s << std::scientific << std::setprecision(digits) << v.get<double>();
  return s.str();
}

std::string fixed(const Json& v, int digits) {
  if (!v.is_number()) return "n/a";
  std::ostringstream s;
  s << std::fixed << std::setprecision(digits) << v.get<double>();
  return s.str();
}

std::string num(const Json& v) {
  std::ostringstream s;
  s << v.get<double>();
  return s.str();
}

std::string runs_table(const Json& doc) {
  const Json& runs = doc["runs"];
  const std::string window = fixed(doc["verdict"]["window"]["t_end"], 2);
  double base = std::nan("");
  for (const auto& r : runs)
    if (r["precision"] == "double" && r["h"] == doc["h"][0]) base = r.value("energy_rel_err_max_abs_window", std::nan(""));
  std::ostringstream s;
  s << "| precision | h | steps | max \\|ΔH/H0\\|, t ≤ " << window << " | ratio to double, h = " << num(doc["h"][0])
    << " | max \\|ΔH/H0\\|, whole run | closest approach | at t | largest jump | at t | status | run time (s) |\n"
    << "|---|---|---|---|---|---|---|---|---|---|---|---|\n";
  for (const Json& p : doc["precisions"])
    for (const auto& r : runs) {
      if (r["precision"] != p) continue;
      const double e = r.value("energy_rel_err_max_abs_window", std::nan(""));
      s << "| " << p.get<std::string>() << " | " << num(r["h"]) << " | " << r["steps"].get<long long>() << " | "
        << sci(r["energy_rel_err_max_abs_window"], 3) << " | " << fixed(json_number(e / base), 5) << " | "
        << sci(r["energy_rel_err_max_abs"]) << " | " << fixed(r["closest_approach"], 3) << " | "
        << fixed(r["t_closest_approach"], 2) << " | " << sci(r["largest_jump"], 3) << " | " << fixed(r["t_largest_jump"], 2)
        << " | " << r["status"].get<std::string>() << " | " << fixed(r["seconds"], 1) << " |\n";
    }
  return s.str();
}

std::string differences_table(const Json& doc) {
  std::ostringstream s;
  s << "| h | precision | against | relative distance after the largest jump (at t) | same trajectory (≤ 1e-6) until t | "
       "max \\|e_S − e_ref\\|, window | max \\|e_S − e_ref\\|, whole run | final state distance (relative) |\n"
    << "|---|---|---|---|---|---|---|---|\n";
  for (const auto& d : doc["trajectory_differences"])
    s << "| " << num(d["h"]) << " | " << d["precision"].get<std::string>() << " | " << d["against"].get<std::string>()
      << " | " << sci(d["separation_after_largest_jump"]) << " (" << fixed(d["t_largest_jump"], 2) << ") | "
      << fixed(d["same_trajectory_until"], 1) << (d["leaves_trajectory"].get<bool>() ? "" : " (never leaves)") << " | "
      << sci(d["energy_rel_err_max_difference_window"]) << " | " << sci(d["energy_rel_err_max_difference"]) << " | "
      << sci(d["final_state_distance"]) << " (" << sci(d["final_state_relative"]) << ") |\n";
  return s.str();
}

// Whether round-off made the runs different solutions, with the times each precision left the reference.
std::string departures(const Json& doc) {
  std::ostringstream s;
  bool any = false;
  for (const auto& d : doc["trajectory_differences"])
    if (d["leaves_trajectory"].get<bool>()) {
      s << (any ? ", " : "") << d["precision"].get<std::string>() << " at h = " << num(d["h"]) << " after t = "
        << fixed(d["same_trajectory_until"], 1);
      any = true;
    }
  if (!any) return ". No precision leaves the reference trajectory within T.";
  return ". Beyond the window the runs leave the reference trajectory (" + s.str() +
         "): close encounters amplify any perturbation, so afterwards the precisions integrate different solutions of "
         "a chaotic system, and whole-run maxima compare trajectories, not arithmetic (a smaller epsilon only delays "
         "the departure).";
}

std::string verdict_paragraph(const Json& doc) {
  const Json& v = doc["verdict"];
  const Json& w = v["window"];
  const Json& whole = v["whole_run"];
  std::ostringstream s;
  s << "**Verdict: " << v["text"].get<std::string>() << ".** Up to t = " << fixed(w["t_end"], 2)
    << " every precision follows the most precise run's trajectory (relative state distance ≤ 1e-6, at every h); "
    << "this window " << (w["contains_largest_jump"].get<bool>() ? "contains" : "does NOT contain")
    << " the largest spike (t = " << fixed(w["t_largest_jump"], 2) << "). In it the largest error differs between "
    << "precisions by at most " << fixed(v["precision_spread_percent"], 4) << "%, and the first halving of h divides it by "
    << fixed(v["first_halving_ratio_min"], 1) << "x to " << fixed(v["first_halving_ratio_max"], 1)
    << "x across precisions. Rule: " << v["rule"].get<std::string>() << ".\n\n"
    << "Over the whole run the maxima differ by up to " << fixed(whole["precision_spread_percent"], 1)
    << "% between precisions (halving ratios " << fixed(whole["first_halving_ratio_min"], 1) << "x to "
    << fixed(whole["first_halving_ratio_max"], 1) << "x; the rule on whole-run maxima says: "
    << whole["text"].get<std::string>() << ")" << departures(doc) << "\n\n"
    << "Thesis hypothesis: " << doc["thesis_hypothesis"].get<std::string>() << ". Spec prototype (double, N = 10, T = 300): "
    << "3.9e-2, 2.0e-3, 5.0e-5 at h = 0.01, 0.005, 0.0025 (halving h cuts the spikes 20-40x: time-step error).\n";
  return s.str();
}

}  // namespace

std::string precision_study_markdown(const Json& doc) {
  std::ostringstream s;
  const Json& rt = doc["runtime"];
  s << "# Kjer (2017) energy spikes: arithmetic precision against step size\n\n"
    << "Problem " << doc["problem"].get<std::string>() << ", preset " << doc["preset"].get<std::string>() << " (N = "
    << doc["N"].get<int>() << "), " << doc["method"].get<std::string>() << ", T = " << num(doc["T"])
    << ". Every run starts from the same initial state (converted exactly from double). Generated by `gibench "
       "precision-study`; wall time "
    << fixed(rt["wall_seconds"], 1) << " s on " << rt["threads"].get<int>() << " thread(s) ("
    << doc["manifest"].value("cpu_model", "unknown CPU") << "), " << fixed(rt["run_seconds_sum"], 1)
    << " s summed over the runs.\n\n"
    << runs_table(doc) << "\n"
    << "Round-off against spike size: each precision against the most precise one at the same h.\n\n"
    << differences_table(doc) << "\n";
  if (const Json& c = doc["registered_rkmk4_check"]; c.is_object())
    s << "The registered `rkmk4` (methods/rkmk, double, the same kernel with the double force kernel) against the study's runs after " << c["steps"].get<long long>()
      << " steps at h = " << num(c["h"]) << ": relative state distance " << sci(c["relative_to_double"]) << " to the double run, "
      << sci(c["relative_to_long_double"]) << " to the long double run.\n\n";
  s << verdict_paragraph(doc);
  return s.str();
}

}  // namespace gib::precision
