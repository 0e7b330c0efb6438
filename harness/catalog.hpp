// What gibench knows, as data: the registries (methods with their claims and tags, problems with presets and
// parameters, which method runs on which problem), the figure specs and the declared metrics. `gibench list
// <what> --json` prints one part; `gibench report` hands the whole to plots/report.py, which reads the method
// and problem facts from here rather than from the C++ sources.
#pragma once

#include <string>

#include "core/method.hpp"
#include "core/metrics.hpp"

namespace gib {

// what: methods | problems | matrix | figures | metrics | all (an object with each part under its name).
// Throws InputError for anything else.
Json catalog_json(const std::string& what);

// One line of the method's claims ("order 2, implicit, symmetric, exact energy (torque-free)"), as `gibench list
// methods` prints it and the report's method pages show it.
std::string claims_text(const MethodInfo& m);
// The metric family's name in listings (error, invariant, ...).
const char* metric_family_name(metrics::Family f);

}  // namespace gib
