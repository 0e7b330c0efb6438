// Calling the plot scripts (plots/plot_results.py) with the interpreter found at configure time.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace gib {

// Runs plot_results.py on a results file with extra arguments; false (with one line on stderr) when no
// interpreter with matplotlib was found or the script failed.
bool run_plot_script(const std::filesystem::path& json, const std::vector<std::string>& args = {});

// Runs plots/<script> with the arguments and returns its exit status (127 when no interpreter was found at
// configure time, after one line on stderr); its stdout goes to /dev/null unless show_output.
int run_python_script(const std::string& script, const std::vector<std::string>& args, bool show_output);

}  // namespace gib
