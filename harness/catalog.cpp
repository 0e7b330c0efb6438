#include "harness/catalog.hpp"

#include <nlohmann/json.hpp>
#include <sstream>

#include "core/errors.hpp"
#include "core/method_tags.hpp"
#include "core/problem.hpp"
#include "core/user_input.hpp"
#include "harness/conformance.hpp"
#include "harness/reproduce.hpp"
#include "methods/from_file/method_file.hpp"

namespace gib {

std::string claims_text(const MethodInfo& m) {
  std::ostringstream s;
  if (m.claims.stochastic)
    s << "stochastic (samples the kinetic temperature 1/beta; seeded)";
  else
    s << "order " << m.claims.order;
  if (m.claims.finite_time_order > m.claims.order) s << " (up to " << m.claims.finite_time_order << " at finite T)";
  s << (m.claims.implicit ? ", implicit" : ", explicit")
    << (m.claims.symmetric ? ", symmetric" : "") << (m.claims.symplectic ? ", symplectic" : "")
    << (m.claims.stays_on_group ? ", on group" : "") << (m.torque_free_only ? ", torque-free bodies only" : "");
  for (const auto& c : m.claims.invariants)
    s << ", " << (c.how == Preservation::exact ? "exact " : "bounded ") << to_string(c.invariant)
      << (c.when == Applies::torque_free ? " (torque-free)" : c.when == Applies::uniform_field ? " (uniform field)" : "");
  return s.str();
}

const char* metric_family_name(metrics::Family f) {
  switch (f) {
    case metrics::Family::error: return "error";
    case metrics::Family::invariant: return "invariant";
    case metrics::Family::relative_invariant: return "relative_invariant";
    case metrics::Family::tracked: return "tracked";
    case metrics::Family::quantity: return "quantity";
    case metrics::Family::scalar: return "scalar";
    case metrics::Family::series: return "series";
  }
  return "?";
}

namespace {

const char* applies_name(Applies a) {
  switch (a) {
    case Applies::always: return "always";
    case Applies::torque_free: return "torque_free";
    case Applies::uniform_field: return "uniform_field";
  }
  return "?";
}

Json claims_json(const MethodInfo& m) {
  Json invariants = Json::array();
  for (const auto& c : m.claims.invariants)
    invariants.push_back({{"invariant", to_string(c.invariant)},
                          {"how", c.how == Preservation::exact ? "exact" : "bounded"},
                          {"when", applies_name(c.when)}});
  // A stochastic method has no trajectory order: null, not a number a reader would take for one.
  return {{"order", m.claims.stochastic ? Json(nullptr) : Json(m.claims.order)},
          {"finite_time_order", m.claims.stochastic ? Json(nullptr) : Json(m.claims.max_observable_order())},
          {"stochastic", m.claims.stochastic},
          {"implicit", m.claims.implicit},
          {"symmetric", m.claims.symmetric},
          {"symplectic", m.claims.symplectic},
          {"stays_on_group", m.claims.stays_on_group},
          {"volume_preserving", m.claims.volume_preserving},
          {"lyapunov_monotone", m.claims.lyapunov_monotone},
          {"invariants", invariants}};
}

// The order conditions a method file's coefficients were checked against (methods/from_file/), null for C++ methods.
Json order_conditions_json(const MethodInfo& m) {
  const from_file::OrderReport* r = from_file::definition_report(m.id);
  if (r == nullptr) return nullptr;
  Json conditions = Json::array();
  for (const auto& c : r->conditions)
    conditions.push_back({{"order", c.order}, {"name", c.name}, {"condition", c.condition}, {"holds", c.holds},
                          {"residual", c.residual}});
  return {{"claimed", r->claimed}, {"checked_to", r->checked_to}, {"order_met", r->order_met}, {"exact", r->exact},
          {"conditions", conditions}};
}

Json methods_json() {
  Json out = Json::array();
  for (const auto& m : method_registry()) {
    Json problems = Json::array();
    for (const auto& p : problem_registry())
      if (compatible(m, p)) problems.push_back(p.id);
    out.push_back({{"id", m.id},
                   {"name", m.display_name},
                   {"citation", m.citation},
                   {"source", m.source.empty() ? Json("built in") : Json(m.source)},
                   {"order_conditions", order_conditions_json(m)},
                   {"family", m.family},
                   {"family_name", family_name(m.family)},
                   {"tags", method_tags(m)},
                   {"claims", claims_json(m)},
                   {"claims_text", claims_text(m)},
                   {"torque_free_only", m.torque_free_only},
                   {"default_params", static_cast<const Json&>(m.default_params)},
                   {"problems", problems}});
  }
  return out;
}

Json problems_json() {
  Json out = Json::array();
  for (const auto& p : problem_registry()) {
    Json presets = Json::array(), parameters = Json::array(), methods = Json::array();
    for (const auto& pr : p.presets)
      presets.push_back({{"name", pr.name}, {"description", pr.description}, {"stress", pr.stress}, {"in_battery", pr.in_battery}});
    for (const auto& pa : p.parameters) parameters.push_back({{"name", pa.name}, {"description", pa.description}});
    for (const auto& m : method_registry())
      if (compatible(m, p)) methods.push_back(m.id);
    out.push_back({{"id", p.id},
                   {"name", p.display_name},
                   {"citation", p.citation},
                   {"kind", to_string(p.kind)},
                   {"torque_free", p.torque_free},
                   {"constrained", p.constrained},
                   {"presets", presets},
                   {"parameters", parameters},
                   {"methods", methods}});
  }
  return out;
}

// Rows are methods, columns problems; a cell is "" where the method runs, else why it cannot.
Json matrix_json() {
  Json problems = Json::array(), rows = Json::array();
  for (const auto& p : problem_registry()) problems.push_back(p.id);
  for (const auto& m : method_registry()) {
    Json why = Json::array();
    for (const auto& p : problem_registry()) why.push_back(incompatibility(m, p));
    rows.push_back({{"method", m.id}, {"incompatibility", why}});
  }
  return {{"problems", problems}, {"methods", rows}};
}

Json figures_json() {
  Json out = Json::array();
  for (const auto& f : load_figure_specs())
    out.push_back({{"id", f.id},
                   {"default", f.in_default_set},
                   {"title", f.spec.value("title", "")},
                   {"source", f.spec.value("source", "")}});
  return out;
}

Json metrics_json() {
  Json out = Json::array();
  for (const metrics::Metric* m : metrics::all()) {
    Json kinds = Json::array(), keys = Json::array();
    for (unsigned bit = 0; bit < 32; ++bit)
      if ((m->kinds & (1U << bit)) != 0) kinds.push_back(to_string(static_cast<ModelKind>(bit)));
    for (const char* suffix : metrics::suffixes(m->family)) keys.push_back(metrics::key(*m, suffix));
    out.push_back({{"name", m->name},
                   {"family", metric_family_name(m->family)},
                   {"definition", m->definition},
                   {"unit", m->unit},
                   {"kinds", kinds},
                   {"row_keys", keys}});
  }
  return out;
}

Json families_json() {
  Json out = Json::array();
  for (const auto& f : method_families()) out.push_back({{"id", f.id}, {"name", f.name}});
  return out;
}

}  // namespace

Json catalog_json(const std::string& what) {
  if (what == "methods") return methods_json();
  if (what == "problems") return problems_json();
  if (what == "matrix") return matrix_json();
  if (what == "figures") return figures_json();
  if (what == "metrics") return metrics_json();
  if (what == "all")
    return {{"kind", "gibench.catalog"},
            {"methods", methods_json()},
            {"families", families_json()},
            {"problems", problems_json()},
            {"matrix", matrix_json()},
            {"figures", figures_json()},
            {"metrics", metrics_json()}};
  throw InputError(unknown_id_message("list", what, {"methods", "problems", "matrix", "figures", "metrics", "all"}));
}

}  // namespace gib
