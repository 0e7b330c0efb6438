// What a step should cost, measured in the same run as the steppers (bench_steppers.cpp), for bench/overhead.py:
//   peer/odeint_rk4_quat_plain  Boost.Odeint's RK4 on the 7-double quaternion state of Buss's body, written against
//                               Odeint alone (integrate_n_steps, a plain functor): what gibench's odeint_rk4_quat
//                               would cost without the harness.
//   primitive/...               each counted operation on its own (Rodrigues exp, log, Cayley, the free-body
//                               right-hand side, every problem's torque or force, a 3x3 product, the linear solves
//                               of the implicit methods), per call.
// Primitives run kInner calls per benchmark iteration, each on an input the compiler must treat as new
// (DoNotOptimize), so neither the loop nor the call can be hoisted; the per-iteration overhead of the framework is
// then shared by kInner calls.
#include <benchmark/benchmark.h>

#include <Eigen/Dense>
#include <array>
#include <boost/numeric/odeint/integrate/integrate_n_steps.hpp>
#include <boost/numeric/odeint/stepper/runge_kutta4.hpp>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <exception>
#include <memory>
#include <string>

#include "core/method.hpp"
#include "core/problem.hpp"
#include "core/so3.hpp"
#include "harness/model_kinds.hpp"

namespace {

namespace odeint = boost::numeric::odeint;

// ------------------------------------------------------------------------------------------------
// The peer: nothing of gibench on the hot path, only Odeint and doubles.

using Quat7 = std::array<double, 7>;  // q = (w, x, y, z), then Pi

struct PlainFreeBody {
  double i1, i2, i3;  // inverse principal moments
  void operator()(const Quat7& y, Quat7& dy, double /*t*/) const {
    const double w0 = i1 * y[4], w1 = i2 * y[5], w2 = i3 * y[6];
    const double qw = y[0], qx = y[1], qy = y[2], qz = y[3];
    dy[0] = -0.5 * (qx * w0 + qy * w1 + qz * w2);
    dy[1] = 0.5 * (qw * w0 + (qy * w2 - qz * w1));
    dy[2] = 0.5 * (qw * w1 + (qz * w0 - qx * w2));
    dy[3] = 0.5 * (qw * w2 + (qx * w1 - qy * w0));
    dy[4] = y[5] * w2 - y[6] * w1;
    dy[5] = y[6] * w0 - y[4] * w2;
    dy[6] = y[4] * w1 - y[5] * w0;
  }
};

// Steps per benchmark iteration, the same as bench_steppers.cpp's kBatch so both pay the same framework overhead.
constexpr int kBatch = 64;

struct PeerSetup {
  PlainFreeBody system{};
  Quat7 y0{};
  double h = 0;
};

std::unique_ptr<gib::RigidBodyProblem> buss_body() {
  std::unique_ptr<gib::Problem> p = gib::find_problem("free_rigid_body").make("buss2001", gib::Json::object(), "preset");
  return std::unique_ptr<gib::RigidBodyProblem>(dynamic_cast<gib::RigidBodyProblem*>(p.release()));
}

PeerSetup peer_setup() {
  const auto body = buss_body();
  const gib::Vec3& inv = body->model().inverse_inertia();
  const gib::RigidBodyState& x0 = body->initial_state();
  const Eigen::Vector4d q = gib::so3::quaternion_from_matrix(x0.R);
  PeerSetup s;
  s.system = {inv(0), inv(1), inv(2)};
  s.y0 = {q(0), q(1), q(2), q(3), x0.Pi(0), x0.Pi(1), x0.Pi(2)};
  s.h = 0.01 * body->time_scale();  // as bench_steppers.cpp
  return s;
}

void bench_peer(benchmark::State& bs) {
  const PeerSetup s = peer_setup();
  odeint::runge_kutta4<Quat7> rk4;
  Quat7 y = s.y0;
  double t = 0;
  std::int64_t since_restart = 0;
  for (auto _ : bs) {
    t = odeint::integrate_n_steps(rk4, s.system, y, t, s.h, kBatch);
    benchmark::DoNotOptimize(y);
    if ((since_restart += kBatch) >= (std::int64_t{1} << 16)) {  // as bench_steppers.cpp
      y = s.y0;
      t = 0;
      since_restart = 0;
    }
  }
  bs.counters["steps_per_iteration"] = benchmark::Counter(kBatch);
}

// The peer and gibench must compute the same thing for the comparison to mean anything: after 1000 steps their
// states agree to the last bit, or the run says how far apart they are.
void check_peer_matches_gibench() {
  const PeerSetup s = peer_setup();
  Quat7 y = s.y0;
  odeint::runge_kutta4<Quat7> rk4;
  odeint::integrate_n_steps(rk4, s.system, y, 0.0, s.h, 1000);
  const auto body = buss_body();
  const gib::MethodInfo& m = gib::find_method("odeint_rk4_quat");
  auto stepper = m.rigid_body(body->model(), m.default_params);
  gib::RigidBodyState x = body->initial_state();
  gib::OpCounters c;
  stepper->advance(x, s.h, 1000, c);
  const gib::Mat3 R = gib::so3::matrix_from_quaternion(Eigen::Vector4d(y[0], y[1], y[2], y[3]));
  const gib::Vec3 Pi(y[4], y[5], y[6]);
  const bool same = std::memcmp(R.data(), x.R.data(), sizeof(R)) == 0 && std::memcmp(Pi.data(), x.Pi.data(), sizeof(Pi)) == 0;
  if (!same)
    std::fprintf(stderr, "peer/odeint_rk4_quat_plain differs from odeint_rk4_quat after 1000 steps: |dR| = %g, |dPi| = %g\n",
                 (R - x.R).norm(), (Pi - x.Pi).norm());
}

// ------------------------------------------------------------------------------------------------
// The primitives.

constexpr int kInner = 64;

template <class F> void per_call(benchmark::State& bs, F&& f) {
  for (auto _ : bs)
    for (int i = 0; i < kInner; ++i) f();
  bs.counters["calls_per_iteration"] = benchmark::Counter(kInner);
}

// A rotation and an increment of the size a step takes (h |omega| about 0.01 to 0.1 rad).
const gib::Vec3 kU(0.031, -0.047, 0.022);
gib::Mat3 some_rotation() { return gib::so3::exp(gib::Vec3(0.4, -0.3, 0.9)); }

void bench_exp(benchmark::State& bs) {
  gib::Vec3 u = kU;
  per_call(bs, [&] {
    benchmark::DoNotOptimize(u);
    gib::Mat3 E = gib::so3::exp(u);
    benchmark::DoNotOptimize(E);
  });
}

void bench_log(benchmark::State& bs) {
  gib::Mat3 R = some_rotation();
  per_call(bs, [&] {
    benchmark::DoNotOptimize(R);
    gib::Vec3 u = gib::so3::log(R);
    benchmark::DoNotOptimize(u);
  });
}

void bench_cayley(benchmark::State& bs) {
  gib::Vec3 u = kU;
  per_call(bs, [&] {
    benchmark::DoNotOptimize(u);
    gib::Mat3 C = gib::so3::cayley(u);
    benchmark::DoNotOptimize(C);
  });
}

void bench_product(benchmark::State& bs) {
  gib::Mat3 A = some_rotation(), B = gib::so3::exp(kU);
  per_call(bs, [&] {
    benchmark::DoNotOptimize(A);
    benchmark::DoNotOptimize(B);
    gib::Mat3 C = A * B;
    benchmark::DoNotOptimize(C);
  });
}

// The free body's right-hand side as the methods evaluate it: omega = I^-1 Pi and Pidot = Pi x omega (+ T(R)).
void bench_free_body_rhs(benchmark::State& bs) {
  const auto body = buss_body();
  const gib::RigidBodyModel& model = body->model();
  gib::Mat3 R = body->initial_state().R;
  gib::Vec3 Pi = body->initial_state().Pi;
  per_call(bs, [&] {
    benchmark::DoNotOptimize(R);
    benchmark::DoNotOptimize(Pi);
    gib::Vec3 w = model.angular_velocity(Pi);
    gib::Vec3 pd = model.pi_dot(R, Pi);
    benchmark::DoNotOptimize(w);
    benchmark::DoNotOptimize(pd);
  });
}

// (I - J) dx = r by partial-pivoting LU, as methods/implicit/nonlinear_solver.hpp solves it.
template <int N> void bench_solve(benchmark::State& bs) {
  using Mat = Eigen::Matrix<double, N, N>;
  using Vec = Eigen::Matrix<double, N, 1>;
  Mat J;
  for (int i = 0; i < N; ++i)
    for (int j = 0; j < N; ++j) J(i, j) = 0.01 * std::sin(1.0 + i + 3.0 * j);
  Vec r = Vec::LinSpaced(N, 0.1, 1.0);
  per_call(bs, [&] {
    benchmark::DoNotOptimize(J);
    benchmark::DoNotOptimize(r);
    Vec dx = (Mat::Identity() - J).partialPivLu().solve(r);
    benchmark::DoNotOptimize(dx);
  });
}

// The first preset of every problem with a force (a torque-free body has none to price).
void register_force(const gib::ProblemInfo& info) {
  std::shared_ptr<const gib::Problem> made;
  try {
    made = info.make(info.presets.front().name, gib::Json::object(), "preset");
  } catch (const std::exception& e) {
    std::fprintf(stderr, "skipping the force of %s: %s\n", info.id.c_str(), e.what());
    return;
  }
  const std::string name = "primitive/force/" + info.id + "/" + info.presets.front().name;
  // The kind's traits make the call as its methods do (harness/model_kinds.hpp ForceProbe).
  gib::visit_kind(*made, [&](auto kind, const auto& typed) {
    using Kind = typename decltype(kind)::type;
    if (!Kind::has_force(typed)) return;
    benchmark::RegisterBenchmark(name.c_str(), [made, &typed](benchmark::State& bs) {
      typename Kind::ForceProbe probe(typed);
      per_call(bs, [&] {
        benchmark::ClobberMemory();  // the state may have changed: the call cannot be hoisted
        probe();
        benchmark::DoNotOptimize(probe.result());
      });
    });
  });
}

}  // namespace

// Called by bench_steppers.cpp's main before the steppers are registered.
void register_floor_benchmarks() {
  check_peer_matches_gibench();
  benchmark::RegisterBenchmark("peer/odeint_rk4_quat_plain", bench_peer);
  benchmark::RegisterBenchmark("primitive/exp", bench_exp);
  benchmark::RegisterBenchmark("primitive/log", bench_log);
  benchmark::RegisterBenchmark("primitive/cayley", bench_cayley);
  benchmark::RegisterBenchmark("primitive/mat3_product", bench_product);
  benchmark::RegisterBenchmark("primitive/free_body_rhs", bench_free_body_rhs);
  benchmark::RegisterBenchmark("primitive/solve/3", bench_solve<3>);
  benchmark::RegisterBenchmark("primitive/solve/6", bench_solve<6>);
  benchmark::RegisterBenchmark("primitive/solve/9", bench_solve<9>);
  for (const gib::ProblemInfo& info : gib::problem_registry()) register_force(info);
}
