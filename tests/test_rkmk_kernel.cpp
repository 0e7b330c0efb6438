// The one RKMK kernel (methods/rkmk/kernel.hpp) outside the registered double steppers: instantiated on the body group
// and on the particle group in double, long double and binary128, as a precision study needs it. In double it
// reproduces the registered steppers; in a wider scalar it computes the same method to that scalar's round-off.
#include <catch2/catch.hpp>
#include <cmath>
#include <string>
#include <vector>

#include "core/method.hpp"
#include "core/problem.hpp"
#include "methods/rkmk/kernel.hpp"
#include "methods/rkmk/particles_group.hpp"
#include "methods/rkmk/rigid_body_group.hpp"
#include "problems/dipolar_spheres/dipolar_model.hpp"
#include "problems/dipolar_spheres/forces_any_precision.hpp"
#include "problems/dipolar_spheres/quad_scalar.hpp"
#include "support/state_vectors.hpp"

namespace gibench_test_rkmk_kernel {

namespace {

using gib::Json;
namespace rkmk = gib::rkmk;
namespace so3 = gib::so3;
namespace tso3 = gib::tso3;
namespace ds = gib::dipolar_spheres;

// ---------------------------------------------------------------------------------------------------------------
// One free rigid body in S: RigidBodyModel's field interface.

template <class S> struct FreeBodyIn {
  so3::Vec3T<S> inv_inertia;
  bool torque_free() const { return true; }
  so3::Vec3T<S> angular_velocity(const so3::Vec3T<S>& Pi) const { return inv_inertia.cwiseProduct(Pi); }
  so3::Vec3T<S> body_torque(const so3::Mat3T<S>&) const { return so3::Vec3T<S>::Zero(); }
};

const gib::RigidBodyProblem& krysl_body() {
  static const auto made = gib::find_problem("free_rigid_body").make("krysl2006", Json::object(), "preset");
  return dynamic_cast<const gib::RigidBodyProblem&>(*made);
}

// RKMK4 (thesis truncation K = 3), left trivialisation, from the preset's state converted exactly to S.
template <class S> tso3::Element<S> body_rkmk4(int steps, double h) {
  const auto& p = krysl_body();
  const FreeBodyIn<S> model{p.model().inertia().template cast<S>().cwiseInverse()};
  using Group = rkmk::RigidBodyGroup<S, FreeBodyIn<S>>;
  rkmk::Kernel<Group> kernel(Group(model, 3, so3::ActionSide::right_multiply, so3::ActionSide::right_multiply),
                             rkmk::classical_rk4());
  tso3::Element<S> y{p.initial_state().R.template cast<S>(), p.initial_state().Pi.template cast<S>()};
  gib::OpCounters c;
  for (int n = 0; n < steps; ++n) kernel.step(y, S(h), c);
  return y;
}

template <class S> std::vector<long double> flat(const tso3::Element<S>& y) {
  return gib::test::body_vector<long double>(y.R, y.mu);
}

long double distance(const std::vector<long double>& a, const std::vector<long double>& b) {
  REQUIRE(a.size() == b.size());
  long double s = 0;
  for (std::size_t k = 0; k < a.size(); ++k) s += (a[k] - b[k]) * (a[k] - b[k]);
  return std::sqrt(s);
}

// The Casimir |Pi|^2 drift, relative, computed in S.
template <class S> double casimir_drift(const tso3::Element<S>& y) {
  const S c0 = krysl_body().initial_state().Pi.template cast<S>().squaredNorm();
  const S d = (y.mu.squaredNorm() - c0) / c0;
  return std::abs(static_cast<double>(d));
}

// ---------------------------------------------------------------------------------------------------------------
// N Kjer spheres in S: a particle state with every component in S and the templated pair kernel.

template <class S> struct SpheresIn {
  ds::Matrix3X<S> q, p, m;
  std::vector<so3::Mat3T<S>> Q;
};

template <class S> struct PairForcesIn {
  const ds::DipoleParameters* params;
  void forces_and_torques(const SpheresIn<S>& y, ds::Matrix3X<S>& F, ds::Matrix3X<S>& tau) const {
    (void)ds::forces_and_torques_in<S>(*params, y.q, y.Q, F, tau);
  }
};

const gib::ParticlesProblem& dense_spheres() {
  static const auto made = gib::find_problem("dipolar_spheres")
                               .make("kjer2017_n10", {{"N", 4}, {"box", 1.6}, {"min_start_distance", 1.3}}, "preset");
  return dynamic_cast<const gib::ParticlesProblem&>(*made);
}

template <class S> std::vector<long double> spheres_rkmk4(int steps, double h) {
  const auto& problem = dense_spheres();
  const ds::DipoleParameters& params = dynamic_cast<const ds::DipolarSpheresModel&>(problem.model()).parameters();
  const gib::ParticlesState& x0 = problem.initial_state();
  SpheresIn<S> y{x0.q.cast<S>(), x0.p.cast<S>(), x0.m.cast<S>(), {}};
  for (const gib::Mat3& R : x0.Q) y.Q.push_back(R.cast<S>());
  const Eigen::Index n = x0.q.cols();
  const auto inv_mass = Eigen::Matrix<S, Eigen::Dynamic, 1>::Constant(n, S(1) / S(params.mass));
  const so3::Vec3T<S> inv_inertia = params.inertia.template cast<S>().cwiseInverse();
  const ds::Matrix3X<S> inv_inertia_all = inv_inertia.replicate(1, n);
  PairForcesIn<S> forces{&params};
  using Group = rkmk::RigidParticlesGroup<SpheresIn<S>, PairForcesIn<S>>;
  rkmk::Kernel<Group> kernel(Group(forces, inv_mass, inv_inertia_all, 3, so3::ActionSide::right_multiply),
                             rkmk::classical_rk4());
  gib::OpCounters c;
  for (int k = 0; k < steps; ++k) kernel.step(y, S(h), c);
  return gib::test::particles_vector<long double>(y);
}

std::vector<long double> registered_spheres_rkmk4(int steps, double h) {
  const auto& problem = dense_spheres();
  const gib::MethodInfo& m = gib::find_method("rkmk4");
  auto stepper = m.particles(problem.model(), m.default_params);
  gib::ParticlesState x = problem.initial_state();
  gib::OpCounters c;
  for (int k = 0; k < steps; ++k) stepper->step(x, h, c);
  return gib::test::particles_vector<long double>(x);
}

}  // namespace

TEST_CASE("the body kernel in double is the registered rkmk4, bit for bit", "[rkmk][kernel]") {
  const auto& p = krysl_body();
  const gib::MethodInfo& m = gib::find_method("rkmk4");
  auto stepper = m.rigid_body(p.model(), m.default_params);
  gib::RigidBodyState x = p.initial_state();
  gib::OpCounters c;
  for (int n = 0; n < 300; ++n) stepper->step(x, 0.05, c);
  const tso3::Element<double> y = body_rkmk4<double>(300, 0.05);
  CHECK(x.R == y.R);
  CHECK(x.Pi == y.mu);
}

#ifdef GIB_HAVE_QUAD_SCALAR
TEST_CASE("the body kernel runs in long double and binary128, each to its own round-off", "[rkmk][kernel]") {
  const int steps = 300;
  const double h = 0.05;
  const auto d = flat(body_rkmk4<double>(steps, h));
  const auto ld = flat(body_rkmk4<long double>(steps, h));
  const auto q = flat(body_rkmk4<gib::quad::Quad>(steps, h));
  const long double d_q = distance(d, q), ld_q = distance(ld, q);
  INFO("double vs binary128 " << static_cast<double>(d_q) << ", long double vs binary128 " << static_cast<double>(ld_q));
  // The same method: the three differ by round-off only (the state is of size ~1) ...
  CHECK(d_q < 1e-12L);
  // ... and each wider type removes most of it: round-off, not a different computation, separates them.
  CHECK(d_q > 0);
  CHECK(ld_q > 0);
  CHECK(ld_q < 1e-2L * d_q);
  // RKMK keeps |Pi| exactly in exact arithmetic: the drift is the scalar's round-off (measured 9e-16, 1e-19 and
  // 7e-34). binary128 reaches its own only because core/so3.hpp's series coefficients are rounded in binary128: as
  // long double constants they left exp(U) orthogonal to ~1e-22 |U|^2 and this drift at 3e-25.
  const double cd = casimir_drift(body_rkmk4<double>(steps, h));
  const double cld = casimir_drift(body_rkmk4<long double>(steps, h));
  const double cq = casimir_drift(body_rkmk4<gib::quad::Quad>(steps, h));
  INFO("Casimir drift: double " << cd << ", long double " << cld << ", binary128 " << cq);
  CHECK(cd < 1e-13);
  CHECK(cld < 1e-16);
  CHECK(cq < 1e-30);
  CHECK(cq < 1e-3 * cld);
}

TEST_CASE("the particle kernel runs in long double and binary128, each to its own round-off", "[rkmk][kernel]") {
  const int steps = 50;
  const double h = 0.01;
  const auto reg = registered_spheres_rkmk4(steps, h);
  const auto d = spheres_rkmk4<double>(steps, h);
  const auto ld = spheres_rkmk4<long double>(steps, h);
  const auto q = spheres_rkmk4<gib::quad::Quad>(steps, h);
  const long double scale = distance(q, std::vector<long double>(q.size(), 0.0L));
  const long double reg_d = distance(reg, d), d_q = distance(d, q), ld_q = distance(ld, q);
  INFO("registered vs kernel in double " << static_cast<double>(reg_d / scale) << ", double vs binary128 "
                                         << static_cast<double>(d_q / scale) << ", long double vs binary128 "
                                         << static_cast<double>(ld_q / scale));
  // In double the kernel on the templated pair kernel is the registered rkmk4 up to the pair kernel's rounding.
  CHECK(reg_d <= 1e-13L * scale);
  CHECK(d_q <= 1e-13L * scale);
  CHECK(ld_q > 0);
  CHECK(ld_q < 1e-2L * d_q);
}
#endif

}  // namespace gibench_test_rkmk_kernel
