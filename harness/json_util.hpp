// JSON helpers shared by every results writer: finite numbers only (NaN/Inf become null), counters,
// reading files with one-line errors, and atomic writes (temporary file + rename).
#pragma once

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>

#include "core/counters.hpp"

namespace gib {

using Json = nlohmann::json;

// A finite double, or null.
Json json_number(double x);

Json counters_json(const OpCounters& c);

// Parse a JSON file; throws InputError("<path>: <what is wrong>") on a missing or malformed file.
Json read_json_file(const std::filesystem::path& path);

// Write text to path atomically: temporary file in the same directory, flush, rename. Creates parent
// directories. Either the complete file exists afterwards, or the previous content is untouched.
void write_file_atomic(const std::filesystem::path& path, const std::string& text);
// Written with one line per top-level field and per element of a top-level array (dump_lines).
void write_json_atomic(const std::filesystem::path& path, const Json& j);
std::string dump_lines(const Json& j);

}  // namespace gib
