#include "harness/sweep_mpi.hpp"

#include <cstdlib>
#include <stdexcept>

#ifdef GIBENCH_HAVE_MPI
#include <mpi.h>

#include <chrono>
#include <cstdio>
#include <cstdint>
#include <mutex>
#include <thread>
#endif

namespace gib {

bool mpi_launched() {
  for (const char* v : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_SIZE", "MPI_LOCALNRANKS"})
    if (const char* s = std::getenv(v); s != nullptr && std::atoi(s) > 1) return true;
  return false;
}

int launcher_rank() {
  for (const char* v : {"OMPI_COMM_WORLD_RANK", "PMI_RANK", "PMIX_RANK"})
    if (const char* s = std::getenv(v); s != nullptr) return std::atoi(s);
  return 0;
}

#ifndef GIBENCH_HAVE_MPI

bool mpi_built() { return false; }
MpiJob::MpiJob() {
  throw std::runtime_error(
      "started by an MPI launcher, but this gibench was built without MPI (configure with -DGIBENCH_MPI=ON)");
}
MpiJob::~MpiJob() = default;
bool MpiJob::broadcast_go(bool go) const { return go; }
void MpiJob::abort(int code) const { std::exit(code); }
std::vector<std::size_t> distribute_accuracy_passes(const MpiJob&, const SweepSpec&, const NextCell&, const CellSink&, int,
                                const MethodCatalog&) {
  throw std::logic_error("MPI is not built in");
}

#else

namespace {

constexpr int kTagRequest = 1;  // worker -> 0: the outcome of its last cell (empty on the first request)
constexpr int kTagWork = 2;     // 0 -> worker: the next cell index, or -1 when none is left

std::string encode(std::size_t index, const CellOutcome& o) {
  Json j = {{"i", index}, {"row", o.row}};
  if (!o.series.is_null()) j["series"] = o.series;
  return j.dump();
}

// A worker thread on a rank other than 0: ask, run, report with the next request.
void remote_worker(const SweepSpec& spec, const MethodCatalog& methods, std::mutex& mpi_lock) {
  std::string report;
  while (true) {
    std::int64_t index = -1;
    {
      const std::lock_guard<std::mutex> g(mpi_lock);  // one request in flight per rank: replies cannot cross
      MPI_Send(report.data(), static_cast<int>(report.size()), MPI_CHAR, 0, kTagRequest, MPI_COMM_WORLD);
      MPI_Recv(&index, 1, MPI_INT64_T, 0, kTagWork, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    if (index < 0) return;
    const auto i = static_cast<std::size_t>(index);
    report = encode(i, run_cell_guarded(spec.cells.at(i), methods));
  }
}

void deliver(const std::string& text, const CellSink& sink, std::mutex& sink_lock) {
  Json j = Json::parse(text);
  CellOutcome o{std::move(j.at("row")), j.value("series", Json())};
  const std::lock_guard<std::mutex> g(sink_lock);
  sink(j.at("i").get<std::size_t>(), std::move(o));
}

// Rank 0's main thread: answer requests until every remote worker thread has been told to stop. Polls
// with a short sleep instead of a blocking probe, which would spin a core the local threads need.
void serve(int remote_threads, const NextCell& next, const CellSink& sink, std::mutex& sink_lock,
           std::vector<std::size_t>& per_rank) {
  int stopped = 0;
  std::string buf;
  while (stopped < remote_threads) {
    int flag = 0;
    MPI_Status st;
    MPI_Iprobe(MPI_ANY_SOURCE, kTagRequest, MPI_COMM_WORLD, &flag, &st);
    if (flag == 0) {
      std::this_thread::sleep_for(std::chrono::microseconds(200));
      continue;
    }
    int count = 0;
    MPI_Get_count(&st, MPI_CHAR, &count);
    buf.resize(static_cast<std::size_t>(count));
    MPI_Recv(buf.data(), count, MPI_CHAR, st.MPI_SOURCE, kTagRequest, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    if (!buf.empty()) {
      deliver(buf, sink, sink_lock);
      ++per_rank[static_cast<std::size_t>(st.MPI_SOURCE)];
    }
    const auto i = next();
    const std::int64_t index = i ? static_cast<std::int64_t>(*i) : -1;
    if (index < 0) ++stopped;
    MPI_Send(&index, 1, MPI_INT64_T, st.MPI_SOURCE, kTagWork, MPI_COMM_WORLD);
  }
}

}  // namespace

bool mpi_built() { return true; }

MpiJob::MpiJob() {
  int provided = 0;
  MPI_Init_thread(nullptr, nullptr, MPI_THREAD_SERIALIZED, &provided);
  threads_ok_ = provided >= MPI_THREAD_SERIALIZED;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
  MPI_Comm_size(MPI_COMM_WORLD, &size_);
}

MpiJob::~MpiJob() { MPI_Finalize(); }

bool MpiJob::broadcast_go(bool go) const {
  int flag = go ? 1 : 0;
  MPI_Bcast(&flag, 1, MPI_INT, 0, MPI_COMM_WORLD);
  return flag != 0;
}

void MpiJob::abort(int code) const {
  MPI_Abort(MPI_COMM_WORLD, code);
  std::exit(code);
}

std::vector<std::size_t> distribute_accuracy_passes(const MpiJob& job, const SweepSpec& spec, const NextCell& next, const CellSink& sink,
                                int threads_wanted, const MethodCatalog& methods) {
  // Several worker threads per rank need MPI_THREAD_SERIALIZED; with less, one thread per rank.
  const int threads = job.threads_ok_ ? std::max(threads_wanted, 1) : 1;
  std::vector<int> per_rank(static_cast<std::size_t>(job.size()), 0);
  const int remote = job.rank() == 0 ? 0 : threads;
  MPI_Gather(&remote, 1, MPI_INT, per_rank.data(), 1, MPI_INT, 0, MPI_COMM_WORLD);
  if (job.rank() != 0) {
    std::mutex mpi_lock;
    std::vector<std::thread> pool;
    for (int t = 0; t < threads; ++t) pool.emplace_back([&] { remote_worker(spec, methods, mpi_lock); });
    for (auto& th : pool) th.join();
    return {};
  }
  int remote_threads = 0;
  for (const int n : per_rank) remote_threads += n;
  std::mutex sink_lock;
  std::vector<std::size_t> cells(per_rank.size(), 0);
  const CellSink locked = [&](std::size_t i, CellOutcome&& o) {
    const std::lock_guard<std::mutex> g(sink_lock);
    sink(i, std::move(o));
    ++cells[0];
  };
  std::exception_ptr local_failure;
  std::thread local([&] {
    try {
      run_accuracy_passes(spec, next, locked, threads, methods);
    } catch (...) {
      local_failure = std::current_exception();
    }
  });
  try {
    serve(remote_threads, next, sink, sink_lock, cells);
    local.join();
    if (local_failure) std::rethrow_exception(local_failure);
  } catch (const std::exception& e) {
    // The other ranks wait on rank 0 mid-protocol: only an abort frees them. The journal keeps what finished.
    std::fprintf(stderr, "gibench: error: %s (rank 0; stopping every rank)\n", e.what());
    job.abort(1);
  }
  return cells;
}

#endif

}  // namespace gib
