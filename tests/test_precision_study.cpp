// The Kjer spike precision study (papers/kjer2017/precision_study.hpp): its templated RKMK4 against the registered
// particle rkmk4, its order in long double, binary128 against long double, the verdict rule on synthetic data,
// the per-step records and the results document of a tiny study, and bad options.
#include <catch2/catch.hpp>
#include <cmath>
#include <string>
#include <vector>

#include "core/errors.hpp"
#include "core/method.hpp"
#include "core/problem.hpp"
#include "papers/kjer2017/particles_dump.hpp"
#include "papers/kjer2017/precision_study.hpp"
#include "harness/runner.hpp"
#include "problems/dipolar_spheres/quad_scalar.hpp"

namespace gibench_test_precision_study {

namespace {

using gib::Json;
using gib::ParticlesState;
namespace pr = gib::precision;
namespace ds = gib::dipolar_spheres;

std::unique_ptr<gib::ParticlesProblem> make(const std::string& preset, const Json& o = Json::object()) {
  auto p = gib::find_problem("dipolar_spheres").make(preset, o, "preset");
  return std::unique_ptr<gib::ParticlesProblem>(dynamic_cast<gib::ParticlesProblem*>(p.release()));
}

const ds::DipoleParameters& params_of(const gib::ParticlesProblem& p) {
  return dynamic_cast<const ds::DipolarSpheresModel&>(p.model()).parameters();
}

// Five Kjer spheres packed into a small box: every pair interacts strongly from the first step, but no pair
// starts inside the repulsive core, so the solution is smooth over the short runs below.
std::unique_ptr<gib::ParticlesProblem> dense() {
  return make("kjer2017_n10", {{"N", 5}, {"box", 1.6}, {"min_start_distance", 1.3}});
}

template <class S>
pr::StateIn<S> integrate(const gib::ParticlesProblem& p, double h, int steps) {
  pr::StateIn<S> x = pr::convert<S>(p.initial_state());
  pr::Rkmk4InPrecision<S> m(params_of(p));
  for (int n = 0; n < steps; ++n) (void)m.step(x, S(h));
  return x;
}

long double distance(const std::vector<long double>& a, const std::vector<long double>& b) {
  long double s = 0;
  for (std::size_t k = 0; k < a.size(); ++k) s += (a[k] - b[k]) * (a[k] - b[k]);
  return std::sqrt(s);
}

long double norm(const std::vector<long double>& a) { return distance(a, std::vector<long double>(a.size(), 0.0L)); }

std::vector<long double> registered(const std::string& id, const gib::ParticlesProblem& p, double h, int steps) {
  const gib::MethodInfo& m = gib::find_method(id);
  const ParticlesState x = gib::integrate_particles(m, p.model(), gib::merge_method_params(m, Json::object()),
                                                    p.initial_state(), h, steps);
  return pr::flatten(pr::convert<double>(x));
}

}  // namespace

TEST_CASE("the templated RKMK4 in double matches the registered particle rkmk4", "[precision]") {
  const auto p = dense();
  const double h = 0.01;
  const int steps = 50;
  const auto ours = pr::flatten(integrate<double>(*p, h, steps));
  const auto start = pr::flatten(pr::convert<double>(p->initial_state()));
  const long double scale = norm(ours);
  REQUIRE(distance(ours, start) > 1e-2 * scale);  // the system really moved
  const long double d = distance(registered("rkmk4", *p, h, steps), ours);
  INFO("registered rkmk4 against the templated kernel: " << static_cast<double>(d / scale));
  CHECK(d <= 1e-13L * scale);
  // The tolerance separates methods: RKMK3 (the same machinery, a different tableau) is far outside it.
  CHECK(distance(registered("rkmk3", *p, h, steps), ours) > 1e-8L * scale);
  // And the long double instantiation is a different computation that lands within round-off.
  const long double ld = distance(pr::flatten(integrate<long double>(*p, h, steps)), ours);
  CHECK(ld > 0);
  CHECK(ld <= 1e-13L * scale);
}

TEST_CASE("the templated RKMK4 is 4th order in long double", "[precision]") {
  const auto p = dense();
  const double T = 0.4;
  const auto reference = pr::flatten(integrate<long double>(*p, T / 512, 512));
  std::vector<double> errors;
  for (int n : {8, 16, 32, 64}) errors.push_back(static_cast<double>(distance(pr::flatten(integrate<long double>(*p, T / n, n)), reference)));
  REQUIRE(errors.back() > 1e-14);  // far above long double round-off: the slope is truncation error
  for (std::size_t k = 0; k + 1 < errors.size(); ++k) {
    const double order = std::log2(errors[k] / errors[k + 1]);
    INFO("errors " << errors[k] << " -> " << errors[k + 1] << ", observed order " << order);
    CHECK(order > 3.8);
    CHECK(order < 4.3);
  }
}

#ifdef GIB_HAVE_QUAD_SCALAR
TEST_CASE("binary128 and long double agree to long double round-off on a smooth configuration", "[precision]") {
  const auto p = dense();
  const int steps = 10;
  const auto quad = pr::flatten(integrate<gib::quad::Quad>(*p, 0.01, steps));
  const long double scale = norm(quad);
  const long double ld = distance(pr::flatten(integrate<long double>(*p, 0.01, steps)), quad) / scale;
  const long double dbl = distance(pr::flatten(integrate<double>(*p, 0.01, steps)), quad) / scale;
  INFO("relative distance to binary128: long double " << static_cast<double>(ld) << ", double " << static_cast<double>(dbl));
  CHECK(ld > 0);
  CHECK(ld <= 1e-18L);
  CHECK(dbl > 1e-17L);  // double's round-off is visible at this tolerance, so the check can fail
}

TEST_CASE("the binary128 scalar computes in binary128", "[precision]") {
  using gib::quad::Quad;
  const Quad third = Quad(1) / Quad(3);
  CHECK(static_cast<long double>(third * Quad(3) - Quad(1)) == 0.0L);
  const double beyond_long_double = static_cast<double>(third - Quad(1.0L / 3));
  CHECK(beyond_long_double != 0.0);                // more bits than long double ...
  CHECK(std::abs(beyond_long_double) < 1e-19);     // ... within its last unit
  CHECK(static_cast<double>(sqrt(Quad(2)) * sqrt(Quad(2)) - Quad(2)) < 1e-32);
  CHECK(static_cast<double>(abs(sin(Quad(1)) * sin(Quad(1)) + cos(Quad(1)) * cos(Quad(1)) - Quad(1))) < 1e-32);
  CHECK(static_cast<double>(std::numeric_limits<Quad>::epsilon()) == std::ldexp(1.0, -112));
}
#endif

TEST_CASE("the verdict rule classifies all three outcomes", "[precision]") {
  using pr::SpikeVerdict;
  // Precisions agree, halving h cuts the error 20-40x: the spec prototype's picture.
  CHECK(pr::classify_spikes(1.02, 19.5, 40.0) == SpikeVerdict::time_step);
  // 128 bits cut the error 100x, halving h changes nothing: the thesis's hypothesis.
  CHECK(pr::classify_spikes(100.0, 0.98, 1.05) == SpikeVerdict::floating_point);
  // Neither picture.
  CHECK(pr::classify_spikes(1.5, 19.5, 40.0) == SpikeVerdict::inconclusive);   // precisions differ by 50%
  CHECK(pr::classify_spikes(1.02, 2.0, 3.0) == SpikeVerdict::inconclusive);    // halving helps, but < 4x
  CHECK(pr::classify_spikes(100.0, 2.0, 3.0) == SpikeVerdict::inconclusive);   // both matter
  CHECK(pr::classify_spikes(1.02, 3.0, 40.0) == SpikeVerdict::inconclusive);   // one precision below 4x
  CHECK(pr::classify_spikes(std::nan(""), 19.5, 40.0) == SpikeVerdict::inconclusive);
  // The thresholds are the stated ones, not looser.
  CHECK(pr::classify_spikes(1.09, 4.1, 4.1) == SpikeVerdict::time_step);
  CHECK(pr::classify_spikes(1.11, 4.1, 4.1) == SpikeVerdict::inconclusive);
  CHECK(pr::classify_spikes(1.09, 3.9, 4.1) == SpikeVerdict::inconclusive);
  CHECK(pr::classify_spikes(4.1, 1.0 / 1.11, 1.0) == SpikeVerdict::inconclusive);
  CHECK(pr::classify_spikes(4.1, 1.0 / 1.09, 1.09) == SpikeVerdict::floating_point);
}

TEST_CASE("a precision run records every step from a zero energy error", "[precision]") {
  const auto p = dense();
  const pr::RunRecord r = pr::run_in_precision(pr::Precision::long_double, params_of(*p), p->initial_state(), 0.01, 20);
  REQUIRE(r.status == "ok");
  REQUIRE(r.energy_rel_err.size() == 21);
  REQUIRE(r.min_distance.size() == 21);
  CHECK(r.energy_rel_err[0] == 0.0);
  CHECK(std::abs(r.energy_rel_err.back()) > 0);
  CHECK(r.min_distance[0] == Approx(p->model().min_pair_distance(p->initial_state())).epsilon(1e-15));
  const pr::RunSummary s = pr::summarise(r);
  CHECK(s.max_abs_err >= std::abs(r.energy_rel_err.back()));
  CHECK(s.closest_approach <= r.min_distance[0]);
  // The energy error is that of the double model's energy on the same trajectory, to round-off.
  const auto x = gib::integrate_particles(gib::find_method("rkmk4"), p->model(),
                                          gib::merge_method_params(gib::find_method("rkmk4"), Json::object()),
                                          p->initial_state(), 0.01, 20);
  const double h0 = p->model().energy(p->initial_state());
  CHECK(r.energy_rel_err.back() == Approx((p->model().energy(x) - h0) / h0).margin(1e-12));
}

TEST_CASE("a tiny precision study writes runs, differences and a verdict", "[precision]") {
  pr::StudyOptions o;
  o.overrides = {{"N", 5}, {"box", 1.6}, {"min_start_distance", 1.3}};
  o.T = 0.08;
  o.h = 0.02;
  o.halvings = 1;
  o.series_points = 3;
  o.jobs = 1;
  const Json doc = pr::run_precision_study(o, {"test"});
  const std::size_t precisions = pr::binary128_available() ? 3 : 2;
  REQUIRE(doc["runs"].size() == 2 * precisions);
  CHECK(doc["trajectory_differences"].size() == 2 * (precisions - 1));
  CHECK(doc["runs"][0]["series"]["t"].size() <= 3);
  CHECK(doc["registered_rkmk4_check"]["relative_to_double"].get<double>() < 1e-13);
  const std::string verdict = doc["verdict"]["verdict"];
  CHECK((verdict == "time_step" || verdict == "inconclusive"));  // smooth and short: round-off-free either way
  CHECK(doc["verdict"]["precision_ratio"].get<double>() < 1.001);
  const std::string md = pr::precision_study_markdown(doc);
  CHECK((md.find("| binary128 |") != std::string::npos || precisions == 2));
  CHECK(md.find("**Verdict: ") != std::string::npos);
  CHECK(md.find("128 bits") != std::string::npos);  // the thesis's hypothesis is quoted
}

TEST_CASE("bad precision-study options are one-line input errors", "[precision]") {
  auto fails = [](pr::StudyOptions o, const std::string& what) {
    INFO(what);
    CHECK_THROWS_WITH(pr::run_precision_study(o, {}), Catch::Matchers::Contains(what));
  };
  pr::StudyOptions o;
  o.T = 0.02;
  auto with = [&](auto f) {
    pr::StudyOptions c = o;
    f(c);
    return c;
  };
  fails(with([](auto& c) { c.h = 0; }), "--h must be");
  fails(with([](auto& c) { c.T = -1; }), "--T must be");
  fails(with([](auto& c) { c.halvings = 7; }), "--halvings");
  fails(with([](auto& c) { c.T = 0.015; }), "whole number");
  fails(with([](auto& c) { c.preset = "kjer2017"; }), "unknown preset");
  CHECK_THROWS_AS(pr::precision_from_string("float"), gib::InputError);
  const auto body = gib::find_problem("free_rigid_body").make("kjer2017", Json::object(), "preset");
  CHECK_THROWS_AS(pr::particles_dump(*body), gib::InputError);
}

}  // namespace gibench_test_precision_study
