#include "harness/manifest.hpp"

#include <Eigen/Core>
#include <array>
#include <boost/version.hpp>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <fstream>
#include <unistd.h>

#include "methods/from_file/method_file.hpp"

namespace gib {
namespace {

std::string run_command(const std::string& cmd) {
  std::string out;
  if (std::FILE* p = ::popen(cmd.c_str(), "r")) {
    std::array<char, 256> buf{};
    while (std::fgets(buf.data(), static_cast<int>(buf.size()), p) != nullptr) out += buf.data();
    ::pclose(p);
  }
  while (!out.empty() && (out.back() == '\n' || out.back() == '\r')) out.pop_back();
  return out;
}

std::string utc_now() {
  const std::time_t t = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

}  // namespace

std::string project_root() {
  if (const char* r = std::getenv("GIBENCH_ROOT"); r != nullptr && *r != '\0') return r;
  return GIBENCH_SOURCE_DIR;
}

std::string cpu_model() {
  std::ifstream in("/proc/cpuinfo");
  std::string line;
  while (std::getline(in, line))
    if (line.rfind("model name", 0) == 0) {
      const auto p = line.find(':');
      if (p != std::string::npos) return line.substr(p + 2);
    }
  return "unknown";
}

// The vector extensions the CPU offers. The pair kernels take AVX2 where it is present, with the same bits as
// without (problems/common/simd_pack.hpp); the speed of a run, not its numbers, depends on this list.
nlohmann::json cpu_vector_features() {
  nlohmann::json out = nlohmann::json::array();
#if defined(__x86_64__)
  if (__builtin_cpu_supports("sse4.2")) out.push_back("sse4.2");
  if (__builtin_cpu_supports("avx")) out.push_back("avx");
  if (__builtin_cpu_supports("avx2")) out.push_back("avx2");
  if (__builtin_cpu_supports("fma")) out.push_back("fma");
  if (__builtin_cpu_supports("avx512f")) out.push_back("avx512f");
#endif
  return out;
}

nlohmann::json build_manifest(const std::vector<std::string>& command_line, const nlohmann::json& seeds) {
  const std::string root = project_root();
  const std::string git = "git -C '" + root + "' ";
  const std::string commit = run_command(git + "rev-parse HEAD 2>/dev/null");
  const std::string dirty = run_command(git + "status --porcelain --untracked-files=no -- . ':(exclude)results' 2>/dev/null | head -n 1");
  char host[256] = "unknown";
  ::gethostname(host, sizeof host - 1);
  // Methods from the user's files are not in the commit: their file and its hash are.
  nlohmann::json method_files = nlohmann::json::array();
  for (const from_file::UserFile& f : from_file::user_files())
    method_files.push_back({{"id", f.id}, {"path", f.path}, {"fnv1a", f.fnv1a}});
  nlohmann::json manifest = {{"gibench_version", "0.1.0"},
          {"git_commit", commit.empty() ? "unknown" : commit},
          {"git_dirty", !dirty.empty()},  // changes outside results/ (outputs do not make the code dirty)
          {"compiler", std::string("g++ ") + __VERSION__},
          {"cxx_flags", GIBENCH_CXX_FLAGS},
          {"build_type", GIBENCH_BUILD_TYPE},
          {"eigen_version", std::to_string(EIGEN_WORLD_VERSION) + "." + std::to_string(EIGEN_MAJOR_VERSION) + "." +
                                std::to_string(EIGEN_MINOR_VERSION)},
          {"boost_version", BOOST_LIB_VERSION},
          {"cpu_model", cpu_model()},
          {"cpu_vector_features", cpu_vector_features()},
          {"hostname", host},
          {"date_utc", utc_now()},
          {"command_line", command_line},
          {"seeds", seeds.is_null() ? nlohmann::json::object() : seeds}};
  if (!method_files.empty()) manifest["method_files"] = method_files;
  return manifest;
}

}  // namespace gib
