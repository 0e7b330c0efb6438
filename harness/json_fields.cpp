#include "harness/json_fields.hpp"

#include <cstdint>

#include "core/errors.hpp"
#include "core/user_input.hpp"

namespace gib {

namespace {

const char* kind_name(JsonKind kind) {
  switch (kind) {
    case JsonKind::object: return "an object";
    case JsonKind::array: return "an array";
    case JsonKind::string: return "a string";
    case JsonKind::number: return "a number";
    case JsonKind::integer: return "an integer";
    case JsonKind::boolean: return "true or false";
  }
  return "?";
}

bool is(const Json& j, JsonKind kind) {
  switch (kind) {
    case JsonKind::object: return j.is_object();
    case JsonKind::array: return j.is_array();
    case JsonKind::string: return j.is_string();
    case JsonKind::number: return j.is_number();
    case JsonKind::integer: return j.is_number_integer();
    case JsonKind::boolean: return j.is_boolean();
  }
  return false;
}

// where names an object: "file.json:" (the document, a root) or "file.json: outcomes[3]" (a value inside it).
std::string field_path(const std::string& where, const std::string& key) {
  return !where.empty() && where.back() == ':' ? where + " " + key : where + "." + key;
}

}  // namespace

const Json& json_expect(const Json& j, JsonKind kind, const std::string& where) {
  if (!is(j, kind)) throw InputError(where + " must be " + kind_name(kind) + ", got " + quote_excerpt(j.dump(), 40));
  return j;
}

const Json& json_field(const Json& j, const std::string& key, JsonKind kind, const std::string& where) {
  json_expect(j, JsonKind::object, where);
  const auto it = j.find(key);
  if (it == j.end()) throw InputError(field_path(where, key) + ": missing");
  return json_expect(*it, kind, field_path(where, key));
}

const Json* json_optional_field(const Json& j, const std::string& key, JsonKind kind, const std::string& where) {
  json_expect(j, JsonKind::object, where);
  const auto it = j.find(key);
  if (it == j.end() || it->is_null()) return nullptr;
  return &json_expect(*it, kind, field_path(where, key));
}

std::int64_t json_integer_field(const Json& j, const std::string& key, std::int64_t lo, std::int64_t hi,
                                const std::string& where) {
  const Json& v = json_field(j, key, JsonKind::integer, where);
  // nlohmann keeps a value above int64 as an unsigned, which get<std::int64_t> would wrap.
  const bool beyond_int64 = v.is_number_unsigned() && v.get<std::uint64_t>() > static_cast<std::uint64_t>(INT64_MAX);
  if (beyond_int64 || v.get<std::int64_t>() < lo || v.get<std::int64_t>() > hi)
    throw InputError(field_path(where, key) + ": " + quote_excerpt(v.dump()) + " is out of range (" + std::to_string(lo) +
                     ".." + std::to_string(hi) + ")");
  return v.get<std::int64_t>();
}

}  // namespace gib
