// Executing a sweep's cells: accuracy passes on a pool of threads fed by a work source (a local counter,
// or rank 0 of an MPI job), then timing passes one cell at a time. Every finished cell goes to a sink
// under one lock, so a journal sees whole cells in completion order while the results keep cell order.
#pragma once

#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "core/method.hpp"
#include "harness/runner.hpp"
#include "harness/sweep.hpp"

namespace gib {

// The accuracy pass of one cell that never throws: bad input or a failure inside a method becomes a
// row with status "error" and the message, so one failing cell never stops a sweep.
CellOutcome run_cell_guarded(const Cell& cell, const MethodCatalog& methods);

// Hands out cell indices; nullopt when no work is left. Called from several threads at once.
using NextCell = std::function<std::optional<std::size_t>()>;
// Receives every finished cell, one call at a time.
using CellSink = std::function<void(std::size_t index, CellOutcome&& outcome)>;

// A NextCell over a fixed list of indices, in order.
NextCell next_from_list(std::vector<std::size_t> todo);

// A progress line on stderr for runs longer than a few seconds, fed by the sink (so that cells finished on
// other MPI ranks count too).
class Progress {
 public:
  Progress(std::string name, std::size_t total, std::size_t already, bool enabled);
  Progress(const Progress&) = delete;
  Progress& operator=(const Progress&) = delete;
  ~Progress();
  // The sink, plus one tick per finished cell.
  CellSink counting(CellSink sink);

 private:
  void tick();
  std::string name_;
  std::size_t total_, done_;
  bool enabled_, tty_;
  double t0_, last_ = 0;
  bool printed_ = false;
};

// Runs accuracy passes on `threads` threads until next() runs dry; sink is called under one lock.
void run_accuracy_passes(const SweepSpec& spec, const NextCell& next, const CellSink& sink, int threads,
                         const MethodCatalog& methods);

// Timing passes for the given cells, one at a time, interleaved (harness/timing.hpp); returns one timing
// object per index, in order.
std::vector<Json> run_timing_passes(const SweepSpec& spec, const std::vector<std::size_t>& indices,
                                    const MethodCatalog& methods, bool progress);

// The indices among `done` whose accuracy pass is "ok" and whose cell asks for a timing pass.
std::vector<std::size_t> cells_to_time(const SweepSpec& spec, const std::vector<CellOutcome>& outcomes,
                                       const std::vector<std::size_t>& done);

}  // namespace gib
