// Known disagreements between a method's claim and what the battery or `gibench check` measures, recorded as data
// (results/expected_deviations.json), never hidden: each entry names a method, a problem/preset/ic (or "*"), the
// check that fails ("order", "symmetric", "exact casimir", "bounded energy", "stays_on_group", "applicable", or
// "baseline_order" for gibench check's declared-order comparison), the reason, the measured numbers and the source.
// A matching failure is reported as an expected deviation; a matching check that passes has expired (STALE) and
// fails the battery and gibench check, so an entry never covers more cells than fail. A figure's deviations live in
// its spec (harness/reproduce.hpp), not here.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace gib {

struct ExpectedDeviation {
  std::string method, problem, preset = "*", ic = "*", check, reason, measured, source;
  bool matches(const std::string& m, const std::string& p, const std::string& pr, const std::string& i,
               const std::string& c) const;
};

// Default file: expected_deviations_file(). Throws InputError on a malformed file or an entry without
// method, problem, check and reason; a missing file means no deviations.
std::vector<ExpectedDeviation> load_expected_deviations(const std::filesystem::path& path = {});
// <root>/results/expected_deviations.json
std::filesystem::path expected_deviations_file();

// The entry that explains this check, or null.
const ExpectedDeviation* find_expected_deviation(const std::vector<ExpectedDeviation>& all, const std::string& method,
                                                 const std::string& problem, const std::string& preset,
                                                 const std::string& ic, const std::string& check);

}  // namespace gib
