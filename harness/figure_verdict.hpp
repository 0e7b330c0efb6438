// The verdict row of a figure check (results/SCHEMA.md, checks[k]) and row selection by where-objects,
// shared by harness/reproduce.cpp and the check kinds in their own files.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

namespace gib {

using Json = nlohmann::json;

// Every field of `where` must match the item's; numbers compare to 1e-12 relative, objects match as
// subsets (where {"method_params": {"ordering": "123"}} ignores the other parameters). Null matches all.
bool where_matches(const Json& item, const Json& where);

// statement, source, kind, paper_value, ours, ratio (ours / paper where both are numbers), verdict
// ("reproduced" or "differs") and reason (the check's reason, then `why`).
Json figure_verdict(const Json& check, const Json& ours, bool reproduced, const std::string& why);
Json figure_not_comparable(const Json& check, const std::string& why);

}  // namespace gib
