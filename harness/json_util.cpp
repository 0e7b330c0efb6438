#include "harness/json_util.hpp"

#include <cmath>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <unistd.h>

#include "core/errors.hpp"

namespace gib {

Json json_number(double x) { return std::isfinite(x) ? Json(x) : Json(nullptr); }

Json counters_json(const OpCounters& c) {
  const double steps = c.steps > 0 ? static_cast<double>(c.steps) : 1.0;
  return {{"steps", c.steps},
          {"rhs_evals", c.rhs_evals},
          {"force_evals", c.force_evals},
          {"exp_evals", c.exp_evals},
          {"log_evals", c.log_evals},
          {"cayley_evals", c.cayley_evals},
          {"linear_solves", c.linear_solves},
          {"nonlinear_iters", c.nonlinear_iters},
          {"nonlinear_iters_max", c.nonlinear_iters_max},
          {"solver_failures", c.solver_failures},
          {"rhs_evals_per_step", static_cast<double>(c.rhs_evals) / steps},
          {"exp_evals_per_step", static_cast<double>(c.exp_evals) / steps}};
}

Json read_json_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(path.string() + ": cannot open file");
  std::stringstream buf;
  buf << in.rdbuf();
  const std::string text = buf.str();
  if (text.find_first_not_of(" \t\r\n") == std::string::npos) throw InputError(path.string() + ": file is empty");
  try {
    return Json::parse(text);
  } catch (const Json::exception& e) {
    std::string what = e.what();
    if (const auto p = what.find("] "); p != std::string::npos) what = what.substr(p + 2);
    throw InputError(path.string() + ": malformed JSON (" + what + ")");
  }
}

void write_file_atomic(const std::filesystem::path& path, const std::string& text) {
  namespace fs = std::filesystem;
  if (path.has_parent_path()) fs::create_directories(path.parent_path());
  const fs::path tmp = path.string() + ".tmp." + std::to_string(::getpid());
  {
    std::FILE* f = std::fopen(tmp.c_str(), "wb");
    if (f == nullptr) throw std::runtime_error("cannot write " + tmp.string());
    const bool ok = std::fwrite(text.data(), 1, text.size(), f) == text.size() && std::fflush(f) == 0 &&
                    ::fsync(::fileno(f)) == 0;
    std::fclose(f);
    if (!ok) {
      fs::remove(tmp);
      throw std::runtime_error("failed writing " + tmp.string());
    }
  }
  fs::rename(tmp, path);
}

// One line per top-level field and per element of a top-level array (one line per row, series, fit):
// small files that still diff row by row.
std::string dump_lines(const Json& j) {
  if (!j.is_object()) return j.dump() + "\n";
  std::string out = "{";
  bool first = true;
  for (auto it = j.begin(); it != j.end(); ++it) {
    out += first ? "\n" : ",\n";
    first = false;
    out += ' ';
    out += Json(it.key()).dump();
    out += ": ";
    if (it.value().is_array() && !it.value().empty()) {
      out += "[";
      bool first_el = true;
      for (const auto& el : it.value()) {
        out += first_el ? "\n  " : ",\n  ";
        first_el = false;
        out += el.dump();
      }
      out += "\n ]";
    } else {
      out += it.value().dump();
    }
  }
  return out + "\n}\n";
}

void write_json_atomic(const std::filesystem::path& path, const Json& j) { write_file_atomic(path, dump_lines(j)); }

}  // namespace gib
