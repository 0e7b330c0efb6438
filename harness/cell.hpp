// A cell is one run: (problem, preset, overrides, initial condition) x (method, parameters) x (h, steps).
// The harness expands sweeps into cells, runs each (accuracy pass with observers, then an optional
// timing pass without them) and turns the outcome into one tidy JSON row (results/SCHEMA.md).
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace gib {

using Json = nlohmann::json;

struct ObserveOptions {
  std::int64_t ref_samples = 200;    // reference errors at about this many evenly spaced steps (+ the last)
  // Compare with the problem's reference at all. Off for long energy-only runs (Kjer's T = 100 .. 1000
  // particle runs), where the long double reference would cost far more than the run it checks.
  bool reference = true;
  std::int64_t series_points = 0;    // time series length; 0 records no series
  bool series_state_err = false;     // also record the error against the reference in the series
  // Series the problem's kind records on request (harness/model_kinds.hpp kExtraSeries): "Pi" for a rigid body,
  // "configuration" (Kjer Figs 3.11-3.14, Tao-Owhadi's chains) and "orthogonality" (Kjer Fig 3.6) for particles.
  std::vector<std::string> series_extra;
  bool series(const std::string& name) const;
  int drift_blocks = 20;             // blocks for the drift-slope fit of invariant errors
  // Per-block min, max, mean and std of every signed invariant error, from every step (not from the
  // sampled series): envelope checks such as Krysl's stationary H/H0 bands need the peaks of a 13-step
  // oscillation that a series sampled every 10 steps would miss.
  bool block_stats = false;
  // A run is "diverged" (README, Divergence) when |E - E0| passes divergence_energy times the problem's energy
  // scale, or its state leaves divergence_factor times the problem's scales: |Pi| against the momentum scale and
  // |R| against a rotation's (rigid body); kinetic energy against the energy scale, positions against the
  // initial extent (particles, Newtonian). Scales are never zero (core/problem.hpp). An energy off by 100
  // times the system's own size is a blow-up on any reading; with it no committed figure verdict moves
  // (reproduce --check), and the largest error still ok among committed rows is explicit Euler's steady
  // growth on Buss's body in a rank scan (126 |E0| = 63 scales at h = 0.035).
  double divergence_factor = 1e6;
  double divergence_energy = 100;
  // Structure probes of the method (vector fields: "adjoint", "reversibility", "symmetry", "volume",
  // "symplecticity", "lyapunov"; harness/vector_field_probes.hpp), reported as row metrics.
  std::vector<std::string> probes;
  // Observables' min and max only from this time on (late-time bands: a spurious attractor's energy band, the ABC
  // flow's shrinking amplitude); their last value is always the last step's.
  double quantities_after = 0;
  // Distributions the problem offers (core/problem.hpp NewtonianDistribution), histogrammed from every step from
  // quantities_after on (the burn-in) and written as the row's "distributions" (results/SCHEMA.md).
  std::vector<std::string> distributions;
  bool probe(const std::string& name) const;
};

struct TimingOptions {
  int reps = 0;                      // timing repetitions; 0 skips the timing pass
  double min_sample_seconds = 2e-3;  // short runs are repeated inside one sample to reach this
};

struct Cell {
  std::string problem;
  std::string preset;  // empty: the problem's first preset
  Json overrides = Json::object();
  std::string ic = "preset";
  std::string method;
  Json method_params = Json::object();
  double h = 0;
  std::int64_t steps = 0;
  int rep = 0;
  // Wall-time budget of the accuracy pass in seconds (0: none). A cell over budget stops with status
  // "time_budget" and the step it reached; unlike every other field this makes the row machine-dependent.
  double time_budget_s = 0;
  ObserveOptions observe;
  TimingOptions timing;
};

// Number of steps for final time T with step h; throws InputError unless T is a multiple of h.
std::int64_t steps_for(double T, double h);

class MethodCatalog;

// Throws InputError on h <= 0, non-finite h, steps < 1, unknown problem/preset/method.
void validate_cell(const Cell& cell, const MethodCatalog& methods);

}  // namespace gib
