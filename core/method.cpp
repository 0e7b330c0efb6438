#include "core/method.hpp"

#include "core/errors.hpp"

namespace gib {

const char* to_string(Invariant i) {
  switch (i) {
    case Invariant::energy: return "energy";
    case Invariant::casimir: return "casimir";
    case Invariant::spatial_momentum: return "spatial_momentum";
    case Invariant::linear_momentum: return "linear_momentum";
    case Invariant::angular_momentum: return "angular_momentum";
  }
  return "?";
}

const InvariantClaim* MethodInfo::claim_for(Invariant inv, bool torque_free) const {
  for (const auto& c : claims.invariants)
    if (c.invariant == inv && (c.when == Applies::always || torque_free)) return &c;
  return nullptr;
}

const MethodInfo& find_method(const std::string& id) {
  for (const auto& m : method_registry())
    if (m.id == id) return m;
  throw InputError("unknown method '" + id + "' (gibench list methods shows the registered ids)");
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
