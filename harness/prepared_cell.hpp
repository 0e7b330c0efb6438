// A cell made ready to run, once: the problem built from its preset, overrides and initial condition, the
// method looked up with its parameters merged over the defaults, compatibility and the stepper's parameters
// checked, the observer options checked against the problem's kind. Run, sweeps, rank, timing, the battery and
// reproduce all start from one, so a cell is set up and refused in one way everywhere.
#pragma once

#include <memory>

#include "core/method.hpp"
#include "core/problem.hpp"
#include "harness/cell.hpp"

namespace gib {

struct PreparedCell {
  Cell cell;
  const MethodInfo* method = nullptr;
  Json params;                              // the method's parameters after defaults
  std::shared_ptr<const Problem> problem;  // shared: a problem can hold a large reference
};

// Throws InputError (before any stepping) on an invalid cell, an unknown problem, preset or method, a method that
// cannot run on the problem (core/problem.hpp incompatibility), parameters the method's stepper refuses for this
// model, or a series the problem's kind cannot record.
PreparedCell prepare_cell(const Cell& cell, const MethodCatalog& methods = registry_catalog());

// Method parameters after defaults; throws InputError on a key the method does not have.
Json merge_method_params(const MethodInfo& method, const Json& given);

// Build the problem a cell names (preset defaulting to the first one).
std::unique_ptr<Problem> make_problem(const Cell& cell);

// Row fields describing the cell itself (problem, preset, params, method, h, T, ...).
Json cell_identity(const Cell& cell, const Problem& problem, const Json& method_params);

}  // namespace gib
