// libFuzzer target for `--set key=value ...`: the first line of the input names the problem, every further
// line is one --set item. The items go through parse_assignments as the CLI's, then the cell (with the first
// method that can run on the problem) is validated and its problem built, as `gibench run` does before
// stepping.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "core/method.hpp"
#include "core/problem.hpp"
#include "fuzz/input_error_only.hpp"
#include "harness/cell.hpp"
#include "harness/commands.hpp"
#include "harness/runner.hpp"

namespace {

std::vector<std::string> split_lines(const std::string& text) {
  std::vector<std::string> out;
  std::size_t start = 0;
  for (std::size_t nl; (nl = text.find('\n', start)) != std::string::npos; start = nl + 1)
    out.push_back(text.substr(start, nl - start));
  out.push_back(text.substr(start));
  return out;
}

const gib::MethodInfo& first_compatible_method(const gib::ProblemInfo& p) {
  for (const auto& m : gib::method_registry())
    if (gib::compatible(m, p)) return m;
  return gib::method_registry().front();  // validate_cell still runs; make_problem does not need a method
}

void build_cell(const std::vector<std::string>& lines) {
  const gib::ProblemInfo& problem = gib::find_problem(lines.front());
  gib::Cell c;
  c.problem = problem.id;
  c.method = first_compatible_method(problem).id;
  c.overrides = gib::parse_assignments({lines.begin() + 1, lines.end()}, "--set");
  c.h = 0.01;
  c.steps = 1;
  gib::validate_cell(c, gib::registry_catalog());
  gib::make_problem(c);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  gib::fuzz::expect_input_error_only([&] { build_cell(split_lines(text)); });
  return 0;
}
