// A problem's presets as a constant table of structs with a `name` member: the entry a preset name selects, or an
// InputError listing the valid names.
#pragma once

#include <string>

#include "core/errors.hpp"
#include "core/user_input.hpp"

namespace gib {

template <class Preset, std::size_t N>
const Preset& find_preset(const Preset (&table)[N], const std::string& name, const std::string& problem) {
  std::string valid;
  for (const Preset& p : table) {
    if (name == p.name) return p;
    if (!valid.empty()) valid += ' ';
    valid += p.name;
  }
  throw InputError("unknown preset " + quote_excerpt(name) + " for problem " + problem + " (valid: " + valid + ")");
}

}  // namespace gib
