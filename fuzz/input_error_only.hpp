// The one verdict both fuzz targets apply: bad input must end in gib::InputError (what the CLI turns into
// "gibench: error: ..." and exit 2). Any other exception is a finding, so it aborts and libFuzzer keeps the
// input; sanitizer reports abort on their own.
#pragma once

#include <cstdio>
#include <cstdlib>
#include <exception>

#include "core/errors.hpp"

namespace gib::fuzz {

template <class F> void expect_input_error_only(F&& body) {
  try {
    body();
  } catch (const InputError&) {
    // the expected outcome of bad input
  } catch (const std::exception& e) {
    std::fprintf(stderr, "fuzz finding: exception other than InputError escaped: %s\n", e.what());
    std::abort();
  } catch (...) {
    std::fprintf(stderr, "fuzz finding: non-standard exception escaped\n");
    std::abort();
  }
}

}  // namespace gib::fuzz
