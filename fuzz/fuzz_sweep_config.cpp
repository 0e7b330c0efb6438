// libFuzzer target: bytes -> JSON exactly as the CLI reads a config file (parse_json_text: duplicate keys and
// deep nesting rejected) -> parse_sweep -> check_sweep_cells, which builds every distinct problem and stepper
// of the sweep but runs none of them.
#include <cstddef>
#include <cstdint>
#include <string>

#include "core/method.hpp"
#include "fuzz/input_error_only.hpp"
#include "harness/json_util.hpp"
#include "harness/sweep.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  gib::fuzz::expect_input_error_only([&] {
    const gib::Json config = gib::parse_json_text(text, "fuzz");
    const gib::SweepSpec spec = gib::parse_sweep(config, "fuzz");
    gib::check_sweep_cells(spec, gib::registry_catalog());
  });
  return 0;
}
