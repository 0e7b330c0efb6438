#include "methods/zhang_skeel/params.hpp"

#include <cmath>
#include <nlohmann/json.hpp>
#include <string>

#include "core/errors.hpp"

namespace gib::zhang_skeel {

Json beta_default_params() { return Json{{"beta", kDefaultBeta}}; }

double beta_from(const Json& params, const std::string& method_id) {
  if (!params.is_object() || !params.contains("beta")) return kDefaultBeta;
  const Json& b = params.at("beta");
  if (!b.is_number()) throw InputError("method " + method_id + ": parameter beta must be a number, got " + b.dump());
  const double beta = b.get<double>();
  if (!std::isfinite(beta) || beta < 0)
    throw InputError("method " + method_id + ": parameter beta must be finite and >= 0, got " + std::to_string(beta));
  return beta;
}

}  // namespace gib::zhang_skeel
