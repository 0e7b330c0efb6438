#include "problems/rigid_molecules/rigid_molecules.hpp"

#include <Eigen/Geometry>
#include <array>
#include <cmath>
#include <map>
#include <mutex>

#include "core/errors.hpp"
#include "core/random.hpp"
#include "core/so3.hpp"
#include "core/user_input.hpp"
#include "problems/common/overrides.hpp"
#include "problems/common/particles_reference.hpp"

namespace gib::rigid_molecules {
namespace {

constexpr const char* kId = "rigid_molecules";
constexpr int kMolecules = 2;
constexpr int kSites = 3;

// Body-frame sites, unit masses: the centre of mass is at the origin ((0.4 - 0.2 - 0.2) = 0) and the inertia
// tensor sum m (|X|^2 I - X X^T) is diag(0.24, 1.52, 1.28), the spec's principal moments (spec 6.3).
const std::array<Vec3, kSites> kBodySites = {Vec3(0, 0, 0.4), Vec3(0.8, 0, -0.2), Vec3(-0.8, 0, -0.2)};

struct Parameters {
  double k = 1.0, r0 = 2.0;
  // The lectures print the torque of a kick as (Q^T f) x X, the sign of the other convention (spec 5.2, E2):
  // mixed with the physical drift it is a different, non-Hamiltonian system, the spec's convention-mismatch test.
  bool printed_torque = false;
};

// Forces on the molecules' centres and body torques, at any precision (the long double reference uses the same
// formulas). V = sum over sites a of molecule 0 and b of molecule 1 of k/2 (|x_a - x_b| - r0)^2.
template <class S>
S forces_and_torques_in(const Parameters& par, const Eigen::Matrix<S, 3, Eigen::Dynamic>& q,
                        const std::vector<Eigen::Matrix<S, 3, 3>>& Q, Eigen::Matrix<S, 3, Eigen::Dynamic>& F,
                        Eigen::Matrix<S, 3, Eigen::Dynamic>& tau) {
  using V3 = Eigen::Matrix<S, 3, 1>;
  F.setZero(3, kMolecules);
  tau.setZero(3, kMolecules);
  std::array<std::array<V3, kSites>, kMolecules> x, body;
  for (int i = 0; i < kMolecules; ++i)
    for (int a = 0; a < kSites; ++a) {
      body[i][a] = kBodySites[a].cast<S>();
      x[i][a] = q.col(i) + Q[i] * body[i][a];
    }
  S energy = 0;
  std::array<std::array<V3, kSites>, kMolecules> site_force{};
  for (auto& m : site_force)
    for (auto& f : m) f.setZero();
  const S k = S(par.k), r0 = S(par.r0);
  for (int a = 0; a < kSites; ++a)
    for (int b = 0; b < kSites; ++b) {
      const V3 r = x[0][a] - x[1][b];
      const S d = r.norm();
      energy += k / 2 * (d - r0) * (d - r0);
      const V3 f = -k * (d - r0) / d * r;  // on site a of molecule 0; the opposite on site b of molecule 1
      site_force[0][a] += f;
      site_force[1][b] -= f;
    }
  for (int i = 0; i < kMolecules; ++i)
    for (int a = 0; a < kSites; ++a) {
      F.col(i) += site_force[i][a];
      const V3 body_force = Q[i].transpose() * site_force[i][a];
      tau.col(i) += par.printed_torque ? V3(body_force.cross(body[i][a])) : V3(body[i][a].cross(body_force));
    }
  return energy;
}

class MoleculesModel final : public RigidParticlesModel {
 public:
  explicit MoleculesModel(Parameters p) : p_(p) {}
  int size() const override { return kMolecules; }
  double mass(int) const override { return kSites; }
  const Vec3& inertia(int) const override { return inertia_; }
  double potential_energy(const ParticlesState& x) const override {
    Eigen::Matrix3Xd F, tau;
    return forces_and_torques_in<double>(p_, x.q, x.Q, F, tau);
  }
  void forces_and_torques(const ParticlesState& x, Eigen::Matrix3Xd& F, Eigen::Matrix3Xd& tau) const override {
    (void)forces_and_torques_in<double>(p_, x.q, x.Q, F, tau);
  }
  double min_pair_distance(const ParticlesState& x) const override { return (x.q.col(0) - x.q.col(1)).norm(); }

 private:
  Parameters p_;
  Vec3 inertia_ = Vec3(0.24, 1.52, 1.28);
};

// R_k(angle): rotation about body axis k (physical convention, spec 5.2).
Mat3 axis_rotation(int axis, double angle) { return Eigen::AngleAxisd(angle, Vec3::Unit(axis)).toRotationMatrix(); }

ParticlesState spec_state() {
  ParticlesState x;
  x.q.resize(3, kMolecules);
  x.p.resize(3, kMolecules);
  x.m.resize(3, kMolecules);
  x.q.col(0) = Vec3(0, 0, 0);
  x.p.col(0) = Vec3(0.1, 0.2, 0);
  x.m.col(0) = Vec3(0.3, -0.2, 0.5);
  x.q.col(1) = Vec3(2.5, 0.3, 0.1);
  x.p.col(1) = Vec3(-0.1, -0.2, 0.05);
  x.m.col(1) = Vec3(-0.2, 0.4, 0.1);
  x.Q = {Mat3::Identity(), axis_rotation(1, 0.7) * axis_rotation(0, 0.3)};
  return x;
}

// "random:K": the spec's configuration with every momentum component moved by up to 0.1 and molecule 1 turned by
// up to 0.3 rad about each axis, so that the battery sees other orbits of the same bound pair.
ParticlesState initial_state(const std::string& ic) {
  ParticlesState x = spec_state();
  const auto k = random_ic_index(ic);
  if (!k) return x;
  random::Stream rng(random::derive_seed(0x6D6F6C6563756CULL, *k));
  for (int i = 0; i < kMolecules; ++i)
    for (int c = 0; c < 3; ++c) {
      x.p(c, i) += rng.uniform(-0.1, 0.1);
      x.m(c, i) += rng.uniform(-0.1, 0.1);
    }
  const Vec3 turn(rng.uniform(-0.3, 0.3), rng.uniform(-0.3, 0.3), rng.uniform(-0.3, 0.3));
  x.Q[1] = x.Q[1] * so3::exp(turn);
  return x;
}

std::shared_ptr<const ParticlesReference> shared_reference(const Parameters& par, const ParticlesState& x0,
                                                           const std::string& key) {
  static std::mutex mutex;
  static std::map<std::string, std::shared_ptr<const ParticlesReference>> memo;
  std::lock_guard<std::mutex> lock(mutex);
  if (auto it = memo.find(key); it != memo.end()) return it->second;
  ParticlesReferenceSetup setup;
  setup.mass.assign(kMolecules, kSites);
  setup.inertia.assign(kMolecules, Vec3(0.24, 1.52, 1.28));
  setup.x0 = x0;
  setup.checkpoint_interval = 10.0;
  setup.forces.eval = [par](const ParticlesForcesLD::Matrix3XL& q, const std::vector<so3::Mat3T<long double>>& Q,
                            ParticlesForcesLD::Matrix3XL& F, ParticlesForcesLD::Matrix3XL& tau) {
    (void)forces_and_torques_in<long double>(par, q, Q, F, tau);
  };
  if (memo.size() >= 16) memo.clear();
  return memo.emplace(key, std::make_shared<const ParticlesNumericalReference>(std::move(setup))).first->second;
}

std::unique_ptr<Problem> make(const std::string& preset, const Json& o, const std::string& ic) {
  Parameters par;
  if (preset == "mq1998_printed_torque") {
    par.printed_torque = true;
  } else if (preset != "mq1998") {
    throw InputError("unknown preset " + quote_excerpt(preset) + " for problem rigid_molecules (valid: mq1998 mq1998_printed_torque)");
  }
  const Json over = o.is_null() ? Json::object() : o;
  overrides::check_keys(over, {"k", "r0"}, kId);
  if (over.contains("k")) par.k = overrides::read_positive(over["k"], "k");
  if (over.contains("r0")) par.r0 = overrides::read_positive(over["r0"], "r0");
  ParticlesState x0 = initial_state(ic);
  auto model = std::make_shared<const MoleculesModel>(par);
  const Json params = {{"k", par.k}, {"r0", par.r0}, {"mass", kSites}, {"inertia", {0.24, 1.52, 1.28}},
                       {"torque", par.printed_torque ? "printed (Q^T f) x X" : "physical X x (Q^T f)"}};
  // The time scale puts the battery's coarse step (0.2 time scales) at the spec's own step, tau = 0.02, where the
  // DLM energy error is 3e-4 of E0 over T = 200. Twice the fastest spin period's 1/(2 pi) would be 0.5, but the
  // molecules' close approaches (centres 0.77 apart) are faster: at h = 0.2, explicit Euler and RKMK1/2 blow up
  // within 2000 steps and DLM's energy error drifts on some random initial conditions.
  constexpr double kTimeScale = 0.1;
  // The reference is slow only over thousands of time units; the figures that run so long do not ask for it.
  auto probe = std::make_unique<ParticlesProblem>(kId, preset, ic, model, x0, params, kTimeScale, nullptr);
  auto reference = shared_reference(par, x0, probe->parameters().dump());
  return std::make_unique<ParticlesProblem>(kId, preset, ic, std::move(model), std::move(x0), params, kTimeScale,
                                            std::move(reference));
}

}  // namespace

ProblemInfo info() {
  ProblemInfo p;
  p.id = kId;
  p.display_name = "Two rigid 3-site molecules";
  p.citation = "McLachlan and Quispel 1998 lectures 3.4-3.5 (DLM rigid-body MD); the test of spec 6.3";
  p.kind = ModelKind::rigid_particles;
  p.torque_free = false;
  p.presets = {
      {"mq1998",
       "sites (0, 0, 0.4), (0.8, 0, -0.2), (-0.8, 0, -0.2), unit masses (M = 3, I = (0.24, 1.52, 1.28)); site-site "
       "V = k/2 (r - r0)^2 between the molecules, k = 1, r0 = 2; B0 at rest at the origin with p = (0.1, 0.2, 0), "
       "pi = (0.3, -0.2, 0.5), Q = I; B1 at (2.5, 0.3, 0.1), p = (-0.1, -0.2, 0.05), pi = (-0.2, 0.4, 0.1), "
       "Q = R2(0.7) R1(0.3) [spec 6.3, the spec's own design]"},
      {"mq1998_printed_torque",
       "as mq1998 with the lectures' printed kick torque (Q^T f) x X, the other convention's sign mixed with the "
       "physical drift (spec 5.2, erratum E2): the convention-mismatch negative test. Not in the battery (it is "
       "not a mechanical system; its energy is not conserved)",
       true, false},
  };
  p.parameters = {
      {"k", "spring constant of the site-site potential, positive"},
      {"r0", "rest length of the site-site potential, positive"},
  };
  p.make = make;
  return p;
}

}  // namespace gib::rigid_molecules
