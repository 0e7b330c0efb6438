// Fields of a JSON document gibench wrote once and reads back after anyone could edit it (a shard file for
// merge, a recorded baseline for check). Each access checks the field's type and range and names the file and
// the field in the InputError, so a hand-edited or truncated document is bad input, never a nlohmann
// type_error reported as an internal error.
#pragma once

#include <cstdint>
#include <string>

#include "harness/json_util.hpp"

namespace gib {

enum class JsonKind { object, array, string, number, integer, boolean };

// j itself, of that kind; where names it: "shard.json:" for the document, "shard.json: outcomes[3].row" inside.
const Json& json_expect(const Json& j, JsonKind kind, const std::string& where);

// j[key] of that kind; InputError("<where>.<key>: missing") when absent ("shard.json: key" at the document).
const Json& json_field(const Json& j, const std::string& key, JsonKind kind, const std::string& where);

// j[key] of that kind, or nullptr when absent or null.
const Json* json_optional_field(const Json& j, const std::string& key, JsonKind kind, const std::string& where);

// j[key], an integer within lo..hi.
std::int64_t json_integer_field(const Json& j, const std::string& key, std::int64_t lo, std::int64_t hi,
                                const std::string& where);

}  // namespace gib
