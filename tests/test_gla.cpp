// The GLA thermostat (methods/gla/): the exact OU flow's moments, the sampled temperature, RATTLE's tangent
// velocities, reproducible noise, and friction 0 as the base method bit for bit.
#include <catch2/catch.hpp>
#include <cmath>
#include <memory>
#include <nlohmann/json.hpp>
#include <vector>

#include "core/errors.hpp"
#include "core/method.hpp"
#include "core/problem.hpp"
#include "methods/gla/gla.hpp"
#include "methods/zhang_skeel/zhang_skeel.hpp"

namespace gibench_test_gla {

namespace {

using Eigen::MatrixXd;
using Eigen::VectorXd;

// Independent harmonic coordinates V = 1/2 sum k_i q_i^2 with diagonal masses; k = 0 is a free particle.
class Oscillators final : public gib::NewtonianModel {
 public:
  Oscillators(VectorXd masses, VectorXd k) : M_(masses.asDiagonal()), k_(std::move(k)) {}
  int dim() const override { return static_cast<int>(k_.size()); }
  const MatrixXd& mass_matrix() const override { return M_; }
  bool diagonal_mass() const override { return true; }
  double potential(const VectorXd& q) const override { return 0.5 * q.dot(k_.cwiseProduct(q)); }
  void gradient(const VectorXd& q, VectorXd& g) const override { g = k_.cwiseProduct(q); }
  void hessian(const VectorXd&, MatrixXd& H) const override { H = k_.asDiagonal(); }
  void third_derivative_contracted(const VectorXd& q, const VectorXd&, VectorXd& out) const override {
    out.setZero(q.size());
  }

 private:
  MatrixXd M_;
  VectorXd k_;
};

gib::Json params(double friction, double beta, int seed) {
  gib::Json p = gib::Json::object();
  p[gib::gla::kFrictionKey] = friction;
  p[gib::gla::kInverseTemperatureKey] = beta;
  p[gib::gla::kSeedKey] = seed;
  return p;
}

std::unique_ptr<gib::NewtonianStepper> gla_of(const gib::MethodInfo& base, const gib::NewtonianModel& model,
                                              const gib::Json& p) {
  const gib::MethodInfo m = gib::gla::with_langevin(base);
  gib::Json all = *base.default_params;
  if (!all.is_object()) all = gib::Json::object();
  for (auto it = p.begin(); it != p.end(); ++it) all[it.key()] = it.value();
  return m.newtonian(model, all);
}

using gib::same_bits;

}  // namespace

// With V = 0, velocity Verlet leaves v alone, so v after one GLA step is the OU flow's output: mean e^{-gamma h/m} v0,
// variance (1 - e^{-2 gamma h/m}) / (beta m). Bound: 5 standard errors of the sample mean (sd / sqrt N) and of the
// sample variance (var sqrt(2 / (N - 1)) for normal data).
TEST_CASE("gla: one step of the OU flow has the exact mean and variance", "[gla]") {
  const int n = 40;
  VectorXd masses(n);
  for (int i = 0; i < n; ++i) masses(i) = i % 2 == 0 ? 1.0 : 16.0;  // a hydrogen-like and an oxygen-like mass
  const Oscillators free_particles(masses, VectorXd::Zero(n));
  const double gamma = 2.0, beta = 5.0, h = 0.1, v0 = 0.7;
  const int seeds = 25000;
  double sum[2] = {0, 0}, sum2[2] = {0, 0};
  std::int64_t count[2] = {0, 0};
  for (int s = 0; s < seeds; ++s) {
    auto stepper = gla_of(gib::zhang_skeel::velocity_verlet(), free_particles, params(gamma, beta, s));
    gib::NewtonianState x{VectorXd::Zero(n), VectorXd::Constant(n, v0)};
    gib::OpCounters c;
    REQUIRE(stepper->step(x, h, c) == gib::StepStatus::ok);
    for (int i = 0; i < n; ++i) {
      sum[i % 2] += x.v(i);
      sum2[i % 2] += x.v(i) * x.v(i);
      ++count[i % 2];
    }
  }
  for (int cls = 0; cls < 2; ++cls) {
    const double m = cls == 0 ? 1.0 : 16.0, N = static_cast<double>(count[cls]);
    const double mean_expected = std::exp(-gamma * h / m) * v0;
    const double var_expected = -std::expm1(-2 * gamma * h / m) / (beta * m);
    const double mean = sum[cls] / N, var = (sum2[cls] - N * mean * mean) / (N - 1);
    const double se_mean = std::sqrt(var_expected / N), se_var = var_expected * std::sqrt(2 / (N - 1));
    INFO("m = " << m << ": mean " << mean << " vs " << mean_expected << " (se " << se_mean << "), variance " << var
                << " vs " << var_expected << " (se " << se_var << ") over " << N << " draws");
    CHECK(std::abs(mean - mean_expected) <= 5 * se_mean);
    CHECK(std::abs(var - var_expected) <= 5 * se_var);
  }
}

// The long-run kinetic energy per degree of freedom of GLA + velocity Verlet on harmonic oscillators approaches
// 1/(2 beta). Bound: 5 standard errors from 40 batch means (each batch 2500 steps, ~40 velocity correlation times
// 1/gamma = 1 at h = 0.02), against a discretisation bias O(h^2 omega^2) ~ 1e-4 relative, far below the bound.
TEST_CASE("gla: the sampled kinetic temperature is 1/(2 beta)", "[gla]") {
  const int n = 8;
  VectorXd masses(n), k(n);
  for (int i = 0; i < n; ++i) {
    masses(i) = 1.0 + i;
    k(i) = masses(i) * (0.5 + 0.25 * i);  // omega^2 = k/m from 0.5 to 2.25
  }
  const Oscillators model(masses, k);
  const double gamma = 1.0, beta = 4.0, h = 0.02;
  auto stepper = gla_of(gib::zhang_skeel::velocity_verlet(), model, params(gamma, beta, 11));
  gib::NewtonianState x{VectorXd::Zero(n), VectorXd::Zero(n)};
  gib::OpCounters c;
  for (int s = 0; s < 5000; ++s) stepper->step(x, h, c);  // burn-in: 100 / gamma
  const int batches = 40, per_batch = 2500;
  std::vector<double> means;
  for (int b = 0; b < batches; ++b) {
    double acc = 0;
    for (int s = 0; s < per_batch; ++s) {
      stepper->step(x, h, c);
      acc += model.kinetic_energy(x.v) / n;
    }
    means.push_back(acc / per_batch);
  }
  double mean = 0, var = 0;
  for (double m : means) mean += m / batches;
  for (double m : means) var += (m - mean) * (m - mean) / (batches - 1);
  const double se = std::sqrt(var / batches), expected = 0.5 / beta;
  INFO("mean kinetic energy per dof " << mean << ", expected " << expected << ", batch-means se " << se);
  CHECK(std::abs(mean - expected) <= 5 * se);
  CHECK(se < 0.05 * expected);  // the bound is informative: a 5 % error in the temperature would be seen
}

// GLA + RATTLE on the double pendulum: G(q) v = 0 after every step, and after the kick alone, where only the projection
// makes it so (without it the kicked velocity has a normal part of the noise's size).
TEST_CASE("gla: with RATTLE the velocity stays tangent to the constraints", "[gla]") {
  const auto problem = gib::find_problem("double_pendulum").make("taoowhadi2014", gib::Json::object(), "preset");
  const auto& typed = dynamic_cast<const gib::NewtonianProblem&>(*problem);
  const gib::NewtonianModel& model = typed.model();
  REQUIRE(model.constraint_set() != nullptr);
  const double h = 0.01 * typed.time_scale();
  auto stepper = gla_of(gib::zhang_skeel::rattle(), model, params(1.0, 2.0, 3));
  gib::NewtonianState x = typed.initial_state();
  gib::OpCounters c;
  MatrixXd G;
  double worst = 0;
  for (int s = 0; s < 500; ++s) {
    REQUIRE(stepper->step(x, h, c) == gib::StepStatus::ok);
    model.constraint_set()->jacobian(x.q, G);
    worst = std::max(worst, (G * x.v).norm() / std::max(1.0, x.v.norm()));
  }
  INFO("max |G v| / max(1, |v|) after a step: " << worst);
  CHECK(worst <= 1e-12);

  auto* gla = dynamic_cast<gib::gla::GlaStepper*>(stepper.get());
  REQUIRE(gla != nullptr);
  gib::NewtonianState kicked = x;
  gla->thermalize(kicked, h, 12345);
  model.constraint_set()->jacobian(kicked.q, G);
  const double after_kick = (G * kicked.v).norm() / std::max(1.0, kicked.v.norm());
  // The same kick without the projection: a base that does not enforce constraints (velocity Verlet).
  gib::gla::GlaStepper plain(model, gib::gla::read_params(params(1.0, 2.0, 3), "test"),
                             gib::zhang_skeel::velocity_verlet().newtonian(model, gib::Json::object()), false);
  gib::NewtonianState unprojected = x;
  plain.thermalize(unprojected, h, 12345);
  const double without = (G * unprojected.v).norm() / std::max(1.0, unprojected.v.norm());
  INFO("|G v| after the kick: " << after_kick << " with the projection, " << without << " without");
  CHECK(after_kick <= 1e-12);
  CHECK(without > 1e-3);
}

TEST_CASE("gla: same seed same bits, another seed other bits, advance(n) = n steps", "[gla]") {
  const auto problem = gib::find_problem("double_pendulum").make("taoowhadi2014", gib::Json::object(), "preset");
  const auto& typed = dynamic_cast<const gib::NewtonianProblem&>(*problem);
  const double h = 0.01 * typed.time_scale();
  const auto run = [&](int seed, bool by_advance) {
    auto stepper = gla_of(gib::zhang_skeel::zs_stiff(), typed.model(), params(0.5, 10.0, seed));
    gib::NewtonianState x = typed.initial_state();
    gib::OpCounters c;
    if (by_advance) {
      stepper->advance(x, h, 137, c);
      stepper->step(x, h, c);
      stepper->advance(x, h, 62, c);
    } else {
      for (int s = 0; s < 200; ++s) stepper->step(x, h, c);
    }
    return x;
  };
  const gib::NewtonianState a = run(7, false), b = run(7, false), c = run(8, false), d = run(7, true);
  CHECK(same_bits(a.q, b.q));
  CHECK(same_bits(a.v, b.v));
  CHECK_FALSE(same_bits(a.v, c.v));
  CHECK(same_bits(a.q, d.q));
  CHECK(same_bits(a.v, d.v));
  // The stream is a function of (seed, step, coordinate) alone.
  CHECK(gib::gla::normal(7, 3, 5) == gib::gla::normal(7, 3, 5));
  CHECK(gib::gla::normal(7, 3, 5) != gib::gla::normal(7, 4, 5));
  CHECK(gib::gla::normal(7, 3, 5) != gib::gla::normal(7, 3, 6));
  CHECK(gib::gla::normal(7, 3, 5) != gib::gla::normal(8, 3, 5));
}

// friction = 0 is "thermostat off": no kick, no projection, the base method bit for bit (also with RATTLE).
TEST_CASE("gla: friction 0 is the base method bit for bit", "[gla]") {
  const auto problem = gib::find_problem("double_pendulum").make("taoowhadi2014", gib::Json::object(), "preset");
  const auto& typed = dynamic_cast<const gib::NewtonianProblem&>(*problem);
  const double h = 0.01 * typed.time_scale();
  for (const gib::MethodInfo& base : {gib::zhang_skeel::zs_stiff(), gib::zhang_skeel::rattle()}) {
    INFO(base.id);
    auto gla = gla_of(base, typed.model(), params(0.0, 10.0, 1));
    auto plain = base.newtonian(typed.model(), *base.default_params);
    gib::NewtonianState x = typed.initial_state(), y = typed.initial_state();
    gib::OpCounters c;
    for (int s = 0; s < 300; ++s) {
      gla->step(x, h, c);
      plain->step(y, h, c);
    }
    CHECK(same_bits(x.q, y.q));
    CHECK(same_bits(x.v, y.v));
    // ... and friction > 0 is not.
    auto hot = gla_of(base, typed.model(), params(0.5, 10.0, 1));
    gib::NewtonianState z = typed.initial_state();
    for (int s = 0; s < 300; ++s) hot->step(z, h, c);
    CHECK_FALSE(same_bits(z.v, y.v));
  }
}

TEST_CASE("gla: bad parameters and a nondiagonal mass are refused", "[gla]") {
  const Oscillators model(VectorXd::Ones(2), VectorXd::Ones(2));
  const gib::MethodInfo vv = gib::zhang_skeel::velocity_verlet();
  CHECK_THROWS_AS(gla_of(vv, model, params(-1.0, 1.0, 0)), gib::InputError);
  CHECK_THROWS_AS(gla_of(vv, model, params(1.0, 0.0, 0)), gib::InputError);
  gib::Json p = params(1.0, 1.0, 0);
  p[gib::gla::kSeedKey] = 1.5;
  CHECK_THROWS_AS(gla_of(vv, model, p), gib::InputError);
  p[gib::gla::kSeedKey] = -1;
  CHECK_THROWS_AS(gla_of(vv, model, p), gib::InputError);

  class Coupled final : public gib::NewtonianModel {
   public:
    Coupled() : M_((MatrixXd(2, 2) << 2, 1, 1, 2).finished()) {}
    int dim() const override { return 2; }
    const MatrixXd& mass_matrix() const override { return M_; }
    double potential(const VectorXd&) const override { return 0; }
    void gradient(const VectorXd& q, VectorXd& g) const override { g.setZero(q.size()); }
    void hessian(const VectorXd&, MatrixXd& H) const override { H.setZero(2, 2); }
    void third_derivative_contracted(const VectorXd& q, const VectorXd&, VectorXd& out) const override {
      out.setZero(q.size());
    }

   private:
    MatrixXd M_;
  } coupled;
  CHECK_THROWS_AS(gla_of(vv, coupled, params(1.0, 1.0, 0)), gib::InputError);
}

// The OU flow has no backward step: h <= 0 is a recorded solver_failed status (the runner's and the battery's way
// of hearing a failure), never a throw in the middle of a run, and it consumes no noise.
TEST_CASE("gla: a step of h <= 0 fails as a status", "[gla]") {
  const Oscillators model(VectorXd::Ones(2), VectorXd::Ones(2));
  auto gla = gla_of(gib::zhang_skeel::velocity_verlet(), model, params(1.0, 1.0, 0));
  gib::NewtonianState x{VectorXd::Ones(2), VectorXd::Zero(2)};
  gib::OpCounters c;
  for (const double h : {-0.1, 0.0}) {
    CHECK(gla->step(x, h, c) == gib::StepStatus::solver_failed);
    CHECK(x.v == VectorXd::Zero(2));
  }
  CHECK(c.solver_failures == 2);
  CHECK(gla->step(x, 0.1, c) == gib::StepStatus::ok);
  auto fresh = gla_of(gib::zhang_skeel::velocity_verlet(), model, params(1.0, 1.0, 0));
  gib::NewtonianState y{VectorXd::Ones(2), VectorXd::Zero(2)};
  fresh->step(y, 0.1, c);
  CHECK(same_bits(x.v, y.v));  // the failed steps drew no numbers: step 0's noise is the same
}

}  // namespace gibench_test_gla
