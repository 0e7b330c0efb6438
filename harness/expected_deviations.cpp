#include "harness/expected_deviations.hpp"

#include "core/errors.hpp"
#include "harness/json_util.hpp"
#include "harness/manifest.hpp"

namespace gib {

namespace {
bool field_matches(const std::string& pattern, const std::string& value) { return pattern == "*" || pattern == value; }
}  // namespace

bool ExpectedDeviation::matches(const std::string& m, const std::string& p, const std::string& pr,
                                const std::string& i, const std::string& c) const {
  return field_matches(method, m) && field_matches(problem, p) && field_matches(preset, pr) && field_matches(ic, i) &&
         check == c;
}

std::filesystem::path expected_deviations_file() {
  return std::filesystem::path(project_root()) / "results" / "expected_deviations.json";
}

std::vector<ExpectedDeviation> load_expected_deviations(const std::filesystem::path& path) {
  const std::filesystem::path file = path.empty() ? expected_deviations_file() : path;
  if (!std::filesystem::exists(file)) return {};
  const Json j = read_json_file(file);
  const Json& entries = j.is_object() ? j.value("deviations", Json()) : j;
  if (!entries.is_array()) throw InputError(file.string() + ": expected {\"deviations\": [...]}");
  std::vector<ExpectedDeviation> out;
  for (const auto& e : entries) {
    ExpectedDeviation d;
    try {
      d.method = e.at("method").get<std::string>();
      d.problem = e.at("problem").get<std::string>();
      d.preset = e.value("preset", std::string("*"));
      d.ic = e.value("ic", std::string("*"));
      d.check = e.at("check").get<std::string>();
      d.reason = e.at("reason").get<std::string>();
      d.measured = e.at("measured").get<std::string>();
      d.source = e.value("source", std::string());
    } catch (const Json::exception&) {
      throw InputError(file.string() + ": each deviation needs string fields method, problem, check, reason and measured");
    }
    const std::string& c = d.check;
    const bool battery = c == "order" || c == "symmetric" || c == "stays_on_group" || c == "bitwise_repeatable" ||
                         c == "applicable" || c.rfind("exact ", 0) == 0 || c.rfind("bounded ", 0) == 0;
    if (!battery && c != "baseline_order")
      throw InputError(file.string() + ": deviation check '" + c +
                       "' is neither a battery claim nor baseline_order (a figure's deviations live in its spec, next to the check)");
    if (d.measured.find_first_of("0123456789") == std::string::npos)
      throw InputError(file.string() + ": the deviation of " + d.method + " (" + c + ") needs the measured numbers in 'measured'");
    out.push_back(std::move(d));
  }
  return out;
}

const ExpectedDeviation* find_expected_deviation(const std::vector<ExpectedDeviation>& all, const std::string& method,
                                                 const std::string& problem, const std::string& preset,
                                                 const std::string& ic, const std::string& check) {
  for (const auto& d : all)
    if (d.matches(method, problem, preset, ic, check)) return &d;
  return nullptr;
}

}  // namespace gib
