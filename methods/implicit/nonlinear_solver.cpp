#include "methods/implicit/nonlinear_solver.hpp"

#include <cmath>
#include <nlohmann/json.hpp>

#include "core/errors.hpp"

namespace gib::implicit {
namespace {

constexpr int kMaxIterCap = 100000;

[[noreturn]] void bad(const std::string& id, const std::string& key, const Json& v, const std::string& want) {
  throw InputError(id + " parameter " + key + "=" + v.dump() + " must be " + want);
}

SolverKind kind_from(const Json& v, const std::string& id) {
  if (v == "newton") return SolverKind::newton;
  if (v == "fixed_point") return SolverKind::fixed_point;
  bad(id, "solver", v, "\"newton\" or \"fixed_point\"");
}

StartKind start_from(const Json& v, const std::string& id) {
  if (v == "predictor") return StartKind::predictor;
  if (v == "previous") return StartKind::previous;
  bad(id, "start", v, "\"predictor\" or \"previous\"");
}

double tol_from(const Json& v, const std::string& id) {
  if (!v.is_number() || !(v.get<double>() > 0) || !(v.get<double>() < 1)) bad(id, "tol", v, "a number in (0, 1)");
  return v.get<double>();
}

int max_iter_from(const Json& v, const std::string& id) {
  if (!v.is_number_integer() || v.get<long long>() < 1 || v.get<long long>() > kMaxIterCap)
    // append, not "literal" + std::string&&: GCC 12 warns (-Warray-bounds, a false positive) on the latter once inlined.
    bad(id, "max_iter", v, std::string("an integer in 1..").append(std::to_string(kMaxIterCap)));
  return v.get<int>();
}

bool safeguard_from(const Json& v, const std::string& id) {
  if (!v.is_boolean()) bad(id, "safeguard", v, "true or false");
  return v.get<bool>();
}

}  // namespace

Json solver_default_params() {
  return {{"solver", "newton"}, {"start", "predictor"}, {"tol", 1e-14}, {"max_iter", 50}, {"safeguard", true}};
}

SolverOptions solver_options_from(const Json& params, const std::string& method_id) {
  SolverOptions o;
  o.kind = kind_from(params.at("solver"), method_id);
  o.start = start_from(params.at("start"), method_id);
  o.tol = tol_from(params.at("tol"), method_id);
  o.max_iter = max_iter_from(params.at("max_iter"), method_id);
  o.safeguard = safeguard_from(params.at("safeguard"), method_id);
  return o;
}

}  // namespace gib::implicit
