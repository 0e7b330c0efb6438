// Reading what the user typed, strictly, and quoting it back briefly. One number grammar for the command line
// and the JSON inputs (a --h the config would refuse must not pass on the command line), and one way to put
// user text into an error, so a 100 MB name or a control byte cannot turn the one-line error into something else.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gib {

// At most this many bytes of user input appear in an error message.
constexpr std::size_t kExcerptBytes = 60;

// text in single quotes, cut after max_bytes (never inside a UTF-8 sequence) with "..." and the full size;
// control bytes, bytes that are not UTF-8, the quote and the backslash escaped (\n, \x01, \', \\).
std::string quote_excerpt(std::string_view text, std::size_t max_bytes = kExcerptBytes);

// The shortest decimal that reads back as x (2.0000000001, not 2): numbers in error messages.
std::string number_text(double x);
// x to `digits` significant digits, as a stream prints it (0.00518, 1.5e-16, inf): numbers in a check's one-line
// detail and in a method file's order-condition residuals.
std::string short_number(double x, int digits = 3);

// "unknown <what> 'id'<context> (valid: a, b, ...)", the list cut to a few hundred bytes.
std::string unknown_id_message(std::string_view what, std::string_view id, const std::vector<std::string>& valid,
                               std::string_view context = "");

// RFC 8259's number grammar: -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)? and nothing else (no hex, no leading
// '+', '.' or 0, no inf or nan, no whitespace, not empty).
bool is_json_number(std::string_view text);

// A number in that grammar as a double; InputError("<what>: ...") otherwise, or when it overflows or is
// nonzero but rounds to 0 (a subnormal is fine).
double parse_double(std::string_view text, std::string_view what);

// An integer written with digits only, -?(0|[1-9][0-9]*), within lo..hi; InputError("<what>: ...") otherwise.
std::int64_t parse_integer(std::string_view text, std::string_view what, std::int64_t lo, std::int64_t hi);

// Comma-separated numbers, each one parse_double; an empty item is an error, not skipped.
std::vector<double> parse_double_list(std::string_view text, std::string_view what);
// Comma-separated ids (method ids, precisions); an empty item is an error, not skipped.
std::vector<std::string> parse_id_list(std::string_view text, std::string_view what);

// An initial condition: "preset" (nullopt) or "random:K" with K a positive integer (parse_integer); anything
// else, "random: 1" and "random:+1" included, throws InputError.
std::optional<std::uint64_t> random_ic_index(const std::string& ic);

}  // namespace gib
