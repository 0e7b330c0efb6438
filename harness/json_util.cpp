#include "harness/json_util.hpp"

#include <cmath>
#include <fstream>
#include <set>
#include <sstream>
#include <vector>

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

namespace {

// Follows the parser through the document (nlohmann's callback sees every event) to catch what the parser
// itself accepts: a key repeated within one object, and nesting deep enough to overflow recursive code
// downstream (dump(), the harness's walkers). Errors name the object by its path, e.g. problems[0].overrides[1].
class StrictJson {
 public:
  explicit StrictJson(std::string where) : where_(std::move(where)) {}

  bool operator()(int /*depth*/, Json::parse_event_t event, Json& parsed) {
    using E = Json::parse_event_t;
    if (event == E::object_start || event == E::array_start) open(event == E::object_start);
    if (event == E::key) add_key(parsed.get_ref<const std::string&>());
    if (event == E::object_end || event == E::array_end) frames_.pop_back();
    if (event == E::value || event == E::object_end || event == E::array_end) next_element();
    return true;
  }

 private:
  struct Frame {
    bool object = false;
    std::size_t index = 0;      // arrays: position of the next element
    std::string key;            // objects: the key being read
    std::set<std::string> keys;
  };

  void open(bool object) {
    if (frames_.size() >= static_cast<std::size_t>(kMaxJsonDepth))
      throw InputError(where_ + ": nested deeper than " + std::to_string(kMaxJsonDepth) + " levels at " + path());
    frames_.push_back({object, 0, {}, {}});
  }
  void add_key(const std::string& key) {
    Frame& f = frames_.back();
    if (!f.keys.insert(key).second)
      throw InputError(where_ + ": duplicated key '" + shorten(key) + "' in the object at " + path());
    f.key = key;
  }
  void next_element() {
    if (!frames_.empty() && !frames_.back().object) ++frames_.back().index;
  }
  std::string path() const {
    std::string p;
    for (std::size_t i = 0; i + 1 < frames_.size(); ++i)
      p += frames_[i].object ? "." + shorten(frames_[i].key) : "[" + std::to_string(frames_[i].index) + "]";
    if (p.empty()) return "the top level";
    if (p[0] == '.') p.erase(0, 1);
    return p.size() <= 120 ? p : p.substr(0, 120) + "...";
  }
  // A pathological key (a megabyte long) or path must not become a megabyte-long error line.
  static std::string shorten(const std::string& s) { return s.size() <= 60 ? s : s.substr(0, 60) + "..."; }

  std::string where_;
  std::vector<Frame> frames_;
};

}  // namespace

Json parse_json_text(const std::string& text, const std::string& where) {
  if (text.find_first_not_of(" \t\r\n") == std::string::npos)
    throw InputError(where + ": no JSON value (empty or whitespace only)");
  try {
    return Json::parse(text, StrictJson(where));
  } catch (const Json::exception& e) {
    std::string what = e.what();
    if (const auto p = what.find("] "); p != std::string::npos) what = what.substr(p + 2);
    throw InputError(where + ": malformed JSON (" + what + ")");
  }
}

Json read_json_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (std::filesystem::is_directory(path)) throw InputError(path.string() + ": is a directory, not a JSON file");
  if (!in) throw InputError(path.string() + ": cannot open file");
  std::stringstream buf;
  buf << in.rdbuf();
  return parse_json_text(buf.str(), path.string());
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
