#include "harness/plotting.hpp"

#include <cstdio>
#include <cstdlib>
#include <sys/wait.h>

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

int run_python_script(const std::string& script, const std::vector<std::string>& args, bool show_output) {
  const std::string python = GIBENCH_PYTHON;
  if (python.empty()) {
    std::fprintf(stderr, "gibench: warning: no python3 with matplotlib was found at configure time; %s skipped\n",
                 script.c_str());
    return 127;
  }
  const std::filesystem::path path = std::filesystem::path(project_root()) / "plots" / script;
  std::string cmd = quoted(python) + ' ' + quoted(path.string());
  for (const auto& a : args) cmd += ' ' + quoted(a);
  if (!show_output) cmd += " > /dev/null";
  const int rc = std::system(cmd.c_str());
  if (rc == -1) return 127;
  return WIFEXITED(rc) ? WEXITSTATUS(rc) : 128 + WTERMSIG(rc);
}

bool run_plot_script(const std::filesystem::path& json, const std::vector<std::string>& args) {
  std::vector<std::string> all{json.string()};
  all.insert(all.end(), args.begin(), args.end());
  const int rc = run_python_script("plot_results.py", all, false);
  if (rc != 0 && rc != 127) std::fprintf(stderr, "gibench: plotting %s failed (exit %d)\n", json.filename().c_str(), rc);
  return rc == 0;
}

}  // namespace gib
