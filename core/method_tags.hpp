// Method tags: what `gibench list methods` shows and what `--include tag:...` selects. A method's tags are its
// family (MethodInfo::family, from the closed list below), the properties its claims imply (explicit or implicit,
// symplectic, symmetric, volume_preserving, lyapunov_monotone, order<N> or, for a stochastic method, stochastic), and the few it declares because no claim
// implies them (MethodInfo::declared_tags). Nothing is typed twice: a claim and its tag cannot disagree.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "core/method.hpp"

namespace gib {

struct ProblemInfo;

struct MethodFamily {
  const char* id;    // the family tag
  const char* name;  // for plots and tables
};

// The closed list of families, in the order plots and listings show them.
const std::vector<MethodFamily>& method_families();
// The family's display name; throws std::logic_error for an id not in method_families().
const char* family_name(std::string_view family_id);

// The tags a method may declare (MethodInfo::declared_tags): those no claim implies.
const std::vector<std::string>& declarable_tags();

// The method's tags: family first, then explicit or implicit, the claimed properties, the declared tags, and
// order<N> (claims.order), or "stochastic" in its place (claims.stochastic).
std::vector<std::string> method_tags(const MethodInfo& m);
bool has_tag(const MethodInfo& m, std::string_view tag);

// Is the tag in the vocabulary (a family, a property, a declarable tag, or order<N> with N in 1..99)?
bool is_known_tag(std::string_view tag);

// A method selector, as --include/--exclude and sweep configs take them: a method id, or "tag:<tag>".
constexpr std::string_view kTagSelectorPrefix = "tag:";
bool is_tag_selector(std::string_view selector);
// Throws InputError("unknown tag ... (valid: ...)" or "unknown method ...") for a selector that names nothing
// known; `where` names the option or config key.
void check_selector(std::string_view selector, std::string_view where);
// Does the selector pick this method (its id, or one of its tags)? The selector must have passed check_selector.
bool selects(std::string_view selector, const MethodInfo& m);
// What a "tag:<tag>" selector asks for on a problem: the registered methods with the tag that can run on it, in
// registry order (rank --include and sweep configs alike).
std::vector<const MethodInfo*> tagged_methods(std::string_view selector, const ProblemInfo& problem);

}  // namespace gib
