// Kjer (2017)'s commands that are not figure reproductions, independent of the argument parser (harness/cli/main.cpp
// wires CLI11 to them): the precision half of the energy-spike question and the state dump for peer codes. Each
// returns the process exit code; bad input throws InputError.
#pragma once

#include <string>
#include <vector>

namespace gib {

// The Kjer spike question in arithmetic precision (papers/kjer2017/precision_study.hpp): JSON and a markdown table.
struct PrecisionStudyArgs {
  std::string preset = "kjer2017_n10", ic = "preset", out;  // out empty: results/paper/kjer2017-spikes-precision.json
  std::vector<std::string> sets, precisions;
  double T = 300, h = 0.01;
  int halvings = 2, jobs = 0;
  long long series_points = 2000;
  std::vector<std::string> command_line;
};
int cmd_precision_study(const PrecisionStudyArgs& a);

// The initial state and one long double force evaluation in the space frame, for peer codes (LAMMPS).
struct ParticlesDumpArgs {
  std::string problem = "dipolar_spheres", preset, ic = "preset", out;
  std::vector<std::string> sets;
  std::vector<std::string> command_line;
};
int cmd_particles_dump(const ParticlesDumpArgs& a);

}  // namespace gib
