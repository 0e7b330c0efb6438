// A run's identity, for what a model may keep from one evaluation to the next along one trajectory (the dipolar
// cutoff kernel's Verlet list). Such a cache is built from an earlier state of the trajectory, and the order of the
// sums follows it, so it moves the last bits of later results: kept within one run, the bits still depend on that
// run's inputs alone, whatever ran before on the thread ("same inputs, same bits"). A runner opens a RunScope around
// each run (a stepper's reset to its last step); outside any scope run_id() is 0 and a model reuses nothing.
#pragma once

#include <cstdint>

namespace gib {

// The innermost open scope's id on this thread; 0 outside any. Ids are never reused within a process.
std::uint64_t run_id();

class RunScope {
 public:
  RunScope();
  ~RunScope();
  RunScope(const RunScope&) = delete;
  RunScope& operator=(const RunScope&) = delete;

 private:
  std::uint64_t outer_;
};

}  // namespace gib
