// Google Benchmark of one step of every rigid-body method on every preset of every rigid-body problem.
// Benchmarks are named "<problem>/<preset>/<method>"; filter with --benchmark_filter=REGEX.
// The timed loop is exactly what the harness does per step: one virtual call to Stepper::step with the
// counters. h = 0.01 * time_scale keeps the state on a smooth trajectory; the stepper is reset and the
// initial state restored every 2^16 steps so that non-geometric methods cannot drift far (or overflow)
// during long timing runs.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <cstdio>
#include <exception>
#include <memory>
#include <string>
#include <vector>

#include "core/method.hpp"
#include "core/problem.hpp"

namespace {

struct Case {
  std::shared_ptr<const gib::RigidBodyProblem> problem;
  const gib::MethodInfo* method;
};

void bench_step(benchmark::State& bs, const Case& k) {
  const gib::RigidBodyProblem& p = *k.problem;
  std::unique_ptr<gib::RigidBodyStepper> stepper = k.method->rigid_body(p.model(), k.method->default_params);
  const double h = 0.01 * p.time_scale();
  gib::RigidBodyState x = p.initial_state();
  gib::OpCounters c;
  stepper->reset();
  std::int64_t since_restart = 0;
  for (auto _ : bs) {
    stepper->step(x, h, c);
    benchmark::DoNotOptimize(x);
    if (++since_restart == (std::int64_t{1} << 16)) {
      bs.PauseTiming();
      x = p.initial_state();
      stepper->reset();
      since_restart = 0;
      bs.ResumeTiming();
    }
  }
  const double steps = static_cast<double>(bs.iterations());
  bs.SetItemsProcessed(bs.iterations());
  bs.counters["rhs_per_step"] = benchmark::Counter(static_cast<double>(c.rhs_evals) / steps);
  bs.counters["exp_per_step"] = benchmark::Counter(static_cast<double>(c.exp_evals) / steps);
  bs.counters["declared_order"] = benchmark::Counter(k.method->claims.order);
}

void register_all() {
  for (const gib::ProblemInfo& info : gib::problem_registry()) {
    if (info.kind != gib::ModelKind::rigid_body) continue;
    for (const gib::PresetInfo& preset : info.presets) {
      if (preset.stress) continue;  // a body that leaves its basin in a few steps has no per-step cost to compare
      std::shared_ptr<const gib::RigidBodyProblem> problem;
      try {
        std::unique_ptr<gib::Problem> made = info.make(preset.name, gib::Json::object(), "preset");
        auto* rb = dynamic_cast<gib::RigidBodyProblem*>(made.get());
        if (rb == nullptr) continue;
        made.release();
        problem.reset(rb);
      } catch (const std::exception& e) {
        std::fprintf(stderr, "skipping %s/%s: %s\n", info.id.c_str(), preset.name.c_str(), e.what());
        continue;
      }
      for (const gib::MethodInfo& m : gib::method_registry()) {
        if (!gib::compatible(m, info)) continue;
        const std::string name = info.id + "/" + preset.name + "/" + m.id;
        benchmark::RegisterBenchmark(name.c_str(), bench_step, Case{problem, &m});
      }
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
  register_all();
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
