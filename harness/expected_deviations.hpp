// Known disagreements recorded as data (results/expected_deviations.json), never hidden: each entry
// names a method, a problem/preset/ic (or "*"), the check that fails ("order", "exact casimir",
// "bounded energy", a figure id for all of a method's checks in that figure, or "<figure id>#<check id>" for one
// check), the reason and the source. The conformance battery and
// `gibench check` consult them: a matching failure is reported as an expected deviation (and does not
// fail the run); a matching check that now passes is reported so the entry can be removed.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace gib {

struct ExpectedDeviation {
  std::string method, problem, preset = "*", ic = "*", check, reason, source;
  bool matches(const std::string& m, const std::string& p, const std::string& pr, const std::string& i,
               const std::string& c) const;
};

// Default file: <root>/results/expected_deviations.json. Throws InputError on a malformed file or an
// entry without method, problem, check and reason; a missing file means no deviations.
std::vector<ExpectedDeviation> load_expected_deviations(const std::filesystem::path& path = {});

// The entry that explains this check, or null.
const ExpectedDeviation* find_expected_deviation(const std::vector<ExpectedDeviation>& all, const std::string& method,
                                                 const std::string& problem, const std::string& preset,
                                                 const std::string& ic, const std::string& check);

}  // namespace gib
