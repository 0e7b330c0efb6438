// Dipolar soft spheres (Kjer spec 5, 6, 7): forces and body torques against finite differences of the
// energy, Newton's third law and rotation invariance, closed-form pair energies, the planar variant,
// thread-count independence, the cutoff variant, the presets, bad input and the kernel in long double and
// 128-bit floats.
#include <boost/multiprecision/float128.hpp>
#include <catch2/catch.hpp>
#include <algorithm>
#include <cmath>
#include <numbers>
#include <string>

#include "core/errors.hpp"
#include "core/problem.hpp"
#include "core/so3.hpp"
#include "problems/dipolar_spheres/cutoff_kernel.hpp"
#include "problems/dipolar_spheres/dipolar_model.hpp"
#include "problems/dipolar_spheres/forces_any_precision.hpp"
#include "problems/dipolar_spheres/initial_state.hpp"
#include "problems/dipolar_spheres/pair_kernel.hpp"
#include "support/dipole_gas.hpp"

#ifdef _OPENMP
#include <omp.h>

namespace gibench_test_dipolar_spheres {

#endif

namespace {

using gib::Json;
using gib::Mat3;
using gib::ParticlesState;
using gib::Vec3;
namespace ds = gib::dipolar_spheres;
using Catch::Matchers::Contains;

std::unique_ptr<gib::ParticlesProblem> make(const std::string& preset, const Json& o = Json::object(),
                                            const std::string& ic = "preset") {
  auto p = gib::find_problem("dipolar_spheres").make(preset, o, ic);
  return std::unique_ptr<gib::ParticlesProblem>(dynamic_cast<gib::ParticlesProblem*>(p.release()));
}

const ds::DipolarSpheresModel& model_of(const gib::ParticlesProblem& p) {
  return dynamic_cast<const ds::DipolarSpheresModel&>(p.model());
}

struct Evaluation {
  Eigen::Matrix3Xd F, tau;
};

Evaluation evaluate(const gib::RigidParticlesModel& m, const ParticlesState& x) {
  Evaluation e;
  m.forces_and_torques(x, e.F, e.tau);
  return e;
}

// Central differences of V: in q_i along e_k (force -dV/dq) and along Q_i exp(h e_k^) (body torque,
// V(Q exp(h eta)) = V - h eta . tau). Compared with the model, relative to the largest component.
void check_against_finite_differences(const gib::RigidParticlesModel& m, const ParticlesState& x, double tolerance) {
  const Evaluation e = evaluate(m, x);
  const double h = 1e-6;
  const double scale = std::max(e.F.cwiseAbs().maxCoeff(), e.tau.cwiseAbs().maxCoeff());
  REQUIRE(scale > 1e-3);  // the configuration interacts: a wrong term cannot hide below the tolerance
  double worst_force = 0, worst_torque = 0;
  for (int i = 0; i < x.size(); ++i) {
    for (int k = 0; k < 3; ++k) {
      ParticlesState a = x, b = x;
      a.q(k, i) += h;
      b.q(k, i) -= h;
      const double fd_force = -(m.potential_energy(a) - m.potential_energy(b)) / (2 * h);
      worst_force = std::max(worst_force, std::abs(fd_force - e.F(k, i)));
      a = x;
      b = x;
      const auto s = static_cast<std::size_t>(i);
      a.Q[s] = x.Q[s] * gib::so3::exp<double>(Vec3::Unit(k) * h);
      b.Q[s] = x.Q[s] * gib::so3::exp<double>(Vec3::Unit(k) * -h);
      const double fd_torque = -(m.potential_energy(a) - m.potential_energy(b)) / (2 * h);
      worst_torque = std::max(worst_torque, std::abs(fd_torque - e.tau(k, i)));
    }
  }
  INFO("largest component " << scale << ", force error " << worst_force << ", torque error " << worst_torque);
  CHECK(worst_force <= tolerance * scale);
  CHECK(worst_torque <= tolerance * scale);
}

// Sum F_i = 0 and sum (q_i x F_i + Q_i tau_i) = 0 (V is invariant under translations and rotations).
void check_balance(const gib::RigidParticlesModel& m, const ParticlesState& x) {
  const Evaluation e = evaluate(m, x);
  Vec3 force = Vec3::Zero(), torque = Vec3::Zero();
  double force_size = 0, torque_size = 0;
  for (int i = 0; i < x.size(); ++i) {
    const Vec3 spatial = x.Q[static_cast<std::size_t>(i)] * e.tau.col(i);
    force += e.F.col(i);
    torque += x.q.col(i).cross(e.F.col(i)) + spatial;
    force_size += e.F.col(i).norm();
    torque_size += x.q.col(i).norm() * e.F.col(i).norm() + spatial.norm();
  }
  const double eps = std::numeric_limits<double>::epsilon();
  INFO("sum F = " << force.transpose() << " of " << force_size << ", sum torque = " << torque.transpose() << " of "
                  << torque_size);
  REQUIRE(force_size > 1e-6);
  CHECK(force.norm() <= 16 * eps * force_size);
  CHECK(torque.norm() <= 16 * eps * torque_size);
}

// Two particles of the N = 2 3D model (mu_bar = (0, 1, 1) unless overridden).
ParticlesState pair_state(const Vec3& separation, const Mat3& Q2) {
  ParticlesState x;
  x.q = Eigen::Matrix3Xd::Zero(3, 2);
  x.q.col(1) = separation;
  x.p = x.m = Eigen::Matrix3Xd::Zero(3, 2);
  x.Q = {Mat3::Identity(), Q2};
  return x;
}

ds::ParticleArrays<double> arrays_of(const ParticlesState& x, const Vec3& mu_bar) {
  ds::ParticleArrays<double> a;
  a.resize(static_cast<std::size_t>(x.size()));
  for (int i = 0; i < x.size(); ++i) {
    const auto k = static_cast<std::size_t>(i);
    const Vec3 mu = x.Q[k] * mu_bar;
    a.x[k] = x.q(0, i);
    a.y[k] = x.q(1, i);
    a.z[k] = x.q(2, i);
    a.mx[k] = mu(0);
    a.my[k] = mu(1);
    a.mz[k] = mu(2);
  }
  return a;
}

template <class S>
ds::ParticleArrays<S> convert(const ds::ParticleArrays<double>& a) {
  ds::ParticleArrays<S> b;
  b.resize(a.size());
  for (std::size_t k = 0; k < a.size(); ++k) {
    b.x[k] = S(a.x[k]);
    b.y[k] = S(a.y[k]);
    b.z[k] = S(a.z[k]);
    b.mx[k] = S(a.mx[k]);
    b.my[k] = S(a.my[k]);
    b.mz[k] = S(a.mz[k]);
  }
  return b;
}

template <class S>
ds::PairResult<S> all_pairs_in(const ds::ParticleArrays<double>& a) {
  const ds::ParticleArrays<S> b = convert<S>(a);
  ds::AllPairsWorkspace<S> ws;
  ds::PairResult<S> r;
  ds::all_pairs(b, ds::pair_constants<S>(S(1), S(1), ds::ShortRange::soft_sphere), ws, r);
  return r;
}

// max_k |a_k - b_k| / max_k |b_k| over the forces and fields, and the energy difference relative to |E_b|;
// computed in B, the higher precision.
template <class A, class B>
std::pair<double, double> difference(const ds::PairResult<A>& a, const ds::PairResult<B>& b) {
  double worst = 0, size = 0;
  auto compare = [&](const std::vector<A>& u, const std::vector<B>& v) {
    for (std::size_t k = 0; k < u.size(); ++k) {
      worst = std::max(worst, std::abs(static_cast<double>(B(u[k]) - v[k])));
      size = std::max(size, std::abs(static_cast<double>(v[k])));
    }
  };
  compare(a.field.fx, b.field.fx);
  compare(a.field.fy, b.field.fy);
  compare(a.field.fz, b.field.fz);
  compare(a.field.ex, b.field.ex);
  compare(a.field.ey, b.field.ey);
  compare(a.field.ez, b.field.ez);
  const double energy = std::abs(static_cast<double>(B(a.energy) - b.energy)) / std::abs(static_cast<double>(b.energy));
  return {worst / size, energy};
}

using gibench_test_support::same_bits;

void expect_input_error(const std::string& preset, const Json& o, const std::string& ic, const std::string& needle) {
  INFO(preset << " " << o.dump() << " " << ic);
  try {
    make(preset, o, ic);
    FAIL_CHECK("no InputError; expected one saying '" << needle << "'");
  } catch (const gib::InputError& e) {
    CHECK_THAT(std::string(e.what()), Contains(needle));
  }
}

// A dense configuration (many pairs at 1.5-3 sigma): the dilute thesis draws barely interact.
const Json kDense3d = {{"N", 12}, {"box", 2.5}, {"min_start_distance", 1.0}};

}  // namespace

TEST_CASE("forces and body torques are the derivatives of the energy", "[dipolar]") {
  SECTION("3D, Kjer parameters, several draws") {
    for (const char* ic : {"preset", "random:1", "random:2"}) {
      const auto p = make("kjer2017_n10", kDense3d, ic);
      INFO(ic);
      check_against_finite_differences(p->model(), p->initial_state(), 1e-7);
    }
  }
  SECTION("planar preset") {
    const auto p = make("kjer2017_2d_n10", {{"box", 3.0}, {"min_start_distance", 1.0}}, "random:3");
    check_against_finite_differences(p->model(), p->initial_state(), 1e-7);
  }
  SECTION("Lennard-Jones short range, anisotropic non-unit dipole") {
    const auto p = make("lammps_compatible", {{"N", 10},
                                              {"box", 2.5},
                                              {"min_start_distance", 1.0},
                                              {"mu_bar", {0.3, -1.2, 0.7}},
                                              {"sigma", 1.1},
                                              {"epsilon", 0.7}});
    check_against_finite_differences(p->model(), p->initial_state(), 1e-7);
  }
}

TEST_CASE("Newton's third law and rotation invariance hold to round-off", "[dipolar]") {
  for (const char* preset : {"kjer2017_n10", "kjer2017_2d_n10", "lammps_compatible"}) {
    INFO(preset);
    const auto p = make(preset, {{"box", 3.0}, {"min_start_distance", 1.0}}, "random:4");
    check_balance(p->model(), p->initial_state());
  }
  const auto cut = make("kjer2017_n10", {{"N", 80}, {"box", 4.0}, {"min_start_distance", 1.0}, {"cutoff", 2.5}});
  check_balance(cut->model(), cut->initial_state());
}

TEST_CASE("pair energies match the closed forms of spec 5.4", "[dipolar]") {
  const auto p = make("kjer2017_n10", {{"N", 2}});
  const auto& m = p->model();
  const Vec3 axis = Vec3(0, 1, 1).normalized();  // mu_bar's direction: Q = I puts both dipoles along it
  SECTION("head to tail, |mu|^2 = 2: V = 4/r^12 - 4/r^3, minimum at r* = 4^(1/9), V(r*) = -1.89") {
    for (double r : {1.0, 1.1, 1.5, 2.7}) {
      const double expected = 4 / std::pow(r, 12) - 4 / std::pow(r, 3);
      CHECK(m.potential_energy(pair_state(r * axis, Mat3::Identity())) ==
            Approx(expected).epsilon(1e-14).margin(1e-14));
    }
    const double r_star = std::pow(4.0, 1.0 / 9.0);
    CHECK(r_star == Approx(1.1665).epsilon(1e-4));
    const ParticlesState x = pair_state(r_star * axis, Mat3::Identity());
    CHECK(m.potential_energy(x) == Approx(std::pow(4.0, -1.0 / 3) - std::pow(4.0, 2.0 / 3)).epsilon(1e-14));
    CHECK(m.potential_energy(x) == Approx(-1.89).epsilon(1e-3));
    const Evaluation e = evaluate(m, x);
    CHECK(e.F.norm() <= 1e-13);    // the bond is at rest at r*
    CHECK(e.tau.norm() <= 1e-13);  // each dipole lies along its partner's field
  }
  SECTION("side by side, antiparallel: V = 4/r^12 - 2/r^3, minimum at 2^(1/3)") {
    const Vec3 across(1, 0, 0);                                          // perpendicular to mu_bar
    const Mat3 flip = gib::so3::exp<double>(std::numbers::pi * across);  // Q_2 mu_bar = -mu_bar
    for (double r : {1.0, 1.3, 2.0}) {
      const double expected = 4 / std::pow(r, 12) - 2 / std::pow(r, 3);
      CHECK(m.potential_energy(pair_state(r * across, flip)) == Approx(expected).epsilon(1e-13));
    }
    const Evaluation e = evaluate(m, pair_state(std::cbrt(2.0) * across, flip));
    CHECK(e.F.norm() <= 1e-13);
    CHECK(e.tau.norm() <= 1e-13);
  }
  SECTION("Lennard-Jones head to tail: V = 4/r^12 - 4/r^6 - 4/r^3") {
    const auto lj = make("kjer2017_n10", {{"N", 2}, {"short_range", "lj"}});
    for (double r : {1.0, 1.2, 2.0}) {
      const double expected = 4 / std::pow(r, 12) - 4 / std::pow(r, 6) - 4 / std::pow(r, 3);
      CHECK(lj->model().potential_energy(pair_state(r * axis, Mat3::Identity())) == Approx(expected).epsilon(1e-14));
    }
  }
}

TEST_CASE("the planar variant keeps forces in the plane and torques along z", "[dipolar]") {
  for (const char* ic : {"preset", "random:1"}) {
    const auto p = make("kjer2017_2d_n10", {{"box", 3.0}, {"min_start_distance", 1.0}}, ic);
    const ParticlesState& x = p->initial_state();
    const Evaluation e = evaluate(p->model(), x);
    REQUIRE(e.F.topRows(2).cwiseAbs().maxCoeff() > 1e-3);
    REQUIRE(e.tau.row(2).cwiseAbs().maxCoeff() > 1e-3);
    CHECK(e.F.row(2).cwiseAbs().maxCoeff() == 0.0);
    CHECK(e.tau.topRows(2).cwiseAbs().maxCoeff() == 0.0);
  }
}

TEST_CASE("results have the same bits for 1, 2 and 4 threads", "[dipolar]") {
#ifdef _OPENMP
  const int saved = omp_get_max_threads();
  for (double cutoff : {0.0, 2.5}) {
    INFO("cutoff " << cutoff);
    const auto p = make("kjer2017_n10", {{"N", 1500}, {"box", 7.0}, {"min_start_distance", 0.9}, {"cutoff", cutoff}});
    const auto& m = model_of(*p);
    std::vector<ds::PairResult<double>> results(3);
    const int threads[] = {1, 2, 4};
    for (int k = 0; k < 3; ++k) {
      omp_set_num_threads(threads[k]);
      m.evaluate(p->initial_state(), results[static_cast<std::size_t>(k)]);
    }
    omp_set_num_threads(saved);
    CHECK(same_bits(results[0], results[1]));
    CHECK(same_bits(results[0], results[2]));
  }
  // The all-pairs case above runs in many chunks, so the threads really split the work.
  std::vector<std::int64_t> work(1500);
  for (std::size_t i = 0; i < work.size(); ++i) work[i] = static_cast<std::int64_t>(work.size() - 1 - i);
  CHECK(ds::partition_rows(work, std::vector<std::size_t>(work.size(), work.size())).size() > 8);
#else
  WARN("built without OpenMP: nothing to compare");
#endif
}

TEST_CASE("chunk partition covers every row once", "[dipolar]") {
  for (std::size_t n : {2u, 10u, 300u, 5000u}) {
    std::vector<std::int64_t> work(n);
    for (std::size_t i = 0; i < n; ++i) work[i] = static_cast<std::int64_t>(n - 1 - i);
    const auto chunks = ds::partition_rows(work, std::vector<std::size_t>(n, n));
    REQUIRE(!chunks.empty());
    CHECK(chunks.front().begin == 0);
    CHECK(chunks.back().end == n);
    for (std::size_t c = 1; c < chunks.size(); ++c) CHECK(chunks[c].begin == chunks[c - 1].end);
    for (const auto& c : chunks) CHECK(c.end > c.begin);
  }
}

// The switch applied to finished pair terms, written independently of the kernels' switched_pair_terms (which
// folds it into the coefficients): s(r) times every term, plus V s'(r) r / r in the position gradient.
void switch_terms(const ds::PairConstants<double>& c, double r, double rx, double ry, double rz,
                  ds::PairTerms<double>& t) {
  const double x = std::clamp((r - c.switch_start) / (c.cutoff - c.switch_start), 0.0, 1.0);
  const double s = 1 - x * x * x * (10 - 15 * x + 6 * x * x);
  const double ds_dr = -30 * x * x * (1 - x) * (1 - x) / (c.cutoff - c.switch_start);
  const double radial = t.energy * ds_dr / r;
  for (auto [g, d] : {std::pair{&t.gx, rx}, {&t.gy, ry}, {&t.gz, rz}}) *g = s * *g + radial * d;
  for (double* e : {&t.energy, &t.eix, &t.eiy, &t.eiz, &t.ejx, &t.ejy, &t.ejz}) *e *= s;
}

TEST_CASE("cutoff variant: exact gradient of its energy, every close pair once, all pairs when large", "[dipolar]") {
  SECTION("forces and torques are the derivatives of the switched energy") {
    // Box and cutoff put many pairs inside the switch [2.0, 2.5].
    const auto p = make("kjer2017_n10", {{"N", 30}, {"box", 3.0}, {"min_start_distance", 1.0}, {"cutoff", 2.5}});
    check_against_finite_differences(p->model(), p->initial_state(), 1e-7);
  }
  SECTION("the cell list finds every pair inside the cutoff (against a direct loop over all pairs)") {
    for (const Json& o : {Json{{"N", 600}, {"box", 6.0}, {"min_start_distance", 0.9}, {"cutoff", 2.5}},
                          Json{{"N", 400},
                               {"box", 12.0},
                               {"min_start_distance", 0.9},
                               {"cutoff", 3.0},
                               {"dimension", 2},
                               {"mu_bar", {1, 1, 0}}}}) {
      INFO(o.dump());
      const auto p = make("kjer2017_n10", o);
      const auto& m = model_of(*p);
      ds::PairResult<double> fast;
      m.evaluate(p->initial_state(), fast);
      const ds::ParticleArrays<double> a = arrays_of(p->initial_state(), m.parameters().mu_bar);
      const auto c = ds::pair_constants(1.0, 1.0, ds::ShortRange::soft_sphere, o["cutoff"].get<double>(), 0.8);
      ds::PairResult<double> direct;
      direct.field.assign_zero(a.size());
      int inside = 0;
      for (std::size_t i = 0; i < a.size(); ++i) {
        for (std::size_t j = i + 1; j < a.size(); ++j) {
          const double rx = a.x[i] - a.x[j], ry = a.y[i] - a.y[j], rz = a.z[i] - a.z[j];
          const double r = std::sqrt(rx * rx + ry * ry + rz * rz);
          inside += r < c.cutoff;
          auto t = ds::pair_terms(c, rx, ry, rz, 1 / r, a.mx[i], a.my[i], a.mz[i], a.mx[j], a.my[j], a.mz[j]);
          switch_terms(c, r, rx, ry, rz, t);
          direct.energy += t.energy;
          direct.field.fx[i] -= t.gx;
          direct.field.fx[j] += t.gx;
          direct.field.fy[i] -= t.gy;
          direct.field.fy[j] += t.gy;
          direct.field.fz[i] -= t.gz;
          direct.field.fz[j] += t.gz;
          direct.field.ex[i] += t.eix;
          direct.field.ex[j] += t.ejx;
          direct.field.ey[i] += t.eiy;
          direct.field.ey[j] += t.ejy;
          direct.field.ez[i] += t.eiz;
          direct.field.ez[j] += t.ejz;
        }
      }
      REQUIRE(inside > 1000);
      const auto [field, energy] = difference(fast, direct);
      CHECK(field <= 1e-12);
      CHECK(energy <= 1e-12);
    }
  }
  SECTION("a cutoff beyond the system gives the all-pairs result to round-off") {
    const Json o = {{"N", 40}, {"box", 4.0}, {"min_start_distance", 1.0}};
    const auto all = make("kjer2017_n10", o);
    Json with_cutoff = o;
    with_cutoff["cutoff"] = 1000.0;
    const auto cut = make("kjer2017_n10", with_cutoff);
    ds::PairResult<double> a, b;
    model_of(*all).evaluate(all->initial_state(), a);
    model_of(*cut).evaluate(cut->initial_state(), b);
    const auto [field, energy] = difference(b, a);
    CHECK(field <= 1e-13);
    CHECK(energy <= 1e-13);
  }
}

TEST_CASE("Kjer presets: sizes, dipoles, rotations, positions, rest", "[dipolar]") {
  struct Expect {
    const char* preset;
    int n;
    int dimension;
  };
  for (const Expect& ex : {Expect{"kjer2017_n100", 100, 3}, Expect{"kjer2017_n10", 10, 3},
                           Expect{"kjer2017_2d_n2", 2, 2}, Expect{"kjer2017_2d_n10", 10, 2}}) {
    INFO(ex.preset);
    const auto p = make(ex.preset);
    const auto& m = model_of(*p);
    const ParticlesState& x = p->initial_state();
    REQUIRE(x.size() == ex.n);
    CHECK(m.parameters().mu_bar.squaredNorm() == Approx(2.0).epsilon(1e-15));  // not normalised (spec 7 item 17)
    CHECK(m.parameters().mu_bar == (ex.dimension == 2 ? Vec3(1, 1, 0) : Vec3(0, 1, 1)));
    CHECK(m.inertia(0) == Vec3(1.0, 1.88, 2.88));
    CHECK(m.mass(0) == 1.0);
    CHECK(m.parameters().cutoff == 0.0);
    CHECK(x.p.isZero(0));
    CHECK(x.m.isZero(0));
    CHECK(x.q.cwiseAbs().maxCoeff() <= ex.n);
    CHECK(x.q.cwiseAbs().maxCoeff() > 0.5 * ex.n);
    if (ex.dimension == 2) CHECK(x.q.row(2).isZero(0));
    for (const Mat3& Q : x.Q) {
      CHECK(Q.determinant() == Approx(1.0).epsilon(1e-14));
      CHECK((Q.transpose() * Q - Mat3::Identity()).norm() <= 1e-14);
      if (ex.dimension == 2) CHECK(Q(2, 2) == 1.0);
    }
    CHECK(m.min_pair_distance(x) >= 1.5);
    // The preset seed draws no pair closer than 1.5, so the rejection rule left the thesis's i.i.d. draw alone.
    ds::DrawSettings d;
    d.n = ex.n;
    d.dimension = ex.dimension;
    d.box = ex.n;
    CHECK(ds::positions_untouched_by_rejection(d, p->parameters()["seed"].get<std::uint64_t>()));
    // The time scale is 1/omega of the head-to-tail bond, 1 / sqrt(2 V''(r*)): the period 0.63 (spec 5.4) / 2 pi.
    const double r = std::pow(4.0, 1.0 / 9.0);
    const double curvature = 156 * 4 / std::pow(r, 14) - 24 * 2 / std::pow(r, 5);
    CHECK(p->time_scale() == Approx(1 / std::sqrt(2 * curvature)).epsilon(1e-9));
    CHECK(p->time_scale() * 2 * std::numbers::pi == Approx(0.63).epsilon(0.01));
  }
}

TEST_CASE("Haar rotations by QR are rotations and cover SO(3) evenly", "[dipolar]") {
  gib::random::Stream rng(7);
  Vec3 mean_axis_z = Vec3::Zero();
  const int n = 20000;
  for (int k = 0; k < n; ++k) {
    const Mat3 q = ds::haar_rotation_qr(rng);
    REQUIRE(q.determinant() == Approx(1.0).epsilon(1e-14));
    mean_axis_z += q.col(2);  // uniform on the sphere: mean 0, |mean| ~ 1/sqrt(3n)
  }
  CHECK((mean_axis_z / n).norm() <= 0.03);
}

TEST_CASE("lammps_compatible preset: what LAMMPS can represent, all terms active", "[dipolar]") {
  const auto p = make("lammps_compatible");
  const auto& m = model_of(*p);
  const ParticlesState& x = p->initial_state();
  CHECK(m.parameters().short_range == ds::ShortRange::lennard_jones);
  CHECK(m.inertia(0) == Vec3::Constant(0.1));  // a sphere: 0.1 m d^2 with m = d = 1
  CHECK(m.parameters().mu_bar.norm() == 1.0);
  CHECK(x.size() >= 20);
  CHECK(x.size() <= 50);
  CHECK(x.q.cwiseAbs().maxCoeff() <= 4.0);
  CHECK(m.min_pair_distance(x) >= 1.5);
  CHECK(x.p.rowwise().sum().norm() <= 1e-15);  // centre of mass at rest
  CHECK(x.p.cwiseAbs().minCoeff() > 0);
  CHECK(x.m.cwiseAbs().minCoeff() > 0);
  CHECK(p->parameters()["short_range"] == "lj");
}

TEST_CASE("parameters are canonical and draws reproducible", "[dipolar]") {
  const auto a = make("kjer2017_n10"), b = make("kjer2017_n10");
  CHECK(a->parameter_hash() == b->parameter_hash());
  CHECK(a->initial_state().q == b->initial_state().q);
  const auto r1 = make("kjer2017_n10", Json::object(), "random:1"),
             r1b = make("kjer2017_n10", Json::object(), "random:1");
  CHECK(r1->parameter_hash() == r1b->parameter_hash());
  CHECK(r1->parameter_hash() != a->parameter_hash());
  CHECK((r1->initial_state().q - a->initial_state().q).norm() > 1);
  const Json j = a->parameters();
  for (const char* key : {"N",
                          "mass",
                          "inertia",
                          "mu_bar",
                          "sigma",
                          "epsilon",
                          "short_range",
                          "cutoff",
                          "switch_fraction",
                          "dimension",
                          "box",
                          "positions",
                          "min_start_distance",
                          "momentum_scale",
                          "angular_momentum_scale",
                          "seed",
                          "draw_seed",
                          "q0",
                          "p0",
                          "m0",
                          "Q0"})
    CHECK(j.contains(key));
  CHECK(j["box"] == 10.0);
  CHECK(make("kjer2017_n10", {{"N", 20}})->parameters()["box"] == 20.0);  // the box follows N, as the thesis
  CHECK(make("kjer2017_n10", {{"seed", 99}})->parameter_hash() != a->parameter_hash());
}

TEST_CASE("bad input throws InputError with a clear message", "[dipolar]") {
  const Json none = Json::object();
  expect_input_error("kjer2017", none, "preset", "unknown preset 'kjer2017'");
  expect_input_error("kjer2017_n10", {{"N", 1}}, "preset", "N must be an integer in [2,");
  expect_input_error("kjer2017_n10", {{"N", 2.5}}, "preset", "N must be an integer");
  expect_input_error("kjer2017_n10", {{"mass", -1}}, "preset", "mass must be positive");
  expect_input_error("kjer2017_n10", {{"inertia", {1, -2, 3}}}, "preset", "inertia must have positive entries");
  expect_input_error("kjer2017_n10", {{"cutoff", std::nan("")}}, "preset", "cutoff must be finite");
  expect_input_error("kjer2017_n10", {{"cutoff", -1.0}}, "preset", "cutoff must be >= 0");
  expect_input_error("kjer2017_n10", {{"switch_fraction", 1.0}}, "preset", "switch_fraction must be in [0, 1)");
  expect_input_error("kjer2017_n10", {{"sigma", 0}}, "preset", "sigma must be positive");
  expect_input_error("kjer2017_n10", {{"short_range", "lennard"}}, "preset",
                     "short_range must be one of soft_sphere lj");
  expect_input_error("kjer2017_n10", {{"dimension", 2}}, "preset", "mu_bar[2] = 0");
  expect_input_error("kjer2017_n10", {{"N_particles", 3}}, "preset", "unknown parameter 'N_particles'");
  expect_input_error("kjer2017_n10", none, "random:0", "random:K");
  expect_input_error("kjer2017_n10", none, "randomly", "random:K");
  expect_input_error("kjer2017_n10", {{"N", 200}, {"box", 2.0}}, "preset", "cannot place particle");
  // The explicit pair: both parameters, two particles in the plane, at rest, nothing drawn.
  const Json pair = {{"pair_separation", 2.0}, {"pair_angles", {0, 90}}};
  expect_input_error("kjer2017_2d_n2", {{"pair_separation", 2.0}}, "preset", "go together");
  expect_input_error("kjer2017_2d_n2", {{"pair_angles", {0, 90}}}, "preset", "go together");
  expect_input_error("kjer2017_2d_n2", {{"pair_separation", 0.0}, {"pair_angles", {0, 90}}}, "preset", "pair_separation must be positive");
  expect_input_error("kjer2017_2d_n2", {{"pair_separation", 2.0}, {"pair_angles", {0}}}, "preset", "pair_angles must be [a1, a2]");
  expect_input_error("kjer2017_2d_n2", {{"pair_separation", 2.0}, {"pair_angles", 45}}, "preset", "pair_angles must be [a1, a2]");
  expect_input_error("kjer2017_2d_n2", {{"pair_separation", 2.0}, {"pair_angles", {0, "a"}}}, "preset", "pair_angles[1] must be a number");
  Json more = pair;
  more["N"] = 3;
  expect_input_error("kjer2017_2d_n2", more, "preset", "N must be 2, got N = 3");
  expect_input_error("kjer2017_n10", pair, "preset", "N must be 2");
  Json flat = pair;
  flat["dimension"] = 3;
  expect_input_error("kjer2017_2d_n2", flat, "preset", "needs dimension 2, got dimension = 3");
  Json no_dipole = pair;
  no_dipole["mu_bar"] = {0, 0, 0};
  expect_input_error("kjer2017_2d_n2", no_dipole, "preset", "needs an in-plane part");
  Json moving = pair;
  moving["momentum_scale"] = 0.1;
  expect_input_error("kjer2017_2d_n2", moving, "preset", "starts at rest");
  expect_input_error("kjer2017_2d_n2", pair, "random:1", "initial condition must be \"preset\"");
}

TEST_CASE("an explicit planar pair: positions, dipole directions, rest, parameters", "[dipolar]") {
  const Json pair = {{"pair_separation", 2.5}, {"pair_angles", {30.0, -60.0}}};
  for (const Json& mu_bar : {Json(nullptr), Json{0.0, 2.0, 0.0}, Json{-1.0, 0.5, 0.0}}) {
    Json o = pair;
    if (!mu_bar.is_null()) o["mu_bar"] = mu_bar;
    INFO(o.dump());
    const auto p = make("kjer2017_2d_n2", o);
    const ParticlesState& x = p->initial_state();
    REQUIRE(x.size() == 2);
    CHECK(x.q.col(0) == Vec3(-1.25, 0, 0));
    CHECK(x.q.col(1) == Vec3(1.25, 0, 0));
    CHECK(x.p.isZero(0));
    CHECK(x.m.isZero(0));
    // The angles are the dipoles' directions from +x (particle 1 to 2), whatever mu_bar's own angle.
    const Vec3 mb = model_of(*p).parameters().mu_bar;
    for (int i = 0; i < 2; ++i) {
      const Mat3& Q = x.Q[static_cast<std::size_t>(i)];
      CHECK((Q.transpose() * Q - Mat3::Identity()).norm() <= 1e-15);
      CHECK(Q(2, 2) == 1.0);
      const Vec3 mu = Q * mb;
      CHECK(std::atan2(mu(1), mu(0)) * 180 / std::numbers::pi == Approx(i == 0 ? 30.0 : -60.0).epsilon(1e-12));
      CHECK(mu.norm() == Approx(mb.norm()).epsilon(1e-15));
    }
    const Json j = p->parameters();
    CHECK(j["pair_separation"] == 2.5);
    CHECK(j["pair_angles"] == Json{30.0, -60.0});
  }
  // Drawn configurations keep their parameters (and hashes): the pair keys appear only when set.
  CHECK_FALSE(make("kjer2017_2d_n2")->parameters().contains("pair_angles"));
  CHECK(make("kjer2017_2d_n2", pair)->parameter_hash() != make("kjer2017_2d_n2")->parameter_hash());
  CHECK(make("kjer2017_2d_n2", {{"pair_separation", 2.5}, {"pair_angles", {30.0, -59.0}}})->parameter_hash() !=
        make("kjer2017_2d_n2", pair)->parameter_hash());
}

TEST_CASE("an explicit pair attracts head to tail and repels side by side (Kjer Fig 3.12)", "[dipolar]") {
  // Point dipoles 2 apart: head to tail U = -2|mu|^2/r^3 (attract), parallel side by side U = +|mu|^2/r^3 (repel),
  // though both differ by 0 degrees; antiparallel side by side attracts though they differ by 180.
  struct Case {
    double a1, a2;
    int sign;  // of the force on particle 2 along +x: -1 towards particle 1 (attract)
  };
  for (const Case& k : {Case{0, 0, -1}, Case{90, 90, 1}, Case{90, -90, -1}, Case{0, 180, 1}}) {
    INFO(k.a1 << ", " << k.a2);
    const auto p = make("kjer2017_2d_n2", {{"pair_separation", 2.0}, {"pair_angles", {k.a1, k.a2}}});
    const Evaluation e = evaluate(p->model(), p->initial_state());
    CHECK((e.F(0, 1) > 0 ? 1 : -1) == k.sign);
    CHECK(e.F(0, 0) == Approx(-e.F(0, 1)).epsilon(1e-14));
    // The closed form of -dU/dr at fixed orientations: 48/r^13 + 3 (mu1.mu2 - 3 (mu1.e)(mu2.e)) / r^4.
    const double c1 = std::cos(k.a1 * std::numbers::pi / 180), s1 = std::sin(k.a1 * std::numbers::pi / 180);
    const double c2 = std::cos(k.a2 * std::numbers::pi / 180), s2 = std::sin(k.a2 * std::numbers::pi / 180);
    const double angular = 2 * (c1 * c2 + s1 * s2) - 3 * 2 * c1 * c2;
    CHECK(e.F(0, 1) == Approx(48 / std::pow(2.0, 13) + 3 * angular / 16).margin(1e-14));
  }
}

TEST_CASE("the kernel in long double and 128-bit floats agrees with double", "[dipolar]") {
  const auto p = make("kjer2017_n10", {{"N", 50}, {"box", 4.0}, {"min_start_distance", 1.0}}, "random:5");
  const ds::ParticleArrays<double> a = arrays_of(p->initial_state(), model_of(*p).parameters().mu_bar);
  const auto d = all_pairs_in<double>(a);
  const auto ld = all_pairs_in<long double>(a);
  const auto [field, energy] = difference(d, ld);
  INFO("double vs long double: field " << field << ", energy " << energy);
  CHECK(field <= 1e-13);
  CHECK(energy <= 1e-13);
  CHECK(field > 0);  // different precisions really ran
#if defined(__SIZEOF_FLOAT128__)
  const auto q = all_pairs_in<__float128>(a);
  const auto bq = all_pairs_in<boost::multiprecision::float128>(a);
  const auto [qf, qe] = difference(ld, q);
  const auto [bf, be] = difference(q, bq);
  INFO("long double vs __float128: field " << qf << ", energy " << qe);
  CHECK(qf <= 1e-17);  // long double's own round-off (eps 1.1e-19) summed over 50 particles
  CHECK(qe <= 1e-17);
  CHECK(bf == 0.0);  // the same arithmetic through Boost's wrapper
  CHECK(be == 0.0);
#endif
}

TEST_CASE("forces and torques in long double agree with the double model", "[dipolar]") {
  using LD = long double;
  for (double cutoff : {0.0, 2.5}) {
    const auto p = make("kjer2017_n10", {{"N", 40}, {"box", 3.5}, {"min_start_distance", 1.0}, {"cutoff", cutoff}});
    const ParticlesState& x = p->initial_state();
    const ds::Matrix3X<LD> q = x.q.cast<LD>();
    std::vector<gib::so3::Mat3T<LD>> Q;
    for (const Mat3& R : x.Q) Q.push_back(R.cast<LD>());
    ds::Matrix3X<LD> F, tau;
    const LD V = ds::forces_and_torques_in<LD>(model_of(*p).parameters(), q, Q, F, tau);
    const Evaluation e = evaluate(p->model(), x);
    const double scale = std::max(e.F.cwiseAbs().maxCoeff(), e.tau.cwiseAbs().maxCoeff());
    INFO("cutoff " << cutoff);
    CHECK(static_cast<double>(std::abs(V - LD(p->model().potential_energy(x)))) <=
          1e-13 * std::abs(static_cast<double>(V)));
    CHECK((F.cast<double>() - e.F).cwiseAbs().maxCoeff() <= 1e-13 * scale);
    CHECK((tau.cast<double>() - e.tau).cwiseAbs().maxCoeff() <= 1e-13 * scale);
    CHECK((F.cast<double>() - e.F).cwiseAbs().maxCoeff() > 0);  // long double really ran
  }
}

}  // namespace gibench_test_dipolar_spheres
