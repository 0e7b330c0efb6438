// Running one cell: build the problem and the stepper, step N times with observers (accuracy pass),
// then optionally repeat without observers (timing pass). Divergence, non-finite states and solver
// failures end the run early and become the row's status; they never throw.
#pragma once

#include <memory>

#include "core/method.hpp"
#include "core/problem.hpp"
#include "harness/cell.hpp"

namespace gib {

struct CellOutcome {
  Json row;     // one tidy row (results/SCHEMA.md)
  Json series;  // null, or {"t": [...], "<quantity>": [...]} (the caller sets "row")
};

CellOutcome run_cell(const Cell& cell, const MethodCatalog& methods = registry_catalog());

// The accuracy pass for a rigid-body cell with an explicit method description (the conformance battery
// passes altered copies of registered methods). Ignores cell.timing.
CellOutcome run_rigid_body(const Cell& cell, const RigidBodyProblem& problem, const MethodInfo& method,
                           const Json& params);

CellOutcome run_particles(const Cell& cell, const ParticlesProblem& problem, const MethodInfo& method,
                          const Json& params);

// The accuracy pass for a problem of any supported kind.
CellOutcome run_problem(const Cell& cell, const Problem& problem, const MethodInfo& method, const Json& params);

// Throws InputError when the method cannot run on the problem (model kind, torque-free-only methods).
void check_compatible(const MethodInfo& method, const Problem& problem);

// Plain stepping without observers: N steps of size h from x (h may be negative).
RigidBodyState integrate_rigid_body(const MethodInfo& method, const RigidBodyModel& model, const Json& params,
                                    RigidBodyState x, double h, std::int64_t steps);

ParticlesState integrate_particles(const MethodInfo& method, const RigidParticlesModel& model, const Json& params,
                                   ParticlesState x, double h, std::int64_t steps);

// Method parameters after defaults; throws InputError on a key the method does not have.
Json merge_method_params(const MethodInfo& method, const Json& given);

// Build the problem a cell names (preset defaulting to the first one).
std::unique_ptr<Problem> make_problem(const Cell& cell);

// Row fields describing the cell itself (problem, preset, params, method, h, T, ...).
Json cell_identity(const Cell& cell, const Problem& problem, const Json& method_params);

// Errors of a rigid-body state against a reference state (metric stems of results/SCHEMA.md).
struct RigidBodyErrors {
  double rot_geodesic, rot_2norm, mom_err, mom_rel_err, state_err;
};
RigidBodyErrors rigid_body_errors(const RigidBodyState& x, const RigidBodyState& ref);

Json rigid_body_state_json(const RigidBodyState& x);

}  // namespace gib
