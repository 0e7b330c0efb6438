// FNV-1a, 64 bit, as 16 hex digits: names cells in journals and shards, problems in rows, and checksums the
// reference cache. Not cryptographic: it detects edits and corruption, not a forger.
#pragma once

#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>

namespace gib {

constexpr std::uint64_t kFnv1aOffsetBasis = 14695981039346656037ULL;

inline std::string fnv1a_hex(std::string_view text, std::uint64_t basis = kFnv1aOffsetBasis) {
  std::uint64_t h = basis;
  for (const unsigned char ch : text) {
    h ^= ch;
    h *= 1099511628211ULL;
  }
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(h));
  return buf;
}

}  // namespace gib
