// The timing pass (GUIDE 3, "Timed"): runs without observers, repeated, one cell at a time on one
// thread. Cells are interleaved A B C A B C ... across repetitions, so that machine drift (frequency
// changes, a neighbour's load) spreads over every method instead of biasing the ones timed last.
// Short runs are repeated inside one sample until the sample lasts min_sample_seconds. Kinds whose traits can clock
// their model (the Newtonian traits' clocked_stepper, harness/clocked_model.hpp) are timed as many times again on the
// clocked model, each clocked sample right after the cell's plain one, for the split of a run into time inside the model (V, grad V, Hessians) and the rest
// (solves).
#pragma once

#include <vector>

#include "core/method.hpp"
#include "harness/cell.hpp"
#include "harness/prepared_cell.hpp"

namespace gib {

// One timing object per prepared cell, in their order; their cells' TimingOptions must agree (the first's are used).
std::vector<Json> time_prepared_interleaved(const std::vector<const PreparedCell*>& cells);

// One timing object per cell (results/SCHEMA.md "Timing"), in the order of `cells`. Every cell's
// TimingOptions must agree on reps and min_sample_seconds (the first cell's are used).
std::vector<Json> time_cells_interleaved(const std::vector<Cell>& cells, const MethodCatalog& methods);

}  // namespace gib
