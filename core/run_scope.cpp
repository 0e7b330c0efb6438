#include "core/run_scope.hpp"

#include <atomic>

namespace gib {
namespace {

std::atomic<std::uint64_t> g_next_run{1};
thread_local std::uint64_t t_run = 0;

}  // namespace

std::uint64_t run_id() { return t_run; }

RunScope::RunScope() : outer_(t_run) { t_run = g_next_run.fetch_add(1, std::memory_order_relaxed); }

RunScope::~RunScope() { t_run = outer_; }

}  // namespace gib
