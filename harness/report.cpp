// gibench report: the registries as data (harness/catalog.hpp) plus the results files, handed to plots/report.py,
// which writes a static site. The site is built in a staging directory beside the target and moved into place
// whole, so a failed build leaves the previous site as it was; a target that exists must be a site this command
// wrote (it carries the marker file), never somebody's directory.
#include <nlohmann/json.hpp>
#include <cstdio>
#include <filesystem>
#include <system_error>
#include <unistd.h>

#include "core/errors.hpp"
#include "core/safe_file.hpp"
#include "harness/catalog.hpp"
#include "harness/commands.hpp"
#include "harness/json_util.hpp"
#include "harness/manifest.hpp"
#include "harness/plotting.hpp"

namespace gib {

namespace {

namespace fs = std::filesystem;

constexpr const char* kMarker = ".gibench-report";

// The target may not exist yet, or be a real directory holding the marker; anything else is refused.
void check_site_target(const fs::path& out) {
  std::error_code ec;
  const fs::file_status st = fs::symlink_status(out, ec);
  if (!fs::exists(st)) {
    check_output_dir(out.parent_path().empty() ? fs::path(".") : out.parent_path(), "--out");
    return;
  }
  if (fs::is_symlink(st)) throw InputError("--out " + excerpt(out.string(), 200) + " is a symbolic link; gibench writes no site through a link");
  if (!fs::is_directory(st)) throw InputError("--out " + excerpt(out.string(), 200) + " exists and is not a directory");
  const fs::file_status marker = fs::symlink_status(out / kMarker, ec);
  if (!fs::is_regular_file(marker))
    throw InputError("--out " + excerpt(out.string(), 200) + " exists and is not a site gibench report wrote (no " +
                     kMarker + " in it); give a new directory");
  check_output_dir(out, "--out");
}

fs::path sibling(const fs::path& out, const char* what) {
  std::string name = ".";  // appends, not +: GCC 12 warns falsely on a chain of string concatenations
  name += out.filename().string();
  name += '.';
  name += what;
  name += '-';
  name += std::to_string(::getpid());
  return out.parent_path() / name;
}

}  // namespace

int cmd_report(const ReportArgs& a) {
  const fs::path root(project_root());
  fs::path out = a.out.empty() ? root / "report" : fs::path(a.out);
  if (out.filename().empty()) out = out.parent_path();  // "site/" names the directory site
  out = fs::absolute(out).lexically_normal();
  check_site_target(out);
  std::vector<std::string> inputs = a.inputs;
  if (inputs.empty()) inputs.push_back((root / "results").string());
  for (const auto& in : inputs) {
    std::error_code ec;
    const fs::file_status st = fs::status(in, ec);
    if (!fs::is_regular_file(st) && !fs::is_directory(st))
      throw InputError("report: " + excerpt(in, 200) + " is neither a results file nor a directory of them");
  }

  const fs::path staging = sibling(out, "staging");
  fs::remove_all(staging);
  fs::create_directories(staging);
  const auto discard = [&] {
    std::error_code ec;
    fs::remove_all(staging, ec);
  };
  int rc = 0;
  try {
    const fs::path catalog = staging / ".catalog.json";
    write_json_atomic(catalog, catalog_json("all"));
    std::vector<std::string> args{"--catalog", catalog.string(), "--out", staging.string()};
    args.insert(args.end(), inputs.begin(), inputs.end());
    rc = run_python_script("report.py", args, true);
    fs::remove(catalog);
  } catch (...) {
    discard();
    throw;
  }
  if (rc != 0) {
    discard();
    if (rc == 2) return 2;  // report.py printed its one "gibench: error:" line (a bad results file)
    std::fprintf(stderr, "gibench: error: building the report failed (plots/report.py exit %d)\n", rc);
    return 1;
  }
  write_file_atomic(staging / kMarker, "written by gibench report; the whole directory is replaced on the next run\n");
  // Swap: the old site aside, the new one in, the old one removed. Between the two renames the target is absent
  // for an instant, never half written.
  const fs::path old = sibling(out, "old");
  std::error_code ec;
  const bool had_old = fs::exists(fs::symlink_status(out, ec));
  if (had_old) fs::rename(out, old);
  fs::rename(staging, out);
  if (had_old) fs::remove_all(old, ec);
  std::printf("report: %s\n", (out / "index.html").string().c_str());
  return 0;
}

}  // namespace gib
