// Test helpers for bad-input cases: the InputError message a call throws, or "(accepted)".
#pragma once

#include <string>

#include "core/errors.hpp"

namespace gib_test {

template <class F> std::string error_of(F f) {
  try {
    f();
  } catch (const gib::InputError& e) {
    return e.what();
  }
  return "(accepted)";
}

inline bool contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

}  // namespace gib_test
