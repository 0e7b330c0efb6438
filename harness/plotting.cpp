#include "harness/plotting.hpp"

#include <cstdio>
#include <cstdlib>

#include "harness/manifest.hpp"

namespace gib {

namespace {
std::string quoted(const std::string& s) {
  std::string out = "'";
  for (char c : s) {
    if (c == '\'') out += "'\\''";
    else out += c;
  }
  return out + "'";
}
}  // namespace

bool run_plot_script(const std::filesystem::path& json, const std::vector<std::string>& args) {
  const std::string python = GIBENCH_PYTHON;
  if (python.empty()) {
    std::fprintf(stderr, "gibench: warning: no python3 with matplotlib was found at configure time; figures skipped\n");
    return false;
  }
  const std::filesystem::path script = std::filesystem::path(project_root()) / "plots" / "plot_results.py";
  std::string cmd = quoted(python) + ' ' + quoted(script.string()) + ' ' + quoted(json.string());
  for (const auto& a : args) cmd += ' ' + quoted(a);
  cmd += " > /dev/null";
  const int rc = std::system(cmd.c_str());
  if (rc != 0) std::fprintf(stderr, "gibench: plotting %s failed (exit %d)\n", json.filename().c_str(), rc);
  return rc == 0;
}

}  // namespace gib
