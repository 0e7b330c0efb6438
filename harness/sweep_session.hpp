// One `gibench sweep` run from start to file: which cells this process owns (all, one shard of K, or a
// share handed out by MPI rank 0), the journal that lets a killed run resume, the accuracy passes on
// threads or ranks, the timing passes one cell at a time, and the results (or shard) file written by
// rename. Whatever the route, the rows come out in cell order with the same bytes.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "core/safe_file.hpp"
#include "harness/sweep.hpp"

namespace gib {

struct ShardSpec {
  int index = 0, count = 1;  // this process runs the cells whose index is index mod count
  bool active() const { return count > 1; }
};
// "i/K" with 0 <= i < K; throws InputError otherwise.
ShardSpec parse_shard(const std::string& text);

struct SweepSessionOptions {
  std::filesystem::path out;  // results file, or shard file with --shard
  int jobs = 0;               // threads (per rank under MPI, default 1 there); 0: all cores
  bool resume = false;        // continue from the journal beside `out`
  bool restart = false;       // discard such a journal
  bool reproducible = false;  // leave date, host and command line out of the manifest: same config, same bytes
  bool progress = true;
  double cell_time_budget_s = -1;  // >= 0 overrides the config's cell_time_budget_s
  ShardSpec shard;
  std::vector<std::string> command_line;
  const MethodCatalog* methods = nullptr;  // null: the registry (tests pass altered methods)
  // Files the command reads (the config; merge adds the shards): `out` and its journal must be none of them.
  std::vector<NamedInput> inputs;
};

struct SweepSessionResult {
  bool wrote = false;  // false on MPI ranks other than 0
  std::filesystem::path out;
  Json summary;        // status_summary of the rows this process wrote
  std::size_t resumed = 0;  // cells taken from the journal
  int ranks = 1;
  std::vector<std::size_t> cells_per_rank;  // MPI runs
};

SweepSessionResult run_sweep_session(SweepSpec spec, const SweepSessionOptions& opt);

// The shard files of one sweep (any order) into the results file a single run would have written.
// Throws InputError on a shard of another sweep, a missing or duplicated cell.
SweepSessionResult merge_shards(const std::vector<std::filesystem::path>& shards, const SweepSessionOptions& opt);

}  // namespace gib
