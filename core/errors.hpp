// Bad input gets one clear line and a non-zero exit (standards: "Bad input"). Everything the user can
// get wrong throws InputError with a message that names the offending value; the CLI prints
// "gibench: error: <message>" and exits 2.
#pragma once

#include <stdexcept>
#include <string>

namespace gib {

class InputError : public std::runtime_error {
 public:
  explicit InputError(const std::string& what) : std::runtime_error(what) {}
};

}  // namespace gib
