// Sweeps across machines through MPI (OpenMPI): `mpirun -n K gibench sweep CONFIG`. Rank 0 hands out
// cells one at a time to whichever rank asks (dynamic load balancing: a slow cell never holds up the
// others), runs cells itself meanwhile, and gathers every outcome; only rank 0 journals, times and
// writes. Outcomes travel as JSON text, which round-trips doubles exactly, so the results file is the
// serial one byte for byte (on ranks of one architecture and build).
//
// MPI is initialised only when a launcher started the process (mpirun, srun): a plain `gibench sweep`
// never touches it. Without -DGIBENCH_MPI=ON at build time, a launched gibench refuses to run rather
// than have K processes each write the same sweep.
#pragma once

#include <cstddef>
#include <vector>

#include "harness/sweep_exec.hpp"

namespace gib {

// True when the environment says an MPI launcher started this process with more than one rank.
bool mpi_launched();
// This process's rank as the launcher set it in the environment (readable before MPI_Init, so also when the
// arguments fail to parse), 0 when no launcher did.
int launcher_rank();
bool mpi_built();

class MpiJob {
 public:
  MpiJob();  // MPI_Init_thread; throws std::runtime_error if MPI is not built in
  ~MpiJob();  // MPI_Finalize
  MpiJob(const MpiJob&) = delete;
  MpiJob& operator=(const MpiJob&) = delete;
  int rank() const { return rank_; }
  int size() const { return size_; }
  // Rank 0 tells the others whether the run goes ahead (false: rank 0 failed to set up, they stop).
  bool broadcast_go(bool go) const;
  // Rank 0 only reached after an error mid-run: stop every rank (MPI_Abort).
  [[noreturn]] void abort(int code) const;

 private:
  int rank_ = 0, size_ = 1;
  bool threads_ok_ = false;
  friend std::vector<std::size_t> distribute_accuracy_passes(const MpiJob&, const SweepSpec&, const NextCell&, const CellSink&, int,
                                         const MethodCatalog&);
};

// Rank 0: serves cells from next() to every rank and runs some on its own `threads` threads; every
// outcome, local or remote, reaches sink on rank 0, one call at a time. Other ranks: run what rank 0
// hands out on their `threads` threads (next and sink are not used there). Returns, on rank 0, the number
// of cells each rank ran.
std::vector<std::size_t> distribute_accuracy_passes(const MpiJob& job, const SweepSpec& spec, const NextCell& next, const CellSink& sink,
                                int threads, const MethodCatalog& methods);

}  // namespace gib
