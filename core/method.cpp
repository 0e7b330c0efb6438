#include "core/method.hpp"

#include <nlohmann/json.hpp>

#include "core/errors.hpp"
#include "core/user_input.hpp"

namespace gib {

JsonBox::JsonBox() : json_(std::make_unique<Json>(Json::object())) {}
JsonBox::JsonBox(const JsonBox& o) : json_(std::make_unique<Json>(*o.json_)) {}
JsonBox& JsonBox::operator=(const JsonBox& o) {
  *json_ = *o.json_;
  return *this;
}
JsonBox& JsonBox::operator=(const Json& j) {
  *json_ = j;
  return *this;
}
JsonBox& JsonBox::operator=(Json&& j) {
  *json_ = std::move(j);
  return *this;
}
JsonBox::~JsonBox() = default;

const char* to_string(Invariant i) {
  switch (i) {
    case Invariant::energy: return "energy";
    case Invariant::casimir: return "casimir";
    case Invariant::spatial_momentum: return "spatial_momentum";
    case Invariant::linear_momentum: return "linear_momentum";
    case Invariant::angular_momentum: return "angular_momentum";
    case Invariant::vertical_momentum: return "vertical_momentum";
    case Invariant::axial_momentum: return "axial_momentum";
    case Invariant::linear_integral: return "linear_integral";
    case Invariant::cubic_integral: return "cubic_integral";
  }
  return "?";
}

const InvariantClaim* MethodInfo::claim_for(Invariant inv, bool torque_free, bool uniform_field) const {
  for (const auto& c : claims.invariants) {
    if (c.invariant != inv) continue;
    if (c.when == Applies::always || torque_free || (c.when == Applies::uniform_field && uniform_field)) return &c;
  }
  return nullptr;
}

const MethodInfo& find_method(const std::string& id) {
  std::vector<std::string> valid;
  for (const auto& m : method_registry()) {
    if (m.id == id) return m;
    valid.push_back(m.id);
  }
  throw InputError(unknown_id_message("method", id, valid));
}

const MethodInfo& MethodCatalog::find(const std::string& id) const {
  for (const auto& m : overrides_)
    if (m.id == id) return m;
  return find_method(id);
}

const MethodCatalog& registry_catalog() {
  static const MethodCatalog catalog;
  return catalog;
}

}  // namespace gib
