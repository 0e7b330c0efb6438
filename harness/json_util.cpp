#include "harness/json_util.hpp"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <fstream>
#include <set>
#include <sstream>
#include <sys/stat.h>
#include <unistd.h>
#include <utility>
#include <vector>

#include "core/errors.hpp"
#include "core/user_input.hpp"

namespace gib {

Json json_number(double x) { return std::isfinite(x) ? Json(x) : Json(nullptr); }

namespace {

// The counters a cost object holds, by name: what counters_json writes and cost_value reads back.
constexpr std::pair<const char*, std::int64_t OpCounters::*> kCounterFields[] = {
    {"steps", &OpCounters::steps},
    {"rhs_evals", &OpCounters::rhs_evals},
    {"force_evals", &OpCounters::force_evals},
    {"exp_evals", &OpCounters::exp_evals},
    {"log_evals", &OpCounters::log_evals},
    {"cayley_evals", &OpCounters::cayley_evals},
    {"linear_solves", &OpCounters::linear_solves},
    {"nonlinear_iters", &OpCounters::nonlinear_iters},
    {"nonlinear_iters_max", &OpCounters::nonlinear_iters_max},
    {"solver_failures", &OpCounters::solver_failures},
};

// Per-step averages divide by at least one step, so a run that made none reports its totals.
double per_step(std::int64_t total, std::int64_t steps) {
  return static_cast<double>(total) / static_cast<double>(std::max<std::int64_t>(steps, 1));
}

}  // namespace

Json counters_json(const OpCounters& c) {
  Json j = Json::object();
  for (const auto& [name, member] : kCounterFields) j[name] = c.*member;
  j["function_evals"] = c.function_evals();
  j["work"] = c.work();
  j["rhs_evals_per_step"] = per_step(c.rhs_evals, c.steps);
  j["exp_evals_per_step"] = per_step(c.exp_evals, c.steps);
  j["function_evals_per_step"] = per_step(c.function_evals(), c.steps);
  j["work_per_step"] = per_step(c.work(), c.steps);
  return j;
}

double cost_value(const Json& cost, const std::string& field) {
  if (!cost.is_object()) return NAN;
  if (const auto it = cost.find(field); it != cost.end()) return it->is_number() ? it->get<double>() : NAN;
  const bool per = field.ends_with("_per_step");
  const std::string total = per ? field.substr(0, field.size() - std::string("_per_step").size()) : field;
  if (!cost.contains("steps")) return NAN;
  OpCounters c;
  for (const auto& [name, member] : kCounterFields) {
    const Json& v = cost.value(name, Json(0));
    if (!v.is_number()) return NAN;
    c.*member = std::llround(v.get<double>());
  }
  std::int64_t value = 0;
  if (total == "work") value = c.work();
  else if (total == "function_evals") value = c.function_evals();
  else if (const auto* f = std::find_if(std::begin(kCounterFields), std::end(kCounterFields),
                                        [&](const auto& nf) { return total == nf.first; });
           f != std::end(kCounterFields))
    value = c.*(f->second);
  else return NAN;
  return per ? per_step(value, c.steps) : static_cast<double>(value);
}

Json stored_cost(const Json& cost) {
  if (!cost.is_object() || !cost.contains("steps")) return cost;
  Json kept = Json::object();
  for (auto it = cost.begin(); it != cost.end(); ++it) {
    const std::string& k = it.key();
    const bool counter = std::any_of(std::begin(kCounterFields), std::end(kCounterFields),
                                     [&](const auto& nf) { return k == nf.first; });
    if (k == "steps" || (counter && !(it->is_number() && it->get<double>() == 0))) kept[k] = *it;
    else if (!counter && k != "function_evals" && k != "work" && !k.ends_with("_per_step")) kept[k] = *it;
  }
  return kept;
}

namespace {

// Builds the document from the parser's SAX events, to refuse what nlohmann itself accepts: a key repeated
// within one object (it would keep the last), nesting deep enough to overflow recursive code downstream
// (dump(), the harness's walkers), and a number that is nonzero but rounds to 0 (nlohmann reads 1e-400 as 0;
// every number goes through parse_double, the grammar the command line uses too). Errors name the value by
// its path, e.g. problems[0].overrides[1].
class StrictJson {
 public:
  explicit StrictJson(std::string where) : where_(std::move(where)) {}
  Json take() { return std::move(root_); }

  bool null() { return put(nullptr); }
  bool boolean(bool b) { return put(b); }
  bool number_integer(Json::number_integer_t v) { return put(v); }
  bool number_unsigned(Json::number_unsigned_t v) { return put(v); }
  bool number_float(Json::number_float_t, const Json::string_t& text) {
    // nlohmann writes the locale's decimal point into the token; the grammar is checked, so it can only be that.
    std::string token = text;
    for (char& c : token)
      if (!(c >= '0' && c <= '9') && c != '-' && c != '+' && c != 'e' && c != 'E') c = '.';
    return put(parse_double(token, where_ + ": the number at " + path(true)));
  }
  bool string(Json::string_t& s) { return put(std::move(s)); }
  bool binary(Json::binary_t&) { return false; }  // JSON text has no binary values
  bool start_object(std::size_t) { return open(Json::object()); }
  bool key(Json::string_t& k) {
    Frame& f = frames_.back();
    if (!f.keys.insert(k).second)
      throw InputError(where_ + ": duplicated key " + quote_excerpt(k) + " in the object at " + path(false));
    f.key = std::move(k);
    return true;
  }
  bool end_object() { return close(); }
  bool start_array(std::size_t) { return open(Json::array()); }
  bool end_array() { return close(); }
  bool parse_error(std::size_t, const std::string&, const Json::exception& e) {
    std::string what = e.what();
    if (const auto p = what.find("] "); p != std::string::npos) what = what.substr(p + 2);
    // nlohmann quotes the offending token, which can be megabytes long.
    if (what.size() > 300) what = what.substr(0, 300) + "...";
    throw InputError(where_ + ": malformed JSON (" + what + ")");
  }

 private:
  struct Frame {
    Json* value = nullptr;
    std::size_t index = 0;  // arrays: position of the next element
    std::string key;        // objects: the key being read
    std::set<std::string> keys;
  };

  // Where the next value goes: the root, the end of the open array, or the open object's current key. The
  // pointers stay valid: an open container's parent does not change until it is closed.
  Json* slot() {
    if (frames_.empty()) return &root_;
    Frame& f = frames_.back();
    if (f.value->is_array()) {
      f.value->push_back(nullptr);
      ++f.index;
      return &f.value->back();
    }
    return &(*f.value)[f.key];
  }
  bool put(Json v) {
    *slot() = std::move(v);
    return true;
  }
  bool open(Json empty) {
    if (frames_.size() >= static_cast<std::size_t>(kMaxJsonDepth))
      throw InputError(where_ + ": nested deeper than " + std::to_string(kMaxJsonDepth) + " levels at " + path(true));
    Json* v = slot();
    *v = std::move(empty);
    frames_.push_back({v, 0, {}, {}});
    return true;
  }
  bool close() {
    frames_.pop_back();
    return true;
  }
  // The path of the open container (with_last false) or of the value being read (true).
  std::string path(bool with_last) const {
    std::string p;
    const std::size_t n = with_last ? frames_.size() : frames_.empty() ? 0 : frames_.size() - 1;
    for (std::size_t i = 0; i < n; ++i) {
      const Frame& f = frames_[i];
      if (f.value->is_object()) {
        p += '.';
        p += shorten(f.key);
        continue;
      }
      // An ancestor's open child is its last element; the value being read is not placed yet.
      const bool reading = with_last && i + 1 == frames_.size();
      p += '[';
      p += std::to_string(reading ? f.index : f.index - 1);
      p += ']';
    }
    if (p.empty()) return "the top level";
    if (p[0] == '.') p.erase(0, 1);
    return p.size() <= 120 ? p : p.substr(0, 120) + "...";
  }
  // A key in a path is not quoted, so it is cut shorter and escaped the same way.
  static std::string shorten(const std::string& s) {
    const std::string q = quote_excerpt(s, 40);
    return q.substr(1, q.find_last_of('\'') - 1) + (s.size() > 40 ? "..." : "");
  }

  std::string where_;
  Json root_;
  std::vector<Frame> frames_;
};

}  // namespace

Json parse_json_text(const std::string& text, const std::string& where) {
  if (text.find_first_not_of(" \t\r\n") == std::string::npos)
    throw InputError(where + ": no JSON value (empty or whitespace only)");
  StrictJson sax(where);
  Json::sax_parse(text, &sax);
  return sax.take();
}

std::string read_input_file(const std::filesystem::path& path, std::uintmax_t max_bytes) {
  const std::string where = path.string();
  // Non-blocking, so a FIFO cannot hang the open; what it is is then judged on the descriptor, not the name.
  const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
  if (fd < 0) throw InputError(where + ": cannot open file (" + std::strerror(errno) + ")");
  struct Closer {
    int fd;
    ~Closer() { ::close(fd); }
  } closer{fd};
  struct stat st {};
  if (::fstat(fd, &st) != 0) throw InputError(where + ": cannot read file (" + std::strerror(errno) + ")");
  if (S_ISDIR(st.st_mode)) throw InputError(where + ": is a directory, not a JSON file");
  if (!S_ISREG(st.st_mode)) throw InputError(where + ": not a regular file (a FIFO, device or socket is not read)");
  const auto too_large = [&] {
    const std::string mib = max_bytes % (1 << 20) == 0 ? " (" + std::to_string(max_bytes >> 20) + " MiB)" : "";
    return InputError(where + ": larger than " + std::to_string(max_bytes) + " bytes" + mib +
                      ", the most an input file may have");
  };
  if (static_cast<std::uintmax_t>(st.st_size) > max_bytes) throw too_large();
  // Bounded even now: the file may grow between the fstat and the read.
  std::string text;
  char buf[1 << 16];
  while (true) {
    const ssize_t n = ::read(fd, buf, sizeof buf);
    if (n == 0) break;
    if (n < 0) {
      if (errno == EINTR) continue;
      throw InputError(where + ": cannot read file (" + std::strerror(errno) + ")");
    }
    if (text.size() + static_cast<std::size_t>(n) > max_bytes) throw too_large();
    text.append(buf, static_cast<std::size_t>(n));
  }
  return text;
}

Json read_json_file(const std::filesystem::path& path) { return parse_json_text(read_input_file(path), path.string()); }

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
