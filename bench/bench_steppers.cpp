// Google Benchmark of one step of every method on every preset of every rigid-body and rigid-particles problem.
// Benchmarks are named "<problem>/<preset>/<method>"; filter with --benchmark_filter=REGEX.
// The timed loop is what the harness's timing pass does: Stepper::advance over kBatch steps per benchmark
// iteration, so a method with a native state of its own (an Odeint embedding) converts once per batch, as a user
// integrating between observations would; the reported time is per iteration, `steps_per_iteration` converts it.
// h = 0.01 * time_scale keeps the state on a smooth trajectory; the stepper is reset and the initial state
// restored every 2^16 steps so that non-geometric methods cannot drift far (or overflow) during long runs.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <cstdio>
#include <exception>
#include <memory>
#include <string>
#include <vector>

#include "core/method.hpp"
#include "core/problem.hpp"
#include "harness/model_kinds.hpp"

namespace {

template <class Kind> struct Case {
  std::shared_ptr<const typename Kind::ProblemType> problem;
  const gib::MethodInfo* method;
};

// Steps per benchmark iteration: long enough that the conversions at the ends of advance() are what they are in a
// run (once per observation interval), short enough (about 3 us for the cheapest method) to restart often.
constexpr std::int64_t kBatch = 64;

template <class Kind> void bench_step(benchmark::State& bs, const Case<Kind>& k) {
  const auto& p = *k.problem;
  auto stepper = Kind::stepper(*k.method, p, k.method->default_params);
  const double h = 0.01 * p.time_scale();
  typename Kind::State x = p.initial_state();
  gib::OpCounters c;
  stepper->reset();
  std::int64_t since_restart = 0;
  for (auto _ : bs) {
    stepper->advance(x, h, kBatch, c);
    benchmark::DoNotOptimize(x);
    if ((since_restart += kBatch) >= (std::int64_t{1} << 16)) {
      bs.PauseTiming();
      x = p.initial_state();
      stepper->reset();
      since_restart = 0;
      bs.ResumeTiming();
    }
  }
  const double steps = static_cast<double>(bs.iterations()) * static_cast<double>(kBatch);
  bs.SetItemsProcessed(bs.iterations() * kBatch);
  bs.counters["steps_per_iteration"] = benchmark::Counter(static_cast<double>(kBatch));
  // Every counted primitive per step: bench/overhead.py prices them with the primitives' own benchmarks.
  const auto per_step = [&](const char* name, std::int64_t n) {
    bs.counters[name] = benchmark::Counter(static_cast<double>(n) / steps);
  };
  per_step("rhs_per_step", c.rhs_evals);
  per_step("force_per_step", c.force_evals);
  per_step("exp_per_step", c.exp_evals);
  per_step("log_per_step", c.log_evals);
  per_step("cayley_per_step", c.cayley_evals);
  per_step("solve_per_step", c.linear_solves);
  per_step("newton_iter_per_step", c.nonlinear_iters);
  per_step("work_per_step", c.work());  // the one cost currency, core/counters.hpp
  bs.counters["declared_order"] = benchmark::Counter(k.method->claims.order);
}

// The problem of one preset as the kind's problem type, or null (with a note) when it cannot be built.
template <class Kind>
std::shared_ptr<const typename Kind::ProblemType> make_preset(const gib::ProblemInfo& info, const gib::PresetInfo& preset) {
  try {
    std::unique_ptr<gib::Problem> made = info.make(preset.name, gib::Json::object(), "preset");
    auto* typed = dynamic_cast<typename Kind::ProblemType*>(made.get());
    if (typed == nullptr) return nullptr;
    made.release();
    return std::shared_ptr<const typename Kind::ProblemType>(typed);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "skipping %s/%s: %s\n", info.id.c_str(), preset.name.c_str(), e.what());
    return nullptr;
  }
}

template <class Kind> void register_kind(const gib::ProblemInfo& info) {
  for (const gib::PresetInfo& preset : info.presets) {
    if (preset.stress) continue;  // a body that leaves its basin in a few steps has no per-step cost to compare
    const auto problem = make_preset<Kind>(info, preset);
    if (problem == nullptr) continue;
    for (const gib::MethodInfo& m : gib::method_registry()) {
      if (!gib::compatible(m, info)) continue;
      try {
        gib::probe_stepper(m, *problem, m.default_params);
      } catch (const std::exception& e) {  // the factory refuses this preset (e.g. a relaxed rotation with J_i = 0)
        std::fprintf(stderr, "skipping %s on %s/%s: %s\n", m.id.c_str(), info.id.c_str(), preset.name.c_str(), e.what());
        continue;
      }
      const std::string name = info.id + "/" + preset.name + "/" + m.id;
      benchmark::RegisterBenchmark(name.c_str(), bench_step<Kind>, Case<Kind>{problem, &m});
    }
  }
}

void register_all() {
  for (const gib::ProblemInfo& info : gib::problem_registry())
    gib::visit_kind(info.kind, [&](auto kind) { register_kind<typename decltype(kind)::type>(info); });
}

}  // namespace

void register_floor_benchmarks();  // bench_floor.cpp: the plain Odeint peer and the counted primitives

int main(int argc, char** argv) {
  register_floor_benchmarks();
  register_all();
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
