// Stepper::advance(n) against n calls of step(): the timing pass and the benchmarks use advance, the accuracy
// pass uses step, so a method's time and its accuracy belong to the same computation only if the two agree bit for
// bit, counted operations included. Every registered method on one problem per kind (two for rigid bodies, so
// that the torque paths run too).
#include <catch2/catch.hpp>
#include <cstdint>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "core/errors.hpp"
#include "core/method.hpp"
#include "core/problem.hpp"
#include "core/so3.hpp"
#include "harness/model_kinds.hpp"

namespace gibench_test_advance {

namespace {

using gib::OpCounters;

using gib::same_bits;  // every model kind's state, core/state.hpp and core/vector_field.hpp

bool same_counts(const OpCounters& a, const OpCounters& b) {
  return a.rhs_evals == b.rhs_evals && a.force_evals == b.force_evals && a.exp_evals == b.exp_evals &&
         a.log_evals == b.log_evals && a.cayley_evals == b.cayley_evals && a.linear_solves == b.linear_solves &&
         a.nonlinear_iters == b.nonlinear_iters && a.nonlinear_iters_max == b.nonlinear_iters_max &&
         a.solver_failures == b.solver_failures;
}

// Steps of the comparison: advance from a fresh stepper, then again from the state it wrote, then after a step.
constexpr std::int64_t kFirst = 3, kSecond = 6, kThird = 5;

// Empty when advance(kFirst), advance(kSecond), step(), advance(kThird) give, after each call, the status, the
// step count, the state and the counted operations of the same number of step() calls (which stop at a failure as
// advance does); otherwise what differed first.
// Two copies of a state, one stepped by step() and one by advance(), with their counts: after each advance, `check`
// takes the same number of step() calls (stopping at a failure as advance does) and says what differs.
template <class State> struct Lockstep {
  explicit Lockstep(const State& x0) : a(x0), b(x0) {}
  State a, b;  // by step(), by advance()
  OpCounters ca, cb;
  std::int64_t done = 0;
  bool failed = false;

  std::string check(gib::Stepper<State>& by_step, std::int64_t n, double h, const gib::Advanced& r, const char* what) {
    gib::Advanced expected{gib::StepStatus::ok, 0};
    while (expected.steps < n && expected.status == gib::StepStatus::ok) {
      expected.status = by_step.step(a, h, ca);
      ++expected.steps;
    }
    done += expected.steps;
    failed = expected.status != gib::StepStatus::ok;
    if (r.status != expected.status || r.steps != expected.steps) return std::string(what) + ": status or step count";
    if (!same_bits(a, b)) return std::string(what) + ": state differs after " + std::to_string(done) + " steps";
    if (!same_counts(ca, cb)) return std::string(what) + ": counted operations differ after " + std::to_string(done) + " steps";
    return "";
  }
};

template <class State>
std::string advance_mismatch(gib::Stepper<State>& by_step, gib::Stepper<State>& by_advance, const State& x0, double h) {
  Lockstep<State> l(x0);
  by_step.reset();
  by_advance.reset();
  const auto compare = [&](std::int64_t n, const gib::Advanced& r, const char* what) { return l.check(by_step, n, h, r, what); };
  if (auto e = compare(kFirst, by_advance.advance(l.b, h, kFirst, l.cb), "first advance"); !e.empty() || l.failed) return e;
  if (auto e = compare(kSecond, by_advance.advance(l.b, h, kSecond, l.cb), "second advance"); !e.empty() || l.failed) return e;
  const gib::StepStatus s = by_advance.step(l.b, h, l.cb);
  if (auto e = compare(1, {s, 1}, "step between advances"); !e.empty() || l.failed) return e;
  return compare(kThird, by_advance.advance(l.b, h, kThird, l.cb), "third advance");
}

struct Subject {
  const char* problem;
  const char* preset;
};

// One problem per kind; the rigid body three times: torque-free, under torque, and isotropic (the SO(3) Zhang-Skeel
// scheme needs one scalar mass).
const std::vector<Subject> kSubjects = {{"free_rigid_body", "buss2001"},
                                        {"lagrange_top", "slow"},
                                        {"magnetized_body", "taoowhadi2014"},
                                        {"dipolar_spheres", "kjer2017_n10"},
                                        {"double_pendulum", "taoowhadi2014"},
                                        {"pendulum", "mq1998"},
                                        {"toda", "mq1998"},
                                        {"kepler", "e0.5"},
                                        {"damped_pendulum", "mq1998_alpha0.1"},
                                        {"volterra", "mq1998"}};

}  // namespace

// compare(method, by_step, by_advance, x0, h) for every registered method on every subject it runs on, with two
// fresh steppers of its default parameters; returns the ids covered.
template <class Compare> std::set<std::string> for_each_stepper_pair(Compare&& compare) {
  std::set<std::string> covered;
  for (const Subject& s : kSubjects) {
    const gib::ProblemInfo& info = gib::find_problem(s.problem);
    const std::unique_ptr<gib::Problem> problem = info.make(s.preset, gib::Json::object(), "preset");
    gib::visit_kind(*problem, [&](auto kind, const auto& typed) {
      using Kind = typename decltype(kind)::type;
      const double h = 0.01 * typed.time_scale();
      for (const gib::MethodInfo& m : gib::method_registry()) {
        if (!gib::compatible(m, info)) continue;
        INFO(m.id << " on " << s.problem << "/" << s.preset);
        std::unique_ptr<gib::Stepper<typename Kind::State>> by_step, by_advance;
        try {
          by_step = Kind::stepper(m, typed, m.default_params);
          by_advance = Kind::stepper(m, typed, m.default_params);
        } catch (const gib::InputError&) {
          continue;  // the method refuses this preset (a relaxed rotation needs J > 0, ...); another subject covers it
        }
        compare(*by_step, *by_advance, typed.initial_state(), h);
        covered.insert(m.id);
      }
    });
  }
  return covered;
}

TEST_CASE("advance(n) is bit for bit n calls of step() for every registered method", "[advance]") {
  const std::set<std::string> covered = for_each_stepper_pair([](auto& by_step, auto& by_advance, const auto& x0, double h) {
    CHECK(advance_mismatch(by_step, by_advance, x0, h) == "");
  });
  for (const gib::MethodInfo& m : gib::method_registry()) {
    INFO(m.id << " runs on none of the problems above: add one it runs on");
    CHECK(covered.count(m.id) == 1);
  }
}

namespace {

// A wrong override of the kind advance invites: it keeps its own state between steps but renormalises R through a
// quaternion at every step, a hidden projection that n calls of step() do not make.
class RenormalisingAdvance final : public gib::RigidBodyStepper {
 public:
  explicit RenormalisingAdvance(std::unique_ptr<gib::RigidBodyStepper> inner) : inner_(std::move(inner)) {}
  gib::StepStatus step(gib::RigidBodyState& x, double h, OpCounters& c) override { return inner_->step(x, h, c); }
  gib::Advanced advance(gib::RigidBodyState& x, double h, std::int64_t n, OpCounters& c) override {
    for (std::int64_t i = 0; i < n; ++i) {
      inner_->step(x, h, c);
      x.R = gib::so3::matrix_from_quaternion(gib::so3::quaternion_from_matrix(x.R).normalized());
    }
    return {gib::StepStatus::ok, n};
  }
  void reset() override { inner_->reset(); }

 private:
  std::unique_ptr<gib::RigidBodyStepper> inner_;
};

// Does one step too few when asked for more than one: the count it reports is right, the state is not.
class ShortAdvance final : public gib::RigidBodyStepper {
 public:
  explicit ShortAdvance(std::unique_ptr<gib::RigidBodyStepper> inner) : inner_(std::move(inner)) {}
  gib::StepStatus step(gib::RigidBodyState& x, double h, OpCounters& c) override { return inner_->step(x, h, c); }
  gib::Advanced advance(gib::RigidBodyState& x, double h, std::int64_t n, OpCounters& c) override {
    inner_->advance(x, h, n > 1 ? n - 1 : n, c);
    return {gib::StepStatus::ok, n};
  }
  void reset() override { inner_->reset(); }

 private:
  std::unique_ptr<gib::RigidBodyStepper> inner_;
};

}  // namespace

TEST_CASE("the advance comparison fails on a wrong override", "[advance]") {
  const gib::ProblemInfo& info = gib::find_problem("free_rigid_body");
  const std::unique_ptr<gib::Problem> problem = info.make("buss2001", gib::Json::object(), "preset");
  const auto& body = dynamic_cast<const gib::RigidBodyProblem&>(*problem);
  const gib::MethodInfo& m = gib::find_method("rkmk4");
  const double h = 0.01 * body.time_scale();
  const auto make = [&] { return m.rigid_body(body.model(), m.default_params); };
  {
    auto by_step = make();
    RenormalisingAdvance wrong(make());
    CHECK(advance_mismatch<gib::RigidBodyState>(*by_step, wrong, body.initial_state(), h) ==
          "first advance: state differs after 3 steps");
  }
  {
    auto by_step = make();
    ShortAdvance wrong(make());
    CHECK(advance_mismatch<gib::RigidBodyState>(*by_step, wrong, body.initial_state(), h) ==
          "first advance: state differs after 3 steps");
  }
  {  // and the right one passes in the same harness
    auto by_step = make();
    auto right = make();
    CHECK(advance_mismatch<gib::RigidBodyState>(*by_step, *right, body.initial_state(), h) == "");
  }
}

namespace {

// An edit a caller may make between two observations (a restart from a modified state): it moves what the steppers
// key their carried data on (the rigid body's momentum, the particles', the Newtonian system's and a vector
// field's positions).
void edit(gib::RigidBodyState& x) { x.Pi *= 1.001; }
void edit(gib::ParticlesState& x) { x.q(0, 0) += 1e-3; }
void edit(gib::NewtonianState& x) { x.q(0) += 1e-4; }
void edit(gib::VectorFieldState& x) { x.x(0) += 1e-4; }  // KDK leapfrog keys its gradient on q

// Empty when, from a fresh pair of steppers, advance(kFirst), an edit of the state, advance(kSecond), and
// advance(kThird) at h / 2 give what the same calls of step() give; otherwise what differed first. An override that
// carries history, a native state or a force cache must notice both the foreign state and the new step, as step()
// does.
template <class State>
std::string restart_mismatch(gib::Stepper<State>& by_step, gib::Stepper<State>& by_advance, const State& x0, double h) {
  Lockstep<State> l(x0);
  by_step.reset();
  by_advance.reset();
  const auto compare = [&](std::int64_t n, double dt, const char* what) {
    const gib::Advanced r = by_advance.advance(l.b, dt, n, l.cb);
    return l.check(by_step, n, dt, r, what);
  };
  if (auto e = compare(kFirst, h, "first advance"); !e.empty() || l.failed) return e;
  edit(l.a);
  edit(l.b);
  if (auto e = compare(kSecond, h, "advance from an edited state"); !e.empty() || l.failed) return e;
  return compare(kThird, 0.5 * h, "advance with h / 2");
}

}  // namespace

TEST_CASE("advance(n) restarts as n calls of step() do after an edited state or a new step", "[advance]") {
  for_each_stepper_pair([](auto& by_step, auto& by_advance, const auto& x0, double h) {
    CHECK(restart_mismatch(by_step, by_advance, x0, h) == "");
  });
}

TEST_CASE("advance(n) is n calls of step() for the right-trivialised RKMK, which carries the spatial momentum",
          "[advance]") {
  for (const Subject& s : {Subject{"free_rigid_body", "buss2001"}, Subject{"lagrange_top", "slow"}}) {
    const gib::ProblemInfo& info = gib::find_problem(s.problem);
    const std::unique_ptr<gib::Problem> problem = info.make(s.preset, gib::Json::object(), "preset");
    const auto& body = dynamic_cast<const gib::RigidBodyProblem&>(*problem);
    const double h = 0.01 * body.time_scale();
    for (const char* id : {"rkmk1", "rkmk2", "rkmk3", "rkmk4"}) {
      INFO(id << " on " << s.problem << "/" << s.preset);
      const gib::MethodInfo& m = gib::find_method(id);
      gib::Json params = m.default_params;
      params["trivialisation"] = "right";
      const auto make = [&] { return m.rigid_body(body.model(), params); };
      auto by_step = make(), by_advance = make();
      CHECK(advance_mismatch<gib::RigidBodyState>(*by_step, *by_advance, body.initial_state(), h) == "");
      by_step = make();
      by_advance = make();
      CHECK(restart_mismatch<gib::RigidBodyState>(*by_step, *by_advance, body.initial_state(), h) == "");
    }
  }
}

}  // namespace gibench_test_advance
