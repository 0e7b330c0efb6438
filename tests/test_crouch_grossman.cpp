// Crouch-Grossman 3 (methods/tableaus/cg3.json, run by methods/crouch_grossman/): what the generic battery does not check.
// The battery already checks, from the claims, order 3 on every rigid-body problem (with and without torque), the
// exact Casimir and spatial momentum, staying on SO(3) and bitwise repeatability. Here: the order conditions of the
// tableau in exact arithmetic, by hand (the one a Lie group adds among them), independently of methods/from_file/,
// the counted cost of a step, and order 3 on a heavy top against RKMK4 at a tiny step.
#include <boost/rational.hpp>
#include <catch2/catch.hpp>
#include <cmath>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "core/method.hpp"
#include "harness/order_fit.hpp"
#include "harness/model_kinds.hpp"
#include "harness/runner.hpp"
#include "methods/from_file/method_file.hpp"
#include "support/heavy_top.hpp"

namespace gibench_test_crouch_grossman {

namespace {

// Compare Q with Q only: with Boost 1.74 under C++20, rational == int recurses forever (the rewritten
// reversed operator== calls itself).
using Q = boost::rational<long long>;
using gib::Mat3;
using gib::Vec3;
constexpr int kS = 3;

struct ExactTableau {
  Q c[kS], a[kS][kS], b[kS];
};

// Crouch & Grossman 1993 (GNI IV.8), the fractions methods/tableaus/cg3.json must hold.
ExactTableau exact_tableau() {
  ExactTableau e;
  const Q c[kS] = {Q(0), Q(3, 4), Q(17, 24)};
  const Q b[kS] = {Q(13, 51), Q(-2, 3), Q(24, 17)};
  const Q a[kS][kS] = {{Q(0), Q(0), Q(0)}, {Q(3, 4), Q(0), Q(0)}, {Q(119, 216), Q(17, 108), Q(0)}};
  for (int i = 0; i < kS; ++i) {
    e.c[i] = c[i];
    e.b[i] = b[i];
    for (int j = 0; j < kS; ++j) e.a[i][j] = a[i][j];
  }
  return e;
}

Q fraction(const std::string& text) {
  const auto slash = text.find('/');
  if (slash == std::string::npos) return Q(std::stoll(text));
  return Q(std::stoll(text.substr(0, slash)), std::stoll(text.substr(slash + 1)));
}

// The condition the non-commutativity of the group adds at order 3 (Owren & Marthinsen 1999, the
// Crouch-Grossman order conditions; Hairer, Lubich & Wanner, GNI IV.8):
//   sum_i b_i^2 c_i + 2 sum_{i<j} b_i c_i b_j = 1/3.
// Derivation (for y' = A(t) y, where it already appears): the product of exponentials equals
// exp(sum X_i + 1/2 sum_{i>j} [X_i, X_j] + O(h^4)) by BCH, with X_i = h b_i A(t0 + c_i h), while the
// Magnus series has -h^3/12 [A0, A1]; matching gives sum_{i>j} b_i b_j (c_i - c_j) = 1/6, which with
// sum b = 1 and sum b c = 1/2 is the form above. `reversed` evaluates it for the factors taken in the
// opposite order (exp(h b_s F_s) first), the classic mistake when mirroring the method.
Q lie_condition(const ExactTableau& t, bool reversed) {
  Q sum = 0;
  for (int i = 0; i < kS; ++i) {
    sum += t.b[i] * t.b[i] * t.c[i];
    for (int j = 0; j < kS; ++j)
      if (reversed ? j < i : i < j) sum += 2 * t.b[i] * t.c[i] * t.b[j];
  }
  return sum;
}

using HeavyTop = gib::test::HeavyTop;

gib::RigidBodyState heavy_top_initial() {
  gib::RigidBodyState x;
  x.R = gib::so3::exp(Vec3(0.4, -0.3, 0.2));
  x.Pi = Vec3(0.5, -0.8, 0.7);
  return x;
}

double state_error(const gib::RigidBodyState& x, const gib::RigidBodyState& ref) {
  return gib::RigidBodyKind::errors(x, ref).state_err();
}

}  // namespace

TEST_CASE("cg3 coefficients satisfy the Crouch-Grossman order-3 conditions exactly", "[cg3]") {
  const ExactTableau t = exact_tableau();
  Q sum_b = 0, sum_bc = 0, sum_bc2 = 0, sum_bac = 0, sum_bc3 = 0;
  for (int i = 0; i < kS; ++i) {
    Q row = 0;
    for (int j = 0; j < kS; ++j) {
      if (j >= i) CHECK(t.a[i][j] == Q(0));  // explicit
      row += t.a[i][j];
      sum_bac += t.b[i] * t.a[i][j] * t.c[j];
    }
    CHECK(row == t.c[i]);  // c_i = sum_j a_ij
    sum_b += t.b[i];
    sum_bc += t.b[i] * t.c[i];
    sum_bc2 += t.b[i] * t.c[i] * t.c[i];
    sum_bc3 += t.b[i] * t.c[i] * t.c[i] * t.c[i];
  }
  // The classical Runge-Kutta conditions (the method is that RK method when the group is commutative).
  CHECK(sum_b == Q(1));
  CHECK(sum_bc == Q(1, 2));
  CHECK(sum_bc2 == Q(1, 3));
  CHECK(sum_bac == Q(1, 6));
  // The Lie-group condition, in both of its forms.
  CHECK(lie_condition(t, false) == Q(1, 3));
  Q pairs = 0;
  for (int i = 0; i < kS; ++i)
    for (int j = 0; j < i; ++j) pairs += t.b[i] * t.b[j] * (t.c[i] - t.c[j]);
  CHECK(pairs == Q(1, 6));
  // The factor order matters: taken the other way round the condition fails (the method is order 2).
  CHECK(lie_condition(t, true) == Q(2, 3));
  // And the order is 3, not 4: the bushy-tree condition sum b c^3 = 1/4 already fails.
  CHECK(sum_bc3 == Q(127, 576));
}

TEST_CASE("the shipped cg3.json holds Crouch and Grossman's fractions", "[cg3]") {
  const ExactTableau t = exact_tableau();
  const gib::from_file::ShippedFile* file = nullptr;
  for (const auto& f : gib::from_file::shipped_method_files())
    if (std::string(f.path) == "methods/tableaus/cg3.json") file = &f;
  REQUIRE(file != nullptr);
  const gib::Json j = gib::Json::parse(file->text);
  const gib::Json& tab = j.at("tableau");
  for (int i = 0; i < kS; ++i) {
    CHECK(fraction(tab.at("b")[static_cast<std::size_t>(i)].get<std::string>()) == t.b[i]);
    CHECK(fraction(tab.at("c")[static_cast<std::size_t>(i)].get<std::string>()) == t.c[i]);
    for (int k = 0; k < i; ++k)
      CHECK(fraction(tab.at("a")[static_cast<std::size_t>(i)][static_cast<std::size_t>(k)].get<std::string>()) == t.a[i][k]);
  }
  CHECK(j.at("family") == "crouch_grossman");
  CHECK(gib::find_method("cg3").source == "methods/tableaus/cg3.json");
}

TEST_CASE("cg3 costs 3 vector-field and 6 exp evaluations per step", "[cg3]") {
  const gib::MethodInfo& m = gib::find_method("cg3");
  CHECK(m.claims.order == 3);
  CHECK(m.default_params->empty());
  const gib::RigidBodyModel free_body(Vec3(1.0, 1.88, 2.88));
  const gib::RigidBodyModel top(Vec3(1.0, 1.88, 2.88), std::make_shared<HeavyTop>(0.7));
  const int steps = 10;
  for (const gib::RigidBodyModel* model : {&free_body, &top}) {
    auto stepper = m.rigid_body(*model, m.default_params);
    gib::RigidBodyState x = heavy_top_initial();
    gib::OpCounters c;
    for (int n = 0; n < steps; ++n) REQUIRE(stepper->step(x, 0.05, c) == gib::StepStatus::ok);
    INFO((model->torque_free() ? "free body" : "heavy top"));
    CHECK(c.rhs_evals == 3 * steps);
    CHECK(c.exp_evals == 6 * steps);  // stages: 0 + 1 + 2 factors; update: 3 factors
    CHECK(c.force_evals == (model->torque_free() ? 0 : 3 * steps));
    CHECK(c.log_evals == 0);
    CHECK(c.linear_solves == 0);
  }
}

TEST_CASE("cg3 is third order with a torque (heavy top, against RKMK4 at a tiny step)", "[cg3]") {
  const gib::RigidBodyModel top(Vec3(0.8, 1.0, 1.6), std::make_shared<HeavyTop>(1.5));
  const gib::RigidBodyState x0 = heavy_top_initial();
  const double T = 4.0;
  const gib::Json no_params = gib::Json::object();

  const gib::MethodInfo& rkmk4 = gib::find_method("rkmk4");
  const std::int64_t n_ref = 1 << 15;
  const gib::RigidBodyState ref =
      gib::integrate_rigid_body(rkmk4, top, gib::merge_method_params(rkmk4, no_params), x0, T / double(n_ref), n_ref);
  // The reference is good and the test potential is consistent: H = K + V is conserved by the exact flow.
  CHECK(std::abs(top.energy(ref) - top.energy(x0)) < 1e-12);
  // The torque matters: the free body ends far from the top.
  const gib::RigidBodyModel free_body(top.inertia());
  const gib::RigidBodyState free_end =
      gib::integrate_rigid_body(rkmk4, free_body, gib::merge_method_params(rkmk4, no_params), x0, T / 4096, 4096);
  CHECK(state_error(free_end, ref) > 0.1);

  const gib::MethodInfo& cg3 = gib::find_method("cg3");
  std::vector<std::pair<double, double>> points;
  for (int k = 0; k <= 8; ++k) {
    const auto n = static_cast<std::int64_t>(std::llround(32 * std::pow(2.0, k / 2.0)));
    const double h = T / double(n);
    const gib::RigidBodyState x = gib::integrate_rigid_body(cg3, top, no_params, x0, h, n);
    points.emplace_back(h, state_error(x, ref));
  }
  const gib::OrderFit fit = gib::fit_order(points, {}, T);
  std::ostringstream text;
  text.precision(3);
  for (const auto& [h, e] : fit.points) text << ' ' << h << ':' << e;
  INFO("fitted order " << fit.order_hat << " over " << fit.n << " points; (h:err)" << text.str());
  REQUIRE(fit.ok);
  CHECK(fit.n >= 5);
  CHECK(std::abs(fit.order_hat - 3.0) < 0.15);
  // Under a torque the rotation still stays on SO(3) at a coarse step.
  const gib::RigidBodyState coarse = gib::integrate_rigid_body(cg3, top, no_params, x0, 0.1, 400);
  CHECK(gib::so3::orthogonality_defect(coarse.R) < 1e-13);
}

}  // namespace gibench_test_crouch_grossman
