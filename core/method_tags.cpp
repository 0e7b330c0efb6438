#include "core/method_tags.hpp"

#include <algorithm>
#include <stdexcept>

#include "core/errors.hpp"
#include "core/problem.hpp"
#include "core/user_input.hpp"

namespace gib {

const std::vector<MethodFamily>& method_families() {
  // The ids are those the methods' factories set, so that MethodInfo::family is the one place a family is named.
  static const std::vector<MethodFamily> families = {
      {"rkmk", "Runge-Kutta-Munthe-Kaas"},
      {"crouch_grossman", "Crouch-Grossman"},
      {"commutator_free", "Commutator-free Lie group"},
      {"buss", "Buss (Taylor, Simo-Wong, AB-AM)"},
      {"splitting", "Splitting / composition"},
      {"krysl", "Krysl implicit"},
      {"zhang_skeel", "Zhang-Skeel / Newtonian"},
      {"lie_variational", "Lie-group variational"},
      {"classical", "Classical Runge-Kutta"},
      {"volume", "Volume-preserving"},
      {"discrete_gradient", "Discrete gradient"},
      {"projection", "Projection"},
  };
  return families;
}

const char* family_name(std::string_view family_id) {
  for (const auto& f : method_families())
    if (family_id == f.id) return f.name;
  throw std::logic_error("family_name: '" + std::string(family_id) + "' is not a method family");
}

const std::vector<std::string>& declarable_tags() {
  // energy_corrected: Buss's "+EC", the energy reset to its initial value after each step. Claims cannot say it:
  // an exactly kept energy is also what a discrete gradient or AKW claims.
  static const std::vector<std::string> tags = {"energy_corrected"};
  return tags;
}

namespace {

// The property tags claims imply, in the order method_tags lists them.
const std::vector<std::string>& claim_tags() {
  static const std::vector<std::string> tags = {"explicit", "implicit", "symplectic", "symmetric", "volume_preserving",
                                                "lyapunov_monotone", "stochastic"};
  return tags;
}

constexpr int kMaxOrderTag = 99;

bool is_order_tag(std::string_view tag) {
  constexpr std::string_view prefix = "order";
  if (tag.substr(0, prefix.size()) != prefix) return false;
  const std::string_view digits = tag.substr(prefix.size());
  if (digits.empty() || digits.size() > 2 || digits.front() == '0') return false;
  if (!std::all_of(digits.begin(), digits.end(), [](char c) { return c >= '0' && c <= '9'; })) return false;
  return std::stoi(std::string(digits)) <= kMaxOrderTag;
}

std::vector<std::string> vocabulary() {
  std::vector<std::string> out;
  for (const auto& f : method_families()) out.emplace_back(f.id);
  for (const auto& t : claim_tags()) out.push_back(t);
  for (const auto& t : declarable_tags()) out.push_back(t);
  out.emplace_back("order<N>");
  return out;
}

}  // namespace

std::vector<std::string> method_tags(const MethodInfo& m) {
  std::vector<std::string> tags = {m.family, m.claims.implicit ? "implicit" : "explicit"};
  if (m.claims.symplectic) tags.emplace_back("symplectic");
  if (m.claims.symmetric) tags.emplace_back("symmetric");
  if (m.claims.volume_preserving) tags.emplace_back("volume_preserving");
  if (m.claims.lyapunov_monotone) tags.emplace_back("lyapunov_monotone");
  for (const auto& t : m.declared_tags) tags.push_back(t);
  // A stochastic method has no trajectory order (MethodClaims::stochastic): "stochastic" takes the order tag's place.
  tags.push_back(m.claims.stochastic ? std::string("stochastic") : "order" + std::to_string(m.claims.order));
  return tags;
}

bool has_tag(const MethodInfo& m, std::string_view tag) {
  const auto tags = method_tags(m);
  return std::find(tags.begin(), tags.end(), tag) != tags.end();
}

bool is_known_tag(std::string_view tag) {
  for (const auto& f : method_families())
    if (tag == f.id) return true;
  for (const auto* list : {&claim_tags(), &declarable_tags()})
    if (std::find(list->begin(), list->end(), tag) != list->end()) return true;
  return is_order_tag(tag);
}

bool is_tag_selector(std::string_view selector) {
  return selector.substr(0, kTagSelectorPrefix.size()) == kTagSelectorPrefix;
}

void check_selector(std::string_view selector, std::string_view where) {
  if (!is_tag_selector(selector)) {
    find_method(std::string(selector));
    return;
  }
  const std::string_view tag = selector.substr(kTagSelectorPrefix.size());
  if (!is_known_tag(tag)) throw InputError(unknown_id_message("tag", tag, vocabulary(), std::string(" in ") + std::string(where)));
}

bool selects(std::string_view selector, const MethodInfo& m) {
  if (is_tag_selector(selector)) return has_tag(m, selector.substr(kTagSelectorPrefix.size()));
  return selector == m.id;
}

std::vector<const MethodInfo*> tagged_methods(std::string_view selector, const ProblemInfo& problem) {
  std::vector<const MethodInfo*> out;
  for (const auto& m : method_registry())
    if (selects(selector, m) && compatible(m, problem)) out.push_back(&m);
  return out;
}

}  // namespace gib
