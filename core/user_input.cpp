#include "core/user_input.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <limits>
#include <sstream>
#include <system_error>

#include "core/errors.hpp"

namespace gib {

namespace {

// Length of the well-formed UTF-8 sequence starting at s[i] (RFC 3629: no overlong forms, no surrogates,
// nothing beyond U+10FFFF), or 0.
std::size_t utf8_sequence(std::string_view s, std::size_t i) {
  const auto b = [&](std::size_t k) { return static_cast<unsigned char>(s[k]); };
  const unsigned char c = b(i);
  if (c < 0x80) return 1;
  std::size_t n = 0;
  unsigned char lo = 0x80, hi = 0xBF;  // the allowed range of the second byte
  if (c >= 0xC2 && c <= 0xDF) n = 2;
  else if (c >= 0xE0 && c <= 0xEF) {
    n = 3;
    if (c == 0xE0) lo = 0xA0;
    if (c == 0xED) hi = 0x9F;
  } else if (c >= 0xF0 && c <= 0xF4) {
    n = 4;
    if (c == 0xF0) lo = 0x90;
    if (c == 0xF4) hi = 0x8F;
  } else {
    return 0;
  }
  if (i + n > s.size() || b(i + 1) < lo || b(i + 1) > hi) return 0;
  for (std::size_t k = 2; k < n; ++k)
    if (b(i + k) < 0x80 || b(i + k) > 0xBF) return 0;
  return n;
}

[[noreturn]] void refuse(std::string_view what, std::string_view text, const char* why) {
  throw InputError(std::string(what) + ": " + (text.empty() ? std::string("an empty string") : quote_excerpt(text)) +
                   " " + why);
}

// -?(0|[1-9][0-9]*) from position i; returns the position after it, or npos.
std::size_t scan_integer_part(std::string_view t, std::size_t i) {
  if (i < t.size() && t[i] == '-') ++i;
  if (i >= t.size() || t[i] < '0' || t[i] > '9') return std::string_view::npos;
  if (t[i] == '0') return i + 1;
  while (i < t.size() && t[i] >= '0' && t[i] <= '9') ++i;
  return i;
}

std::size_t scan_digits(std::string_view t, std::size_t i) {
  const std::size_t start = i;
  while (i < t.size() && t[i] >= '0' && t[i] <= '9') ++i;
  return i > start ? i : std::string_view::npos;
}

// The power of ten of a nonzero number in the JSON grammar (1.5e3 -> 3, 0.02 -> -2), saturating far beyond
// what a double holds; which way a number is out of range.
long long decimal_magnitude(std::string_view t) {
  const std::size_t e = std::min(t.find_first_of("eE"), t.size());
  const std::string_view mantissa = t.substr(0, e);
  const std::size_t point = std::min(mantissa.find('.'), mantissa.size());
  long long exponent = 0;
  for (std::size_t i = e + 1; i < t.size(); ++i)
    if (t[i] >= '0' && t[i] <= '9') exponent = std::min(exponent * 10 + (t[i] - '0'), 1'000'000'000LL);
  if (e + 1 < t.size() && t[e + 1] == '-') exponent = -exponent;
  for (std::size_t i = 0; i < mantissa.size(); ++i) {
    if (mantissa[i] < '1' || mantissa[i] > '9') continue;
    const auto position = static_cast<long long>(i < point ? point - i - 1 : 0) - static_cast<long long>(i > point ? i - point : 0);
    return exponent + position;
  }
  return 0;
}

constexpr const char* kGrammar =
    "is not a number (decimal as in JSON: digits with an optional '-', fraction and exponent; no hex, no leading "
    "'+', '.' or 0, no inf or nan, no spaces)";

}  // namespace

std::string quote_excerpt(std::string_view text, std::size_t max_bytes) {
  static const char* hex = "0123456789abcdef";
  std::string out = "'";
  std::size_t i = 0;
  while (i < text.size() && i < max_bytes) {
    const unsigned char c = static_cast<unsigned char>(text[i]);
    const std::size_t n = utf8_sequence(text, i);
    if (n > 1) {
      out.append(text.substr(i, n));
      i += n;
      continue;
    }
    ++i;
    if (c == '\'' || c == '\\') {
      out += '\\';
      out += static_cast<char>(c);
    } else if (c == '\n') {
      out += "\\n";
    } else if (c == '\r') {
      out += "\\r";
    } else if (c == '\t') {
      out += "\\t";
    } else if (c < 0x20 || c == 0x7F || n == 0) {
      out += "\\x";
      out += hex[c >> 4];
      out += hex[c & 15];
    } else {
      out += static_cast<char>(c);
    }
  }
  out += '\'';
  if (i < text.size()) out += "... (" + std::to_string(text.size()) + " bytes)";
  return out;
}

std::string number_text(double x) {
  if (std::isnan(x)) return "nan";
  if (std::isinf(x)) return x > 0 ? "inf" : "-inf";
  char buf[64];
  const auto r = std::to_chars(buf, buf + sizeof buf, x);
  return std::string(buf, r.ptr);
}

std::string short_number(double x, int digits) {
  std::ostringstream s;
  s.precision(digits);
  s << x;
  return s.str();
}

std::string unknown_id_message(std::string_view what, std::string_view id, const std::vector<std::string>& valid,
                               std::string_view context) {
  constexpr std::size_t kListBytes = 400;
  std::string list;
  std::size_t shown = 0;
  for (const auto& v : valid) {
    if (list.size() + v.size() > kListBytes) break;
    list += (shown++ == 0 ? "" : ", ") + v;
  }
  if (shown < valid.size()) list += ", ... (" + std::to_string(valid.size() - shown) + " more)";
  return "unknown " + std::string(what) + " " + quote_excerpt(id) + std::string(context) + " (valid: " + list + ")";
}

bool is_json_number(std::string_view t) {
  std::size_t i = scan_integer_part(t, 0);
  if (i != std::string_view::npos && i < t.size() && t[i] == '.') i = scan_digits(t, i + 1);
  if (i != std::string_view::npos && i < t.size() && (t[i] == 'e' || t[i] == 'E')) {
    ++i;
    if (i < t.size() && (t[i] == '+' || t[i] == '-')) ++i;
    i = scan_digits(t, i);
  }
  return i == t.size();
}

double parse_double(std::string_view text, std::string_view what) {
  if (!is_json_number(text)) refuse(what, text, kGrammar);
  double x = 0;
  const auto r = std::from_chars(text.data(), text.data() + text.size(), x);
  if (r.ec == std::errc::result_out_of_range)
    refuse(what, text, decimal_magnitude(text) < 0 ? "is too small for a double (it would round to 0)"
                                                   : "is too large for a double");
  if (r.ec != std::errc() || r.ptr != text.data() + text.size()) refuse(what, text, kGrammar);
  return x;
}

std::int64_t parse_integer(std::string_view text, std::string_view what, std::int64_t lo, std::int64_t hi) {
  if (scan_integer_part(text, 0) != text.size()) {
    if (is_json_number(text)) refuse(what, text, "is not an integer (digits only: no fraction, no exponent)");
    refuse(what, text, "is not an integer (decimal digits with an optional '-'; no hex, no leading '+' or 0, no spaces)");
  }
  std::int64_t v = 0;
  const auto r = std::from_chars(text.data(), text.data() + text.size(), v);
  if (r.ec != std::errc() || v < lo || v > hi)
    throw InputError(std::string(what) + ": " + quote_excerpt(text) + " is out of range (" + std::to_string(lo) +
                     ".." + std::to_string(hi) + ")");
  return v;
}

namespace {

// Calls item(text of item k, "<what> (item k)") for every comma-separated item, empty ones included.
template <class Item> void for_each_item(std::string_view text, std::string_view what, const Item& item) {
  std::size_t start = 0;
  for (std::size_t k = 1;; ++k) {
    const std::size_t comma = text.find(',', start);
    item(text.substr(start, comma == std::string_view::npos ? text.npos : comma - start),
         std::string(what) + " (item " + std::to_string(k) + ")");
    if (comma == std::string_view::npos) return;
    start = comma + 1;
  }
}

}  // namespace

std::vector<double> parse_double_list(std::string_view text, std::string_view what) {
  std::vector<double> out;
  for_each_item(text, what, [&](std::string_view item, const std::string& item_what) { out.push_back(parse_double(item, item_what)); });
  return out;
}

std::vector<std::string> parse_id_list(std::string_view text, std::string_view what) {
  std::vector<std::string> out;
  for_each_item(text, what, [&](std::string_view item, const std::string& item_what) {
    if (item.empty()) throw InputError(item_what + ": an empty id");
    out.emplace_back(item);
  });
  return out;
}

std::optional<std::uint64_t> random_ic_index(const std::string& ic) {
  if (ic == "preset") return std::nullopt;
  constexpr std::string_view prefix = "random:";
  if (ic.rfind(prefix, 0) != 0)
    throw InputError("initial condition " + quote_excerpt(ic) + " must be \"preset\" or \"random:K\" with an integer K >= 1");
  const std::string what = "initial condition " + quote_excerpt(ic) + ": K of random:K";
  return static_cast<std::uint64_t>(
      parse_integer(std::string_view(ic).substr(prefix.size()), what, 1, std::numeric_limits<std::int64_t>::max()));
}

}  // namespace gib
