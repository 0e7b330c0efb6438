// Sweeps: a JSON config expands into cells (problems x presets x overrides x initial conditions x
// methods x T x h); cells run (accuracy passes in parallel, timing passes one at a time so timings
// are not distorted); rows come back in cell order whatever the thread count, with order fits.
//
// Config (all keys optional except problems, methods and h; unknown keys are errors):
//   {"name": "..."   (letters, digits, '-', '_', '.', not starting with '.', at most 100 bytes: it names files),
//    "problems": [{"problem": "free_rigid_body", "presets": ["kjer2017"], "overrides": [{}], "ics": ["preset"]}],
//    "methods": ["rkmk4", {"id": "rkmk4", "params": {"truncation": "minimal"}}, "tag:splitting"],
//          ("tag:<tag>": every registered method with the tag that runs on the problem; gibench list methods)
//    "exclude_methods": ["tag:implicit", "mr2"],   (ids or tags left out of every problem's methods)
//    "h": [0.1, 0.05] | {"start": 0.5, "factor": 0.5, "count": 10},
//    "T": 1.0 | [1, 10]    or    "steps": 199 | [199, 1999]   (then T = steps * h),
//    or instead of "h": "N": [20, 28, 40] | {"start": 20, "factor": 1.41421356, "count": 20} with "T"
//          (step counts, rounded; h = T / N: grids finer than halving need not divide T),
//    "observe": {"ref_samples": 200, "series_points": 0, "series_state_err": false, "series_extra": ["Pi"],
//                "drift_blocks": 20, "divergence_factor": 1e6, "divergence_energy": 100, "block_stats": false,
//                "probes": ["volume"], "quantities_after": 0},
//          (series_extra: what the problem's kind can record, harness/model_kinds.hpp kExtraSeries; probes: the
//           kind's structure probes, kProbes (vector fields: adjoint, reversibility, symmetry, volume,
//           symplecticity, lyapunov); quantities_after: observables' min/max only from this time on)
//    "timing": {"reps": 0, "min_sample_seconds": 0.002},
//    "fit": {"metrics": ["state_err_final"], "floor": 1e-12, "ceiling": 0.1, "max_points": 0},
//    "cell_time_budget_s": 0}   (wall-time budget per cell's accuracy pass; 0: none)
//          (max_points > 0 fits only the smallest-h points of the window, the most asymptotic ones)
#pragma once

#include <string>
#include <vector>

#include "harness/cell.hpp"
#include "harness/order_fit.hpp"
#include "harness/runner.hpp"

namespace gib {

struct SweepSpec {
  std::string name;
  Json config;  // as given (shard files carry it, so that merge needs nothing else)
  std::vector<Cell> cells;
  std::vector<std::string> fit_metrics;
  OrderFitOptions fit;
};

// Throws InputError("<where>: ...") on any malformed or unknown entry.
SweepSpec parse_sweep(const Json& config, const std::string& where);

// Builds every distinct problem and stepper of the sweep once, so that bad input (unknown ids, bad parameters,
// incompatible method and problem) throws InputError before any cell runs.
void check_sweep_cells(const SweepSpec& spec, const MethodCatalog& methods);

struct SweepOptions {
  int jobs = 0;          // accuracy-pass threads; 0 = all cores
  bool progress = true;  // progress line on stderr for sweeps longer than a few seconds
  const MethodCatalog* methods = nullptr;  // null: the registry
};

struct SweepResult {
  Json rows = Json::array();
  Json series = Json::array();
  Json fits = Json::array();
};

// Rows in cell order (whatever order the cells finished in), series tagged with their row, order fits.
// Everything that can make two runs of one config differ (threads, ranks, shards, resumes) is gone here.
SweepResult assemble_sweep(const SweepSpec& spec, std::vector<CellOutcome> outcomes);

// The identity of a cell as canonical JSON text; its FNV-1a hash names the cell in journals and shards.
std::string cell_key(const Cell& cell);
std::string hash_hex(const std::string& text);
// Identifies the sweep (its config, canonically serialised, and its cell count): a journal or a shard
// of another sweep is refused.
std::string sweep_fingerprint(const SweepSpec& spec);

// {"cells": n, "by_status": {"ok": k, ...}}
Json status_summary(const Json& rows);

// Checks every cell (problem, preset, method, parameters) before running any, so bad input produces
// no output at all. Cells that fail at run time get status "error" with a detail; the sweep goes on.
SweepResult run_sweep(const SweepSpec& spec, const SweepOptions& opt);

// Order fits for every group of rows that differ only in h (same problem, preset, parameters, ic,
// method, method parameters and T).
Json fit_rows(const Json& rows, const std::vector<std::string>& metrics, const OrderFitOptions& opt);

// The results document of results/SCHEMA.md around rows/series/fits, with a status summary and, when rows
// carry timings, how the timings were taken.
Json results_document(const std::string& kind, const SweepResult& r, const std::vector<std::string>& command_line,
                      const Json& seeds = Json::object());

// {method id: {display_name, order, family}} for the methods that appear in rows.
Json methods_table(const Json& rows);

}  // namespace gib
