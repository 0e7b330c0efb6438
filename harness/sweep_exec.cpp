#include "harness/sweep_exec.hpp"

#include <atomic>
#include <chrono>
#include <exception>
#include <memory>
#include <cstdio>
#include <mutex>
#include <sched.h>
#include <unistd.h>
#include <vector>

#include "harness/timing.hpp"

#ifdef _OPENMP
#include <omp.h>
#endif

namespace gib {
namespace {

// Pins a pool thread to one CPU of the process's allowed set while it runs cells, and restores the old
// mask after. Without it, the Linux scheduler on some virtual machines keeps two busy threads of one
// process on one vCPU (measured: --jobs 2 no faster than --jobs 1, while processes that mpirun binds to
// cores ran in parallel). Only when every thread can have a CPU of its own.
class PinnedToCpu {
 public:
  PinnedToCpu(int slot, int threads) {
    if (threads < 2 || ::sched_getaffinity(0, sizeof saved_, &saved_) != 0) return;
    std::vector<int> cpus;
    for (int c = 0; c < CPU_SETSIZE; ++c)
      if (CPU_ISSET(c, &saved_)) cpus.push_back(c);
    if (static_cast<int>(cpus.size()) < threads) return;
    cpu_set_t one;
    CPU_ZERO(&one);
    CPU_SET(cpus[static_cast<std::size_t>(slot)], &one);
    pinned_ = ::sched_setaffinity(0, sizeof one, &one) == 0;
  }
  ~PinnedToCpu() {
    if (pinned_) ::sched_setaffinity(0, sizeof saved_, &saved_);
  }
  PinnedToCpu(const PinnedToCpu&) = delete;
  PinnedToCpu& operator=(const PinnedToCpu&) = delete;

 private:
  cpu_set_t saved_{};
  bool pinned_ = false;
};

double seconds_now() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

Json error_row(const Cell& c, const std::string& what) {
  return {{"problem", c.problem}, {"preset", c.preset},   {"ic", c.ic},
          {"method", c.method},   {"h", c.h},             {"steps", c.steps},
          {"T", c.h * static_cast<double>(c.steps)},      {"rep", c.rep},
          {"status", "error"},    {"status_step", nullptr}, {"status_detail", what},
          {"metrics", Json::object()}, {"timing", nullptr}};
}

}  // namespace

Progress::Progress(std::string name, std::size_t total, std::size_t already, bool enabled)
    : name_(std::move(name)), total_(total), done_(already), enabled_(enabled), tty_(::isatty(2) != 0),
      t0_(seconds_now()) {}

Progress::~Progress() {
  if (printed_ && tty_) std::fprintf(stderr, "\n");
}

CellSink Progress::counting(CellSink sink) {
  return [this, sink = std::move(sink)](std::size_t i, CellOutcome&& o) {
    sink(i, std::move(o));
    tick();
  };
}

void Progress::tick() {
  ++done_;
  if (!enabled_) return;
  const double el = seconds_now() - t0_;
  if (el < 3.0 || (el - last_ < (tty_ ? 0.5 : 10.0) && done_ != total_)) return;
  last_ = el;
  const double eta = done_ > 0 ? el * static_cast<double>(total_ - done_) / static_cast<double>(done_) : 0;
  std::fprintf(stderr, "%sgibench: %s: accuracy %zu/%zu cells, %.1f s elapsed, ~%.0f s left%s", tty_ ? "\r" : "",
               name_.c_str(), done_, total_, el, eta, tty_ ? "   " : "\n");
  printed_ = true;
}

CellOutcome run_cell_guarded(const Cell& c, const MethodCatalog& methods) {
  try {
    Cell accuracy = c;
    accuracy.timing.reps = 0;
    CellOutcome o = run_cell(accuracy, methods);
    o.row["timing"] = nullptr;
    return o;
  } catch (const std::exception& e) {
    return {error_row(c, e.what()), Json()};
  }
}

NextCell next_from_list(std::vector<std::size_t> todo) {
  auto list = std::make_shared<std::vector<std::size_t>>(std::move(todo));
  auto at = std::make_shared<std::atomic<std::size_t>>(0);
  return [list, at]() -> std::optional<std::size_t> {
    const std::size_t k = at->fetch_add(1);
    if (k >= list->size()) return std::nullopt;
    return (*list)[k];
  };
}

void run_accuracy_passes(const SweepSpec& spec, const NextCell& next, const CellSink& sink, int threads_wanted,
                         const MethodCatalog& methods) {
  std::mutex lock;
  std::exception_ptr sink_failure;  // a journal that cannot be written stops the sweep, on every thread
  std::atomic<bool> stop{false};
  const int threads = threads_wanted > 0 ? threads_wanted : 1;
#pragma omp parallel num_threads(threads)
  {
#ifdef _OPENMP
    const PinnedToCpu pin(omp_get_thread_num(), omp_get_num_threads());
#endif
    while (!stop.load()) {
      const auto i = next();
      if (!i) break;
      CellOutcome o = run_cell_guarded(spec.cells.at(*i), methods);
      const std::lock_guard<std::mutex> g(lock);
      try {
        sink(*i, std::move(o));
      } catch (...) {
        if (!sink_failure) sink_failure = std::current_exception();
        stop = true;
      }
    }
  }
  if (sink_failure) std::rethrow_exception(sink_failure);
}

std::vector<std::size_t> cells_to_time(const SweepSpec& spec, const std::vector<CellOutcome>& outcomes,
                                       const std::vector<std::size_t>& done) {
  std::vector<std::size_t> out;
  for (const std::size_t i : done)
    if (spec.cells[i].timing.reps > 0 && outcomes[i].row.value("status", "") == "ok") out.push_back(i);
  return out;
}

std::vector<Json> run_timing_passes(const SweepSpec& spec, const std::vector<std::size_t>& indices,
                                    const MethodCatalog& methods, bool progress) {
  if (indices.empty()) return {};
  std::vector<Cell> cells;
  for (const std::size_t i : indices) cells.push_back(spec.cells[i]);
  if (progress)
    std::fprintf(stderr, "gibench: %s: timing %zu cells x %d repetitions, interleaved\n", spec.name.c_str(),
                 cells.size(), cells.front().timing.reps);
  return time_cells_interleaved(cells, methods);
}

}  // namespace gib
