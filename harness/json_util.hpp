// JSON helpers shared by every results writer: finite numbers only (NaN/Inf become null), counters,
// strict parsing with one-line errors, and JSON written through core/safe_file.hpp.
#pragma once

#include <cstdint>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>

#include "core/counters.hpp"
#include "core/safe_file.hpp"
#include "core/user_input.hpp"  // short_number, which most users of this header print with

namespace gib {

using Json = nlohmann::json;

// A finite double, or null.
Json json_number(double x);


// A row's `cost` object: every counter, the currency (OpCounters::function_evals and work) and per-step values.
Json counters_json(const OpCounters& c);

// One field of a row's `cost` object as a number: the stored value when the row carries it. Otherwise, for a cost
// object with steps, it is derived: a missing counter is 0 (stored rank rows leave zeros out), the currency fields
// (function_evals, work: absent from files written before them) come from the component counts through OpCounters,
// and any X_per_step is X over the steps, so an old row, a stored row and a fresh one give the same work. NaN when
// the field is neither stored nor derivable (no cost object, one without steps, an unknown name). Every reader of
// costs goes through this.
double cost_value(const Json& cost, const std::string& field);

// The cost object in its stored form: what cost_value derives (zero counters, the currency and every per-step
// value) left out, so that cost_value(stored, f) == cost_value(full, f) for every field counters_json writes.
Json stored_cost(const Json& cost);

// Parse JSON text; throws InputError("<where>: <what is wrong>") on empty or malformed text, a key
// repeated within one object (nlohmann would silently keep the last one), nesting deeper than
// kMaxJsonDepth, or a number parse_double refuses (core/user_input.hpp: one that rounds to 0). A UTF-8 byte
// order mark at the start is skipped (RFC 8259 allows it).
constexpr int kMaxJsonDepth = 64;
Json parse_json_text(const std::string& text, const std::string& where);

// The whole content of a regular file of at most max_bytes; throws InputError("<path>: ...") on a missing file,
// a directory, anything else that is not a regular file (a FIFO or /dev/zero would block or never end) and a
// larger file, before reading more than max_bytes.
constexpr std::uintmax_t kMaxInputFileBytes = std::uintmax_t{64} << 20;  // 64 MiB (README, Bad input)
std::string read_input_file(const std::filesystem::path& path, std::uintmax_t max_bytes = kMaxInputFileBytes);

// parse_json_text on read_input_file's content.
Json read_json_file(const std::filesystem::path& path);

// write_file_atomic (core/safe_file.hpp) of dump_lines(j): one line per top-level field and per element of
// a top-level array.
void write_json_atomic(const std::filesystem::path& path, const Json& j);
std::string dump_lines(const Json& j);

}  // namespace gib
