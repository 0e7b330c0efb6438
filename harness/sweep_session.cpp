#include "harness/sweep_session.hpp"

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <map>
#include <optional>

#include "core/errors.hpp"
#include "core/user_input.hpp"
#include "harness/crash_recorder.hpp"
#include "harness/json_fields.hpp"
#include "harness/json_util.hpp"
#include "harness/manifest.hpp"
#include "harness/sweep_exec.hpp"
#include "harness/sweep_journal.hpp"
#include "harness/sweep_mpi.hpp"
#include "harness/threads.hpp"

namespace gib {

ShardSpec parse_shard(const std::string& text) {
  const auto slash = text.find('/');
  if (slash == std::string::npos) throw InputError("--shard expects i/K (e.g. 0/4), got " + quote_excerpt(text));
  const std::string_view all(text);
  ShardSpec s;
  s.count = static_cast<int>(parse_integer(all.substr(slash + 1), "--shard i/K: K", 1, std::numeric_limits<int>::max()));
  s.index = static_cast<int>(parse_integer(all.substr(0, slash), "--shard i/K: i", 0, s.count - 1));
  return s;
}

namespace {

// The run's state on the process that writes: one outcome slot per cell, which phases are done.
struct Ledger {
  std::vector<CellOutcome> outcomes;
  std::vector<char> accuracy_done, timing_done;
  explicit Ledger(std::size_t n) : outcomes(n), accuracy_done(n, 0), timing_done(n, 0) {}
};

std::vector<std::size_t> owned_cells(const SweepSpec& spec, const ShardSpec& shard) {
  std::vector<std::size_t> out;
  for (std::size_t i = 0; i < spec.cells.size(); ++i)
    if (static_cast<int>(i % static_cast<std::size_t>(shard.count)) == shard.index) out.push_back(i);
  return out;
}

constexpr int kCrashesRecorded = 2;

Json crashed_row(const Cell& c, int signal) {
  return {{"problem", c.problem},
          {"preset", c.preset},
          {"ic", c.ic},
          {"method", c.method},
          {"h", c.h},
          {"steps", c.steps},
          {"T", c.h * static_cast<double>(c.steps)},
          {"rep", c.rep},
          {"status", "crashed"},
          {"status_step", nullptr},
          {"status_detail", "the cell crashed the sweep process twice, last with signal " + std::to_string(signal) + " (" +
                                strsignal(signal) + "); not run again on resume"},
          {"metrics", Json::object()},
          {"timing", nullptr}};
}

std::size_t restore(const SweepSpec& spec, Ledger& ledger, std::vector<JournalRecord>& records) {
  std::size_t cells = 0;
  for (auto& r : records) {
    if (r.phase == "accuracy") {
      ledger.outcomes[r.index] = {std::move(r.row), std::move(r.series)};
      ledger.accuracy_done[r.index] = 1;
      ++cells;
    }
  }
  // A crash record can be a signal from outside (kill -SEGV) that hit a healthy cell: the first one only earns
  // the cell another run, so a resumed sweep still equals a serial one. A cell that crashes on that run too is
  // recorded as crashed and left alone.
  std::map<std::size_t, int> crashes;
  for (auto& r : records)
    if (r.phase == "crash" && !ledger.accuracy_done[r.index] && ++crashes[r.index] == kCrashesRecorded) {
      ledger.outcomes[r.index] = {crashed_row(spec.cells[r.index], r.signal), Json()};
      ledger.accuracy_done[r.index] = 1;
      ++cells;
    }
  for (auto& r : records)  // a timing record without its accuracy record is ignored; the cell is timed again
    if (r.phase == "timing" && ledger.accuracy_done[r.index]) {
      ledger.outcomes[r.index].row["timing"] = std::move(r.row);
      ledger.timing_done[r.index] = 1;
    }
  return cells;
}

SweepJournal open_journal(const SweepSpec& spec, const SweepSessionOptions& opt, Ledger& ledger, std::size_t& resumed) {
  const auto path = SweepJournal::path_for(opt.out);
  // Both names are settled before the first cell runs, not after the last one.
  check_output_file(opt.out, "--out", opt.inputs);
  check_output_file(path, "--out's journal", opt.inputs);
  if (!opt.resume) return SweepJournal::create(path, spec, opt.restart);
  std::vector<JournalRecord> records;
  SweepJournal j = SweepJournal::resume(path, spec, records);
  resumed = restore(spec, ledger, records);
  return j;
}

void run_timings(const SweepSpec& spec, const std::vector<std::size_t>& mine, Ledger& ledger, SweepJournal& journal,
                 const SweepSessionOptions& opt, const MethodCatalog& methods) {
  std::vector<std::size_t> todo;
  for (const std::size_t i : cells_to_time(spec, ledger.outcomes, mine))
    if (!ledger.timing_done[i]) todo.push_back(i);
  const auto timings = run_timing_passes(spec, todo, methods, opt.progress);
  for (std::size_t k = 0; k < todo.size(); ++k) {
    ledger.outcomes[todo[k]].row["timing"] = timings[k];
    journal.append({todo[k], "timing", timings[k], Json()});
  }
}

void finish_manifest(Json& doc, const SweepSessionOptions& opt, const Json& run) {
  Json& m = doc["manifest"];
  if (opt.reproducible) {
    for (const char* volatile_key : {"date_utc", "hostname", "command_line"}) m.erase(volatile_key);
    m["reproducible"] = true;
  } else {
    m["run"] = run;
  }
}

Json shard_document(const SweepSpec& spec, const ShardSpec& shard, const std::vector<std::size_t>& mine,
                    Ledger& ledger, const SweepSessionOptions& opt) {
  Json outcomes = Json::array(), rows = Json::array();
  for (const std::size_t i : mine) {
    Json o = {{"i", i}, {"row", ledger.outcomes[i].row}};
    if (!ledger.outcomes[i].series.is_null()) o["series"] = ledger.outcomes[i].series;
    rows.push_back(ledger.outcomes[i].row);
    outcomes.push_back(std::move(o));
  }
  return {{"schema_version", 1},
          {"kind", "gibench.sweep_shard"},
          {"fingerprint", sweep_fingerprint(spec)},
          {"cells", spec.cells.size()},
          {"shard", {{"index", shard.index}, {"count", shard.count}}},
          {"config", spec.config},
          {"summary", status_summary(rows)},
          {"manifest", build_manifest(opt.command_line, Json::object())},
          {"outcomes", outcomes}};
}

// Accuracy passes of the pending cells, locally or (rank 0 side) over MPI.
std::vector<std::size_t> run_pending(const SweepSpec& spec, const std::vector<std::size_t>& pending, std::size_t owned, Ledger& ledger,
                 SweepJournal& journal, int threads, const MpiJob* job, bool show_progress,
                 const MethodCatalog& methods) {
  Progress progress(spec.name, owned, owned - pending.size(), show_progress);
  const CellSink sink = progress.counting([&](std::size_t i, CellOutcome&& o) {
    journal.append({i, "accuracy", o.row, o.series});
    ledger.outcomes[i] = std::move(o);
    ledger.accuracy_done[i] = 1;
  });
  // The thread that takes a cell runs it (rank 0's server thread hands cells to other ranks, where a crash
  // ends the whole MPI job: those cells are simply run again on resume).
  CrashRecorder crashes(journal.fd());
  const NextCell next = [&journal, list = next_from_list(pending)]() {
    auto i = list();
    if (i) CrashRecorder::running(journal.crash_record_prefix(*i));
    else CrashRecorder::idle();
    return i;
  };
  if (job != nullptr) return distribute_accuracy_passes(*job, spec, next, sink, threads, methods);
  run_accuracy_passes(spec, next, sink, threads, methods);
  return {};
}

void apply_budget(SweepSpec& spec, double budget) {
  if (!(budget >= 0)) return;  // not given
  for (Cell& c : spec.cells) c.time_budget_s = budget;
}

}  // namespace

SweepSessionResult run_sweep_session(SweepSpec spec, const SweepSessionOptions& opt) {
  const auto t0 = std::chrono::steady_clock::now();
  const MethodCatalog& methods = opt.methods != nullptr ? *opt.methods : registry_catalog();
  apply_budget(spec, opt.cell_time_budget_s);
  check_sweep_cells(spec, methods);
  std::optional<MpiJob> job;
  if (mpi_launched()) job.emplace();
  const int ranks = job ? job->size() : 1;
  const int threads = job && opt.jobs == 0 ? 1 : thread_count(opt.jobs);
  if (job && job->rank() != 0) {  // a worker rank: no journal, no file; rank 0 says whether to go
    if (job->broadcast_go(false)) distribute_accuracy_passes(*job, spec, NextCell(), CellSink(), threads, methods);
    return {false, {}, Json(), 0, ranks, {}};
  }
  const std::vector<std::size_t> mine = owned_cells(spec, opt.shard);
  Ledger ledger(spec.cells.size());
  std::size_t resumed = 0;
  std::optional<SweepJournal> journal;
  try {
    journal.emplace(open_journal(spec, opt, ledger, resumed));
  } catch (...) {
    if (job) job->broadcast_go(false);
    throw;
  }
  if (job) job->broadcast_go(true);
  std::vector<std::size_t> pending;
  for (const std::size_t i : mine)
    if (!ledger.accuracy_done[i]) pending.push_back(i);
  const auto per_rank =
      run_pending(spec, pending, mine.size(), ledger, *journal, threads, job ? &*job : nullptr, opt.progress, methods);
  run_timings(spec, mine, ledger, *journal, opt, methods);

  const Json run = {{"threads_per_rank", threads}, {"mpi_ranks", ranks},
                    {"shard", opt.shard.active() ? Json({opt.shard.index, opt.shard.count}) : Json(nullptr)},
                    {"cells_resumed_from_journal", resumed},
                    {"cells_per_rank", per_rank.empty() ? Json(nullptr) : Json(per_rank)},
                    {"wall_seconds", std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count()}};
  Json doc = opt.shard.active() ? shard_document(spec, opt.shard, mine, ledger, opt)
                                : results_document("gibench.results", assemble_sweep(spec, std::move(ledger.outcomes)),
                                                   opt.command_line);
  const Json summary = doc["summary"];
  finish_manifest(doc, opt, run);
  write_json_atomic(opt.out, doc);
  journal->remove();
  return {true, opt.out, summary, resumed, ranks, per_rank};
}

namespace {

// Everything merge reads from a shard file is checked before it is used, with the file and the field named: a
// shard edited by hand, cut short or taken from another sweep is bad input.
struct ShardFile {
  std::filesystem::path path;
  Json doc;
  std::string fingerprint;
  std::int64_t cells = 0;
  int index = 0, count = 0;
};

ShardFile read_shard(const std::filesystem::path& path) {
  ShardFile f{path, read_json_file(path), {}, 0, 0, 0};
  const std::string root = path.string() + ":";
  const Json* kind = f.doc.is_object() ? json_optional_field(f.doc, "kind", JsonKind::string, root) : nullptr;
  if (kind == nullptr || *kind != "gibench.sweep_shard")
    throw InputError(root + " not a gibench shard file (gibench sweep --shard i/K writes them)");
  f.fingerprint = json_field(f.doc, "fingerprint", JsonKind::string, root).get<std::string>();
  f.cells = json_integer_field(f.doc, "cells", 1, std::numeric_limits<std::int64_t>::max(), root);
  const Json& shard = json_field(f.doc, "shard", JsonKind::object, root);
  f.count = static_cast<int>(json_integer_field(shard, "count", 1, std::numeric_limits<int>::max(), root + " shard"));
  f.index = static_cast<int>(json_integer_field(shard, "index", 0, f.count - 1, root + " shard"));
  json_field(f.doc, "config", JsonKind::object, root);
  json_field(f.doc, "outcomes", JsonKind::array, root);
  return f;
}

// A row must be the one the sweep wrote for cell c: the fields assembling the results read, of their types,
// and the cell's identity.
void check_shard_row(const Json& row, const Cell& c, const std::string& where) {
  for (const char* key : {"problem", "preset", "ic", "method", "status"}) json_field(row, key, JsonKind::string, where);
  for (const char* key : {"h", "T"}) json_field(row, key, JsonKind::number, where);
  for (const char* key : {"steps", "rep"}) json_field(row, key, JsonKind::integer, where);
  json_field(row, "metrics", JsonKind::object, where);
  json_optional_field(row, "timing", JsonKind::object, where);
  json_optional_field(row, "method_params", JsonKind::object, where);
  json_optional_field(row, "param_hash", JsonKind::string, where);
  if (row["problem"] != c.problem || row["method"] != c.method || row["ic"] != c.ic || row["h"] != c.h ||
      row["steps"] != c.steps || row["rep"] != c.rep)
    throw InputError(where + ": the row is not the config's cell (problem, method, ic, h, steps or rep differ)");
}

}  // namespace

SweepSessionResult merge_shards(const std::vector<std::filesystem::path>& paths, const SweepSessionOptions& opt) {
  if (paths.empty()) throw InputError("merge: no shard files given");
  std::vector<NamedInput> inputs = opt.inputs;
  for (const auto& p : paths) inputs.push_back({p, "a shard file"});
  check_output_file(opt.out, "--out", inputs);
  std::vector<ShardFile> files;
  for (const auto& p : paths) files.push_back(read_shard(p));
  const ShardFile& first = files.front();
  std::vector<const ShardFile*> by_index(static_cast<std::size_t>(first.count), nullptr);
  for (const auto& f : files) {
    const std::string where = f.path.string();
    if (f.fingerprint != first.fingerprint || f.cells != first.cells)
      throw InputError(where + ": a shard of another sweep (its config differs from the first shard's)");
    if (f.count != first.count)
      throw InputError(where + ": shard " + std::to_string(f.index) + "/" + std::to_string(f.count) + ", but " +
                       first.path.string() + " is one of " + std::to_string(first.count));
    const ShardFile*& slot = by_index[static_cast<std::size_t>(f.index)];
    if (slot != nullptr)
      throw InputError(where + ": shard " + std::to_string(f.index) + "/" + std::to_string(f.count) + " again (also " +
                       slot->path.string() + ")");
    slot = &f;
  }
  const SweepSpec spec = parse_sweep(first.doc["config"], first.path.string() + ": config");
  if (sweep_fingerprint(spec) != first.fingerprint || static_cast<std::int64_t>(spec.cells.size()) != first.cells)
    throw InputError(first.path.string() + ": fingerprint does not match its config (edited by hand?)");
  std::vector<CellOutcome> outcomes(spec.cells.size());
  std::vector<char> have(spec.cells.size(), 0);
  for (const auto& f : files) {
    std::size_t k = 0;
    for (const auto& o : f.doc["outcomes"]) {
      const std::string where = f.path.string() + ": outcomes[" + std::to_string(k++) + "]";
      const auto i = static_cast<std::size_t>(json_integer_field(o, "i", 0, f.cells - 1, where));
      if (static_cast<int>(i % static_cast<std::size_t>(f.count)) != f.index)
        throw InputError(where + ": cell " + std::to_string(i) + " is not in shard " + std::to_string(f.index) + "/" +
                         std::to_string(f.count));
      if (have[i]) throw InputError(where + ": cell " + std::to_string(i) + " appears twice");
      check_shard_row(json_field(o, "row", JsonKind::object, where), spec.cells[i], where + ".row");
      const Json* series = json_optional_field(o, "series", JsonKind::object, where);
      have[i] = 1;
      outcomes[i] = {o["row"], series != nullptr ? *series : Json()};
    }
  }
  for (std::size_t i = 0; i < have.size(); ++i)
    if (!have[i]) throw InputError("merge: cell " + std::to_string(i) + " of " + std::to_string(have.size()) + " is in no shard (a shard file missing?)");
  const SweepResult r = assemble_sweep(spec, std::move(outcomes));
  Json doc = results_document("gibench.results", r, opt.command_line);
  finish_manifest(doc, opt, {{"merged_shards", paths.size()}});
  write_json_atomic(opt.out, doc);
  return {true, opt.out, doc["summary"], 0, 1, {}};
}

}  // namespace gib
