#include "problems/kepler/kepler.hpp"

#include <cmath>
#include <Eigen/Geometry>
#include <numbers>

#include "core/errors.hpp"
#include "core/metrics.hpp"
#include "core/random.hpp"
#include "core/user_input.hpp"
#include "core/vector_field_problem.hpp"
#include "problems/common/overrides.hpp"
#include "problems/common/preset_table.hpp"
#include "problems/common/vector_field_reference.hpp"

namespace gib::kepler {
namespace {

constexpr const char* kId = "kepler";

class KeplerHamiltonian final : public SeparableHamiltonian {
 public:
  int degrees_of_freedom() const override { return 2; }
  double kinetic(const Eigen::Ref<const Eigen::VectorXd>& p) const override { return 0.5 * p.squaredNorm(); }
  double potential(const Eigen::Ref<const Eigen::VectorXd>& q) const override { return -1.0 / q.norm(); }
  void kinetic_gradient(const Eigen::Ref<const Eigen::VectorXd>& p, Eigen::Ref<Eigen::VectorXd> g) const override {
    g = p;
  }
  void potential_gradient(const Eigen::Ref<const Eigen::VectorXd>& q, Eigen::Ref<Eigen::VectorXd> g) const override {
    const double r = q.norm();
    g = q / (r * r * r);
  }
  bool kinetic_hessian(const Eigen::Ref<const Eigen::VectorXd>& /*p*/, Eigen::MatrixXd& H) const override {
    H = Eigen::MatrixXd::Identity(2, 2);
    return true;
  }
  // d/dq (q / r^3) = I / r^3 - 3 q q^T / r^5.
  bool potential_hessian(const Eigen::Ref<const Eigen::VectorXd>& q, Eigen::MatrixXd& H) const override {
    const double r = q.norm(), r3 = r * r * r;
    H = Eigen::MatrixXd::Identity(2, 2) / r3 - (3.0 / (r3 * r * r)) * (q * q.transpose());
    return true;
  }
};

// H with the canonical J = [[0, I], [-I, 0]]: x' = J grad H (spec 8.4).
class CanonicalForm final : public GradientForm {
 public:
  explicit CanonicalForm(const KeplerHamiltonian& h) : h_(h) {}
  double value(const Eigen::VectorXd& x) const override { return h_.energy(x); }
  void gradient(const Eigen::VectorXd& x, Eigen::VectorXd& g) const override {
    g.resize(4);
    h_.potential_gradient(x.head(2), g.head(2));
    h_.kinetic_gradient(x.tail(2), g.tail(2));
  }
  void matrix(const Eigen::VectorXd& /*x*/, Eigen::MatrixXd& J) const override {
    J = Eigen::MatrixXd::Zero(4, 4);
    J.topRightCorner(2, 2).setIdentity();
    J.bottomLeftCorner(2, 2) = -Eigen::MatrixXd::Identity(2, 2);
  }

 private:
  const KeplerHamiltonian& h_;
};

class KeplerModel final : public VectorFieldModel {
 public:
  int dim() const override { return 4; }
  void rhs(const Eigen::VectorXd& x, Eigen::VectorXd& f) const override {
    f.resize(4);
    h_.kinetic_gradient(x.tail(2), f.head(2));
    h_.potential_gradient(x.head(2), f.tail(2));
    f.tail(2) = -f.tail(2);
  }
  void jacobian(const Eigen::VectorXd& x, Eigen::MatrixXd& J) const override {
    Eigen::MatrixXd H;
    h_.potential_hessian(x.head(2), H);
    J = Eigen::MatrixXd::Zero(4, 4);
    J.topRightCorner(2, 2).setIdentity();
    J.bottomLeftCorner(2, 2) = -H;
  }
  const SeparableHamiltonian* separable_hamiltonian() const override { return &h_; }
  const GradientForm* skew_gradient() const override { return &form_; }
  const Eigen::MatrixXd* reversing_involution() const override { return &r_; }

 private:
  KeplerHamiltonian h_;
  CanonicalForm form_{h_};
  // R(q, p) = (q, -p): f(Rx) = (-p, -q/r^3) = -R f(x).
  Eigen::MatrixXd r_ = Eigen::Vector4d(1.0, 1.0, -1.0, -1.0).asDiagonal();
};

struct Preset {
  const char* name;
  double e;
  const char* description;
};

constexpr Preset kPresets[] = {
    {"mq1998_halebopp", 0.995,
     "e = 0.995 (comet Hale-Bopp), a = 1, from perihelion: q = (1 - e, 0), p = (0, sqrt((1 + e)/(1 - e))), H0 = -0.5, "
     "period 2 pi; perihelion speed 20 at distance 0.005 [spec 8.4, INFERENCE/EXTERNAL]"},
    {"e0.5", 0.5,
     "e = 0.5, a = 1, from perihelion q = (0.5, 0), p = (0, sqrt(3)): a smooth orbit for order tests [gibench]"},
};

// The orbit of eccentricity e and semi-major axis 1 at eccentric anomaly E (E = 0: perihelion), its major axis
// turned by theta from the q1 axis.
Eigen::Vector4d orbit_point(double e, double E, double theta) {
  // (1 - e)(1 + e), not 1 - e^2, which cancels to 100 eps at e = 0.995 (an error of 4e-12 in H0).
  const double b = std::sqrt((1.0 - e) * (1.0 + e)), speed = 1.0 / (1.0 - e * std::cos(E));
  const Eigen::Vector2d q(std::cos(E) - e, b * std::sin(E));
  const Eigen::Vector2d p(-std::sin(E) * speed, b * std::cos(E) * speed);
  const Eigen::Matrix2d rot = Eigen::Rotation2Dd(theta).toRotationMatrix();
  Eigen::Vector4d x;
  x << rot * q, rot * p;
  return x;
}

std::unique_ptr<Problem> make(const std::string& preset_name, const Json& overrides_in, const std::string& ic) {
  const Preset& preset = find_preset(kPresets, preset_name, kId);
  const Json o = overrides_in.is_null() ? Json::object() : overrides_in;
  overrides::check_keys(o, {"e"}, kId);
  const double e = o.contains("e") ? overrides::read_finite(o["e"], "e") : preset.e;
  if (!(e >= 0.0 && e < 1.0)) throw InputError("kepler: e must be in [0, 1) (a bound orbit), got " + o["e"].dump());
  VectorFieldState x0;
  if (const auto k = random_ic_index(ic)) {
    // The preset's orbit (same e, same energy -1/2) at a random phase and orientation.
    random::Stream rng(random::derive_seed(0x6B65706C6572ULL, *k));
    const double E = rng.uniform(0.0, 2.0 * std::numbers::pi), theta = rng.uniform(0.0, 2.0 * std::numbers::pi);
    x0.x = orbit_point(e, E, theta);
  } else {
    x0.x = orbit_point(e, 0.0, 0.0);
  }
  static const auto model = std::make_shared<const KeplerModel>();
  const Json parameters = {{"H", "|p|^2/2 - 1/|q|"}, {"e", e}};
  VectorFieldProblem::Extras extras;
  const auto angular_momentum = [](const VectorFieldState& s) {
    return InvariantValue::Constant(1, s.x(0) * s.x(3) - s.x(1) * s.x(2));
  };
  // Absolute, against |L0| = sqrt(1 - e^2) (0.0999 for Hale-Bopp), which is never zero for e < 1.
  extras.invariants.push_back({Invariant::angular_momentum, metrics::kepler_angular_momentum_err.name,
                               InvariantErrorKind::absolute, angular_momentum});
  // The distance |q|: its minimum is the perihelion distance, which an orbit spiralling in (Fig 6.1's RK4) loses.
  extras.observables.push_back({"r", [](const VectorFieldState& s) { return s.x.head(2).norm(); }});
  const std::string key = std::string(kId) + ":" + Json::array({x0.x(0), x0.x(1), x0.x(2), x0.x(3)}).dump();
  auto reference = shared_vector_field_reference(key, [&] { return vector_field_reference(model, x0); });
  // Time scale 0.5: between the period over 2 pi (1, a = 1) and the perihelion passage of the e = 0.5 orbit
  // (distance / speed = 0.5 / 1.73 = 0.29), which the battery's coarse step 0.2 x 0.5 = 0.1 must resolve: at 0.2
  // Itoh-Abe's Newton iteration has no nearby root at some perihelion passages. Hale-Bopp's perihelion is 2000 times
  // faster (0.005 / 20); that preset stays out of the battery for it.
  return std::make_unique<VectorFieldProblem>(kId, preset_name, ic, model, std::move(x0), parameters, 0.5,
                                              std::move(reference), std::move(extras));
}

}  // namespace

ProblemInfo info() {
  ProblemInfo p;
  p.id = kId;
  p.display_name = "Kepler problem";
  p.citation = "McLachlan and Quispel 1998 lectures section 6 (Fig 6.1); spec 8.4";
  p.kind = ModelKind::vector_field;
  p.structure = kSeparableHamiltonian | kSkewGradient | kReversible;
  for (const Preset& s : kPresets) p.presets.push_back({s.name, s.description});
  // Resolving the perihelion passage needs steps of ~1e-4 over a period of 6.3: too costly per commit.
  p.presets[0].in_battery = false;
  p.parameters = {{"e", "eccentricity in [0, 1); the orbit has a = 1 and starts at perihelion (random:K: at a "
                        "random phase and orientation)"}};
  p.make = make;
  return p;
}

}  // namespace gib::kepler
