#include "core/metrics.hpp"

namespace gib::metrics {

const std::vector<const Metric*>& all() {
  static const std::vector<const Metric*> every = {
      &rot_geodesic, &rot_2norm, &mom_err, &mom_rel_err, &pos_err, &rot_err, &lin_mom_err, &ang_mom_err, &vel_err,
      &tip_err, &max_coord_err, &state_err, &energy_rel_err, &casimir_err, &spatial_momentum_err,
      &vertical_momentum_err, &axial_momentum_err, &linear_momentum_err, &angular_momentum_err, &kepler_angular_momentum_err, &manifold_residual,
      &rotation_per_step_max_deg, &rotation_per_step_mean_deg, &energy_initial, &energy_final, &min_pair_distance_min,
      &observable, &linear_integral_err, &cubic_integral_err, &adjoint_err, &reversibility_err, &poisson_err,
      &poisson_printed_err, &symmetry_err,
      &volume_err, &symplecticity_err, &lyapunov_exponent, &lyapunov_exponent_resolution, &probe_notes, &phase_shift_final,
      &shape_err_final,
      &lyapunov_increase_steps, &t, &min_pair_distance, &Pi, &q, &x, &Q, &orthogonality,
  };
  return every;
}

std::vector<const char*> suffixes(Family f) {
  switch (f) {
    case Family::error:
    case Family::tracked: return {kFinal, kMax};
    case Family::invariant:
    case Family::relative_invariant: return {kMax, kFinal, kDriftSlope, kDriftSlopeCi95, kClass, kBlocks};
    case Family::quantity: return {kMin, kMax, kFinal};
    case Family::scalar: return {""};
    case Family::series: return {};
  }
  return {};
}

std::string absolute_name(std::string_view relative_name) {
  return std::string(relative_name.substr(0, relative_name.find("_rel_err"))) + "_abs_err";
}

const Metric* find(std::string_view name) {
  for (const Metric* m : all())
    if (name == m->name) return m;
  return nullptr;
}

KeyOf resolve(std::string_view key) {
  for (const Metric* m : all()) {
    const std::string name = m->name;
    if (key == name) return {m, ""};  // a scalar, a series, or the series of an error or invariant
    std::vector<std::string> stems = {name};
    if (m->family == Family::relative_invariant) {
      stems.push_back(absolute_name(name));
      if (key == stems.back()) return {m, ""};  // the absolute error's series
    }
    for (const std::string& stem : stems) {
      if (key.size() <= stem.size() || key.substr(0, stem.size()) != stem) continue;
      const std::string_view rest = key.substr(stem.size());
      for (const char* suffix : suffixes(m->family))
        if (rest == suffix) return {m, suffix};
    }
  }
  return {};
}

}  // namespace gib::metrics
