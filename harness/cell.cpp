#include "harness/cell.hpp"

#include <algorithm>
#include <cmath>

#include "core/errors.hpp"
#include "core/method.hpp"
#include "core/problem.hpp"
#include "core/user_input.hpp"

namespace gib {

bool ObserveOptions::series(const std::string& name) const {
  return std::find(series_extra.begin(), series_extra.end(), name) != series_extra.end();
}

bool ObserveOptions::probe(const std::string& name) const {
  return std::find(probes.begin(), probes.end(), name) != probes.end();
}

std::int64_t steps_for(double T, double h) {
  if (!std::isfinite(T) || T <= 0) throw InputError("T must be a positive finite number, got " + Json(T).dump());
  if (!std::isfinite(h) || h <= 0) throw InputError("h must be a positive finite number, got " + Json(h).dump());
  const double n = std::round(T / h);
  if (n < 1 || n > 1e12 || std::abs(n * h - T) > 1e-9 * T) {
    throw InputError("T = " + Json(T).dump() + " is not a whole number of steps h = " + Json(h).dump() +
                     " (give --steps instead)");
  }
  return static_cast<std::int64_t>(n);
}

void validate_cell(const Cell& cell, const MethodCatalog& methods) {
  if (!std::isfinite(cell.h) || cell.h <= 0) throw InputError("h must be a positive finite number, got " + Json(cell.h).dump());
  if (cell.steps < 1) throw InputError("the number of steps must be at least 1, got " + std::to_string(cell.steps));
  if (!std::isfinite(cell.h * static_cast<double>(cell.steps))) throw InputError("T = steps * h is not finite");
  const ProblemInfo& p = find_problem(cell.problem);
  if (!cell.preset.empty()) {
    bool known = false;
    std::vector<std::string> valid;
    for (const auto& pr : p.presets) {
      known = known || pr.name == cell.preset;
      valid.push_back(pr.name);
    }
    if (!known) throw InputError(unknown_id_message("preset", cell.preset, valid, " for problem " + p.id));
  }
  methods.find(cell.method);
}

}  // namespace gib
