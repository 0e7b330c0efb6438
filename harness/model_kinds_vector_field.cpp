// The general-vector-field kind's traits (harness/model_kinds.hpp VectorFieldKind).
#include <cmath>
#include <cstring>

#include "core/errors.hpp"
#include "harness/json_util.hpp"
#include "harness/model_kinds.hpp"
#include "harness/vector_field_probes.hpp"

namespace gib {

std::unique_ptr<Stepper<VectorFieldState>> VectorFieldKind::stepper(const MethodInfo& m, const VectorFieldProblem& p,
                                                                     const Json& params) {
  if (!m.vector_field) throw InputError("method " + m.id + " does not support model kind vector_field");
  return m.vector_field(p.model(), params);
}

VectorFieldKind::Errors VectorFieldKind::errors(const VectorFieldProblem&, const VectorFieldState& s,
                                                const VectorFieldState& ref) {
  const Eigen::VectorXd d = s.x - ref.x;
  Errors e;
  e.value = {d.cwiseAbs().maxCoeff(), d.norm()};
  return e;
}

std::string VectorFieldKind::divergence(const VectorFieldState& s, const VectorFieldProblem& p, double factor) {
  if (s.x.cwiseAbs().maxCoeff() > factor * p.extent())
    return "a coordinate grew beyond " + json_number(factor).dump() + " times the initial extent";
  return "";
}

double VectorFieldKind::distance(const VectorFieldState& a, const VectorFieldState& b) {
  return (a.x - b.x).norm() / std::max(b.x.norm(), 1.0);
}

bool VectorFieldKind::bitwise_equal(const VectorFieldState& a, const VectorFieldState& b) {
  return a.x.size() == b.x.size() &&
         std::memcmp(a.x.data(), b.x.data(), sizeof(double) * static_cast<std::size_t>(a.x.size())) == 0;
}

Json VectorFieldKind::state_json(const VectorFieldState& s) { return {{"x", vector_json(s.x)}}; }

double VectorFieldKind::error_scale(const VectorFieldProblem& p) { return std::max(p.initial_state().x.norm(), 1.0); }

std::vector<StructureClaim> VectorFieldKind::structure_claims(const MethodInfo& m, const VectorFieldProblem& p,
                                                              const Json& params, double h) {
  std::vector<StructureClaim> out;
  const VectorFieldModel& model = p.model();
  if (m.claims.volume_preserving && model.divergence_free() != nullptr) {
    // x0 and 7 points along the method's own orbit, 4 steps apart.
    std::vector<Eigen::VectorXd> points{p.initial_state().x};
    auto stepper = m.vector_field(model, params);
    stepper->reset();
    VectorFieldState s = p.initial_state();
    OpCounters c;
    for (int k = 0; k < 28 && stepper->step(s, h, c) == StepStatus::ok && s.x.allFinite(); ++k)
      if (k % 4 == 3) points.push_back(s.x);
    const probes::PointProbes r = probes::probe_points(m, model, params, points, h, {"volume"});
    // An exact tangent map's determinant is good to round-off; central differences to about 1e-11.
    const bool exact = r.tangent_source == probes::TangentSource::exact;
    const double bound = exact ? 1e-12 : 1e-9;
    const double measured = std::isnan(r.volume) ? INFINITY : r.volume;
    out.push_back({"volume_preserving", measured <= bound, measured, bound,
                   "max |det(d psi_h/dx) - 1| = " + json_number(measured).dump() + " at " + std::to_string(points.size()) +
                       " points at h = " + json_number(h).dump() + " (" + probes::to_string(r.tangent_source) +
                       "), bound " + json_number(bound).dump()});
  }
  if (const GradientForm* lyapunov = model.lyapunov_gradient(); m.claims.lyapunov_monotone && lyapunov != nullptr) {
    // "At every step size": a small and a large step, 2000 steps each. A step the method cannot solve (Newton fails
    // at 10 h) raises nothing and ends that run; the claim needs the run at h to finish.
    std::int64_t increases = 0, steps = 0;
    std::string failure;
    bool base_finished = true;
    for (const double step : {h, 10 * h}) {
      auto stepper = m.vector_field(model, params);
      stepper->reset();
      VectorFieldState s = p.initial_state();
      OpCounters c;
      double v = lyapunov->value(s.x);
      for (int k = 0; k < 2000; ++k, ++steps) {
        if (stepper->step(s, step, c) != StepStatus::ok || !s.x.allFinite()) {
          failure += "; step " + std::to_string(k + 1) + " failed at h = " + json_number(step).dump();
          base_finished = base_finished && step != h;
          break;
        }
        const double next = lyapunov->value(s.x);
        if (next > v + 1e-13 * (1.0 + std::abs(v))) ++increases;
        v = next;
      }
    }
    const auto measured = static_cast<double>(increases);
    out.push_back({"lyapunov_monotone", increases == 0 && base_finished, measured, 0,
                   std::to_string(increases) + " of " + std::to_string(steps) + " steps raise V at h = " +
                       json_number(h).dump() + " and " + json_number(10 * h).dump() + failure});
  }
  return out;
}

VectorFieldKind::Observer::Observer(const VectorFieldProblem& p, const ObserveOptions& o)
    : p_(p), options_(o), state_(o.series(kExtraSeries[0].name)), points_(p.initial_state(), o), phase_(o.probe("phase")) {}

void VectorFieldKind::Observer::record_series(const VectorFieldState& s, const Errors&, Json& series) const {
  if (state_) series[metrics::x.name].push_back(vector_json(s.x));
}

// A step raises V when it passes its previous value by more than round-off of V's size (spec 8.6 counts with a
// 1e-13 tolerance); the first call only records V(x0).
void VectorFieldKind::Observer::count_lyapunov_increase(const VectorFieldState& s) {
  const GradientForm* lyapunov = p_.model().lyapunov_gradient();
  if (lyapunov == nullptr) return;
  const double v = lyapunov->value(s.x);
  if (!std::isnan(last_v_) && v > last_v_ + 1e-13 * (1.0 + std::abs(last_v_))) ++v_increases_;
  last_v_ = v;
}

void VectorFieldKind::Observer::finish(const MethodInfo& m, const Json& params, const Cell& cell, bool ok) {
  if (options_.probes.empty()) return;
  Json notes = Json::array();
  const auto put = [&](const metrics::Metric& metric, double v) { probe_metrics_[metric.name] = json_number(v); };
  std::vector<Eigen::VectorXd> at;
  for (const VectorFieldState& s : points_.points()) at.push_back(s.x);
  const probes::PointProbes r = probes::probe_points(m, p_.model(), params, at, cell.h, options_.probes);
  for (const std::string& n : r.notes) notes.push_back(n);
  if (options_.probe("adjoint")) put(metrics::adjoint_err, r.adjoint);
  if (options_.probe("reversibility")) put(metrics::reversibility_err, r.reversibility);
  if (options_.probe("symmetry")) put(metrics::symmetry_err, r.symmetry);
  if (options_.probe("volume")) put(metrics::volume_err, r.volume);
  if (options_.probe("symplecticity")) put(metrics::symplecticity_err, r.symplecticity);
  if (options_.probe("poisson")) put(metrics::poisson_err, r.poisson);
  if (options_.probe("volume") || options_.probe("symplecticity") || options_.probe("poisson"))
    notes.push_back(std::string("tangent maps: ") + probes::to_string(r.tangent_source));
  if (phase_) split_phase(cell, ok, notes);
  if (options_.probe("lyapunov")) {
    // Over the run's own steps; a run that failed has no exponent over them.
    const probes::Lyapunov l =
        ok ? probes::lyapunov_exponent(m, p_.model(), params, p_.initial_state().x, cell.h, cell.steps) : probes::Lyapunov{};
    put(metrics::lyapunov_exponent, l.exponent);
    put(metrics::lyapunov_exponent_resolution, l.resolution);
    notes.push_back(std::string("lyapunov: ") + (ok ? probes::to_string(l.source) : "the run did not finish") +
                    (l.note.empty() ? "" : "; " + l.note));
  }
  probe_metrics_[metrics::probe_notes.name] = notes;
}

// M2's phase/shape split of the final error (spec 11 M2; 3.4: RK2's phase and drift errors cancel near T = 300).
// The window is pi time scales (half a turn at one radian per time scale) and at most t_N: wide enough for
// leapfrog's phase lag on the pendulum to T = 1e4, narrow enough that a period away no equally good shift exists.
void VectorFieldKind::Observer::split_phase(const Cell& cell, bool ok, Json& notes) {
  const auto* ref = cell.observe.reference ? p_.reference() : nullptr;
  const double t = cell.h * static_cast<double>(cell.steps);
  probes::PhaseSplit split;
  if (ok && ref != nullptr) split = probes::phase_split(*ref, last_sample_.x, t, std::min(M_PI * p_.time_scale(), t));
  probe_metrics_[metrics::phase_shift_final.name] = json_number(split.shift);
  probe_metrics_[metrics::shape_err_final.name] = json_number(split.shape);
  if (!ok || ref == nullptr) {
    notes.push_back(std::string("phase: ") + (ok ? "no reference" : "the run did not finish"));
    return;
  }
  notes.push_back("phase: shifts within +-" + json_number(std::min(M_PI * p_.time_scale(), t)).dump() +
                  " of t_N = " + json_number(t).dump() + "; reference error estimate " +
                  json_number(ref->error_estimate(t)).dump() +
                  (split.at_bound ? "; the best shift is at the window's edge: the true one may lie beyond" : ""));
}

void VectorFieldKind::Observer::write_metrics(Json& m) const {
  if (p_.model().lyapunov_gradient() != nullptr) m[metrics::lyapunov_increase_steps.name] = v_increases_;
  for (const auto& [k, v] : probe_metrics_.items()) m[k] = v;
}

}  // namespace gib
