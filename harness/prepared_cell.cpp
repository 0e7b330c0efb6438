#include "harness/prepared_cell.hpp"

#include "core/errors.hpp"
#include "harness/model_kinds.hpp"

namespace gib {

Json merge_method_params(const MethodInfo& method, const Json& given) {
  Json merged = method.default_params->is_object() ? *method.default_params : Json::object();
  if (given.is_null()) return merged;
  if (!given.is_object()) throw InputError("method parameters for " + method.id + " must be a JSON object");
  for (auto it = given.begin(); it != given.end(); ++it) {
    if (!merged.contains(it.key())) {
      std::string valid;
      for (auto d = merged.begin(); d != merged.end(); ++d) valid += " " + d.key();
      throw InputError("unknown parameter '" + it.key() + "' for method " + method.id +
                       (valid.empty() ? " (it takes none)" : " (valid:" + valid + ")"));
    }
    // --param ordering=123 parses as a number; a parameter whose default is a digit string takes it as
    // its digits, so rows store one canonical form whatever way the value was given. (Parameters such
    // as RKMK's truncation, "thesis" or an integer, keep integers as integers.)
    const Json& def = merged[it.key()];
    const bool digit_string = def.is_string() && !def.get<std::string>().empty() &&
                              def.get<std::string>().find_first_not_of("0123456789") == std::string::npos;
    if (digit_string && it.value().is_number_integer())
      merged[it.key()] = std::to_string(it.value().get<long long>());
    else
      merged[it.key()] = it.value();
  }
  return merged;
}

std::unique_ptr<Problem> make_problem(const Cell& cell) {
  const ProblemInfo& info = find_problem(cell.problem);
  const std::string preset = cell.preset.empty() ? info.presets.front().name : cell.preset;
  return info.make(preset, cell.overrides, cell.ic);
}

Json cell_identity(const Cell& cell, const Problem& problem, const Json& method_params) {
  Json row;
  row["problem"] = problem.id();
  row["preset"] = problem.preset();
  row["param_hash"] = problem.parameter_hash();
  row["params"] = problem.parameters();
  row["overrides"] = cell.overrides.is_null() ? Json::object() : cell.overrides;
  row["ic"] = cell.ic;
  row["method"] = cell.method;
  row["method_params"] = method_params;
  row["h"] = cell.h;
  row["T"] = cell.h * static_cast<double>(cell.steps);
  row["steps"] = cell.steps;
  row["rep"] = cell.rep;
  return row;
}

PreparedCell prepare_cell(const Cell& cell, const MethodCatalog& methods) {
  validate_cell(cell, methods);
  const MethodInfo& method = methods.find(cell.method);
  // The method's own checks first: a bad parameter or an incompatible problem is reported before the problem
  // (with a reference that can be costly) is built.
  PreparedCell p{cell, &method, merge_method_params(method, cell.method_params), nullptr};
  if (const std::string why = incompatibility(method, find_problem(cell.problem)); !why.empty()) throw InputError(why);
  p.problem = make_problem(cell);
  check_series_options(*p.problem, cell.observe);
  probe_stepper(method, *p.problem, p.params);
  return p;
}

}  // namespace gib
