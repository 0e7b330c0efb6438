// Running one cell: step N times with observers (accuracy pass), then optionally repeat without observers
// (timing pass). Divergence, non-finite states and solver failures end the run early and become the row's
// status; they never throw. Everything kind-specific comes from the kind's traits (harness/model_kinds.hpp).
#pragma once

#include <cstdint>

#include "core/method.hpp"
#include "core/problem.hpp"
#include "harness/cell.hpp"
#include "harness/prepared_cell.hpp"

namespace gib {

struct CellOutcome {
  Json row;     // one tidy row (results/SCHEMA.md)
  Json series;  // null, or {"t": [...], "<quantity>": [...]} (the caller sets "row")
};

// Prepare, run and (when cell.timing.reps > 0 and the run ended ok) time one cell.
CellOutcome run_cell(const Cell& cell, const MethodCatalog& methods = registry_catalog());
CellOutcome run_cell(const PreparedCell& prepared);

// The accuracy pass of a prepared cell. Ignores cell.timing.
CellOutcome run_prepared(const PreparedCell& p);

// The accuracy pass with an explicit method description (the conformance battery passes altered copies of
// registered methods) on a problem of any kind; the caller has checked that they fit. Ignores cell.timing.
CellOutcome run_problem(const Cell& cell, const Problem& problem, const MethodInfo& method, const Json& params);

// Plain stepping without observers: N steps of size h from x (h may be negative).
RigidBodyState integrate_rigid_body(const MethodInfo& method, const RigidBodyModel& model, const Json& params,
                                    RigidBodyState x, double h, std::int64_t steps);

ParticlesState integrate_particles(const MethodInfo& method, const RigidParticlesModel& model, const Json& params,
                                   ParticlesState x, double h, std::int64_t steps);

}  // namespace gib
