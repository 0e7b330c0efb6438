#include "papers/kjer2017/commands.hpp"

#include <cstdio>
#include <filesystem>
#include <iostream>

#include "core/safe_file.hpp"
#include "harness/commands.hpp"
#include "harness/json_util.hpp"
#include "harness/manifest.hpp"
#include "harness/runner.hpp"
#include "papers/kjer2017/particles_dump.hpp"
#include "papers/kjer2017/precision_study.hpp"

namespace gib {

int cmd_precision_study(const PrecisionStudyArgs& a) {
  precision::StudyOptions o;
  o.preset = a.preset;
  o.T = a.T;
  o.h = a.h;
  o.ic = a.ic;
  o.overrides = parse_assignments(a.sets, "--set");
  o.halvings = a.halvings;
  o.jobs = a.jobs;
  o.series_points = a.series_points;
  for (const auto& p : a.precisions) o.precisions.push_back(precision::precision_from_string(p));
  const std::filesystem::path out = a.out.empty()
                                        ? std::filesystem::path(project_root()) / "results" / "paper" / "kjer2017-spikes-precision.json"
                                        : std::filesystem::path(a.out);
  const std::filesystem::path md_path = checked_json_and_markdown(out);
  const Json doc = precision::run_precision_study(o, a.command_line);
  const std::string md = precision::precision_study_markdown(doc);
  write_json_atomic(out, doc);
  write_file_atomic(md_path, md);
  std::fputs(md.c_str(), stdout);
  std::printf("\nwrote %s and %s\n", out.string().c_str(), md_path.string().c_str());
  return 0;
}

int cmd_particles_dump(const ParticlesDumpArgs& a) {
  Cell c;
  c.problem = a.problem;
  c.preset = a.preset;
  c.ic = a.ic;
  c.overrides = parse_assignments(a.sets, "--set");
  if (!a.out.empty()) check_output_file(a.out, "--out");
  const auto problem = make_problem(c);
  Json doc = precision::particles_dump(*problem);
  doc["schema_version"] = 1;
  doc["kind"] = "gibench.particles_dump";
  doc["manifest"] = build_manifest(a.command_line, Json::object());
  if (a.out.empty()) std::cout << doc.dump(1) << "\n";
  else write_json_atomic(a.out, doc);
  return 0;
}

}  // namespace gib
