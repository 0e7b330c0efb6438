// The verdict row every figure check produces, and how a check's where-object selects rows.
#include "harness/figure_verdict.hpp"

#include <cmath>

#include "harness/json_util.hpp"

namespace gib {

// Every field of `where` must match the item's; numbers compare to 1e-12 relative, objects match as
// subsets (where {"method_params": {"ordering": "123"}} ignores the other parameters).
bool where_matches(const Json& item, const Json& where) {
  if (where.is_null()) return true;
  for (auto it = where.begin(); it != where.end(); ++it) {
    if (!item.contains(it.key())) return false;
    const Json& v = item[it.key()];
    if (v.is_object() && it.value().is_object()) {
      if (!where_matches(v, it.value())) return false;
    } else if (v.is_number() && it.value().is_number()) {
      if (std::abs(v.get<double>() - it.value().get<double>()) > 1e-12 * std::abs(it.value().get<double>()))
        return false;
    } else if (v != it.value()) {
      return false;
    }
  }
  return true;
}


Json figure_verdict(const Json& check, const Json& ours, bool reproduced, const std::string& why) {
  Json v;
  v["statement"] = check.value("statement", "");
  v["source"] = check.value("source", "");
  v["kind"] = check.value("kind", "");
  v["paper_value"] = check.value("paper_value", Json(nullptr));
  v["ours"] = ours;
  const Json& pv = v["paper_value"];
  v["ratio"] = (pv.is_number() && ours.is_number() && pv.get<double>() != 0)
                   ? json_number(ours.get<double>() / pv.get<double>())
                   : Json(nullptr);
  v["verdict"] = reproduced ? "reproduced" : "differs";
  std::string reason = check.value("reason", "");
  if (!why.empty()) reason = reason.empty() ? why : reason + " " + why;
  v["reason"] = reason;
  return v;
}

Json figure_not_comparable(const Json& check, const std::string& why) {
  Json v = figure_verdict(check, nullptr, false, why);
  v["verdict"] = "not_comparable";
  return v;
}

}  // namespace gib
