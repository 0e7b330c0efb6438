// The structure probes of vector-field and rigid-body methods (harness/*_probes.hpp, spec 11): each is checked against
// a closed form or against a method known to lack the property, so every probe is shown able to fail.
#include <catch2/catch.hpp>
#include <cmath>
#include <memory>

#include "core/errors.hpp"
#include "core/method.hpp"
#include "core/problem.hpp"
#include "harness/prepared_cell.hpp"
#include "harness/rigid_body_probes.hpp"
#include "harness/vector_field_probes.hpp"

namespace {

// x' = A x with A = [[a, 0], [0, -b]]: RK4's step is the matrix P(hA), P(z) = 1 + z + z^2/2 + z^3/6 + z^4/24, so
// its Lyapunov exponent is log P(ha) / h exactly, and its volume change det P(hA) - 1 in closed form.
class Linear final : public gib::VectorFieldModel {
 public:
  Linear(double a, double b) : a_(a), b_(b) {}
  int dim() const override { return 2; }
  void rhs(const Eigen::VectorXd& x, Eigen::VectorXd& f) const override {
    f.resize(2);
    f << a_ * x(0), -b_ * x(1);
  }
  void jacobian(const Eigen::VectorXd&, Eigen::MatrixXd& J) const override {
    J.resize(2, 2);
    J << a_, 0, 0, -b_;
  }

 private:
  double a_, b_;
};

double rk4_polynomial(double z) { return 1 + z + z * z / 2 + z * z * z / 6 + z * z * z * z / 24; }

std::unique_ptr<gib::VectorFieldProblem> pendulum() {
  auto p = gib::find_problem("pendulum").make("mq1998_libration", gib::Json::object(), "preset");
  return std::unique_ptr<gib::VectorFieldProblem>(static_cast<gib::VectorFieldProblem*>(p.release()));
}

gib::probes::PointProbes probe(const char* method, const gib::VectorFieldModel& model, const Eigen::VectorXd& x, double h) {
  const gib::MethodInfo& m = gib::find_method(method);
  return gib::probes::probe_points(m, model, m.default_params, {x}, h,
                                   {"adjoint", "reversibility", "symmetry", "volume", "symplecticity"});
}

}  // namespace

TEST_CASE("probes: the Lyapunov exponent of RK4 on a linear field is log P(h a) / h", "[vector_field][probes]") {
  const Linear model(0.3, 0.7);
  const gib::MethodInfo& rk4 = gib::find_method("odeint_rk4");
  const double h = 0.1;
  const auto l = gib::probes::lyapunov_exponent(rk4, model, rk4.default_params, Eigen::Vector2d(1.0, 1.0), h, 2000);
  CHECK(l.source == gib::probes::TangentSource::central_differences);
  // Renormalising is linear, so the log-growths telescope: sum = log |P^N v0| - log |v0|. The probe starts from
  // v0 = (1, 2) / sqrt(5); after N steps only its first component is left, P(ha)^N / sqrt(5) (the second has
  // shrunk by P(-hb)^N ~ 1e-61), so lambda_N = (N log P(ha) - log sqrt(5)) / (N h).
  const double expected = (2000 * std::log(rk4_polynomial(h * 0.3)) - 0.5 * std::log(5.0)) / (2000 * h);
  CHECK(std::abs(l.exponent - expected) < 1e-9);
  CHECK(std::abs(std::log(rk4_polynomial(h * 0.3)) / h - 0.3) < 1e-8);  // RK4's exponent is the flow's to O(h^4)
  CHECK(l.resolution == Approx(std::log(2000.0) / 200.0));
  // The check can fail: a field that shrinks both directions has a negative exponent.
  const Linear shrinking(-0.3, 0.7);
  CHECK(gib::probes::lyapunov_exponent(rk4, shrinking, rk4.default_params, Eigen::Vector2d(1.0, 1.0), h, 2000).exponent <
        -0.29);
}

TEST_CASE("probes: volume change of RK4 on a linear field is det P(hA) - 1", "[vector_field][probes]") {
  const Linear model(0.3, 0.7);
  const double h = 0.1;
  const auto r = probe("odeint_rk4", model, Eigen::Vector2d(0.4, -0.2), h);
  const double exact = rk4_polynomial(0.3 * h) * rk4_polynomial(-0.7 * h) - 1;
  CHECK(std::abs(r.volume - std::abs(exact)) < 1e-11);
  CHECK(std::abs(exact) > 1e-3);  // the field contracts volume: a volume-preserving claim would fail here
}

TEST_CASE("probes on the pendulum: leapfrog is symmetric, reversible and symplectic, symplectic Euler and RK2 are not",
          "[vector_field][probes]") {
  const auto p = pendulum();
  const Eigen::VectorXd x = p->initial_state().x;
  const auto dkd = probe("leapfrog_dkd", p->model(), x, 0.1);
  CHECK(dkd.adjoint < 1e-15);
  CHECK(dkd.reversibility < 1e-15);
  CHECK(dkd.volume < 1e-11);
  CHECK(dkd.symplecticity < 1e-11);
  CHECK(std::isnan(dkd.symmetry));  // the pendulum declares no symmetry h, and the probe says so
  REQUIRE(dkd.notes.size() == 1);
  CHECK(dkd.notes[0] == "symmetry: the model has no symmetry");
  const auto euler = probe("symplectic_euler", p->model(), x, 0.1);
  CHECK(euler.adjoint > 1e-3);        // order 1, not symmetric
  CHECK(euler.reversibility > 1e-3);  // nor reversible
  CHECK(euler.volume < 1e-11);        // but symplectic
  const auto rk2 = probe("odeint_rk2", p->model(), x, 0.1);
  CHECK(rk2.volume > 1e-5);
  CHECK(rk2.symplecticity > 1e-5);
}

TEST_CASE("observe.probes is refused before any work where the kind has none or the name is unknown", "[vector_field][probes]") {
  gib::Cell c;
  c.problem = "double_pendulum";
  c.method = "zs";
  c.h = 0.1;
  c.steps = 10;
  c.observe.probes = {"volume"};
  CHECK_THROWS_WITH(gib::prepare_cell(c), "observe.probes: problem double_pendulum (model kind newtonian) has no structure probes");
  c.problem = "free_rigid_body";
  c.method = "rkmk4";
  CHECK_THROWS_WITH(gib::prepare_cell(c), "unknown probe 'volume' for problem free_rigid_body (model kind rigid_body) "
                                          "(valid: poisson, reversibility)");
  c.problem = "pendulum";
  c.method = "leapfrog_dkd";
  c.observe.probes = {"volumes"};
  CHECK_THROWS_AS(gib::prepare_cell(c), gib::InputError);
  CHECK_THROWS_WITH(gib::prepare_cell(c), Catch::Contains("unknown probe 'volumes'"));
}

TEST_CASE("rigid-body probes: the axis splitting is a Poisson map and reversible, RK4 is neither, the printed condition "
          "fails (E1)",
          "[probes]") {
  auto made = gib::find_problem("free_rigid_body").make("mq1998", gib::Json::object(), "preset");
  const auto& body = static_cast<const gib::RigidBodyProblem&>(*made);
  const auto probe_of = [&](const char* id, const gib::Json& params) {
    const gib::MethodInfo& m = gib::find_method(id);
    return gib::rigid_body_probes::probe(m, body.model(), gib::merge_method_params(m, params), {body.initial_state()}, 0.1);
  };
  const auto split = probe_of("mr2", {{"ordering", "123"}});
  CHECK(split.poisson < 1e-11);
  CHECK(split.reversibility < 1e-14);
  CHECK(split.poisson_printed > 0.1);  // the transposed condition of Table 2.1 fails even for an exact Poisson map
  CHECK(split.notes.empty());
  const auto classical = probe_of("odeint_rk4_matrix", gib::Json::object());
  CHECK(classical.poisson > 1e-9);
  CHECK(classical.reversibility > 1e-9);
}
