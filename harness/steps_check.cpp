#include "harness/steps_check.hpp"

#include <cmath>
#include <numbers>
#include <sstream>

#include "core/errors.hpp"
#include "core/problem.hpp"
#include "harness/figure_verdict.hpp"
#include "harness/json_util.hpp"
#include "harness/model_kinds.hpp"
#include "harness/runner.hpp"
#include "harness/steps_to_accuracy.hpp"

namespace gib {
namespace {

Cell template_cell(const Json& c) {
  Cell t;
  try {
    t.problem = c.value("problem", std::string("free_rigid_body"));
    t.preset = c.value("preset", std::string());
    t.overrides = c.value("overrides", Json::object());
    t.ic = c.value("ic", std::string("preset"));
    t.method = c.at("method").get<std::string>();
    t.method_params = c.value("params", Json::object());
  } catch (const Json::exception&) {
    throw InputError("steps check '" + c.value("statement", "") + "' needs a method");
  }
  return t;
}

std::string g(double x) {
  std::ostringstream s;
  s.precision(4);
  s << x;
  return s.str();
}

// Buss's "mean rotation per step" in degrees, T |omega0| / N (spec 4.3; informational).
double mean_rotation_deg(const Cell& t, double T, std::int64_t n) {
  const auto p = make_problem(t);
  const double w0 = initial_angular_speed(*p);  // NaN where the kind has no single angular velocity
  return T * w0 / static_cast<double>(n) * 180.0 / std::numbers::pi;
}

}  // namespace

Json check_steps(const Json& c, const SweepOptions& opt) {
  const Cell t = template_cell(c);
  const double T = c.value("T", 0.0), eps = c.value("eps", 0.0);
  if (!(T > 0) || !(eps > 0)) throw InputError("steps check needs T > 0 and eps > 0");
  StepsSearchOptions so;
  so.n_min = c.value("n_min", std::int64_t{10});
  so.n_max = c.value("cap", std::int64_t{1000000});
  so.short_run_at_cap = c.contains("cap");  // the paper's cap is inclusive: it searched up to it
  const std::string metric = c.value("metric", metrics::key(metrics::rot_geodesic, metrics::kFinal));
  (void)opt;  // the search runs cells one after another; checks run in parallel above it
  const StepsSearchResult r = search_steps_to_accuracy(cell_error_of_steps(t, T, metric), eps, so);

  std::ostringstream why;
  if (r.reached) {
    why << "err(" << r.n << ") = " << g(r.err) << ", err(" << r.last_fail << ") = " << g(r.last_fail_err) << "; every N in ["
        << r.n << ", " << r.dense_hi << "] and " << r.scan_points_above << " scan points up to " << r.checked_top
        << " meet eps; mean rotation " << g(mean_rotation_deg(t, T, r.n)) << " deg/step.";
  } else {
    why << "N > " << so.n_max << " failed (best error " << g(r.best_err) << " at N = " << r.best_n << ").";
  }
  const Criterion crit = check_criterion(c);
  const Json ours = r.reached ? Json(r.n) : Json("failed");
  Outcome o = Outcome::fails;
  if (crit.categorical) o = judge(crit, r.reached ? std::string("reached") : std::string("failed"));
  else if (r.reached) o = judge(crit, static_cast<double>(r.n));
  if (!crit.categorical) why << " Holds for N " << crit.magnitude.text() << ".";
  Json v = verdict_row(c, ours, o, why.str());
  v["evaluations"] = r.evaluations;
  return v;
}

}  // namespace gib
