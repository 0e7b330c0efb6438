// Provenance of every results file (GUIDE 4): commit, compiler, flags, libraries, CPU, date, command line.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace gib {

nlohmann::json build_manifest(const std::vector<std::string>& command_line, const nlohmann::json& seeds);

// The project root (for figure specs, plot scripts, results/): $GIBENCH_ROOT or the source directory.
std::string project_root();

// CPU model string from /proc/cpuinfo ("unknown" elsewhere).
std::string cpu_model();

}  // namespace gib
