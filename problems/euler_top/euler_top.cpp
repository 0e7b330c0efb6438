#include "problems/euler_top/euler_top.hpp"

#include <cmath>

#include "core/errors.hpp"
#include "core/metrics.hpp"
#include "core/random.hpp"
#include "core/user_input.hpp"
#include "core/vector_field_problem.hpp"
#include "problems/common/overrides.hpp"
#include "problems/common/preset_table.hpp"
#include "problems/common/vector_field_reference.hpp"

namespace gib::euler_top {
namespace {

constexpr const char* kId = "euler_top";

// The text's convention (spec 5.2): Example 5's J(pi) = [[0, pi3, -pi2], [-pi3, 0, pi1], [pi2, -pi1, 0]], so
// J(pi) v = v x pi and pi' = J grad H = Omega x pi, Omega = I^-1 pi, exactly Lecture 6's printed equations. It is
// the one the spec measured 5.6's Poisson defect in (1.15e-3 at tau = 0.3; the physical pi' = pi x Omega gives 9.1e-4
// there, the text's value at -pi0). Without the attitude the two conventions cannot be mixed (spec 9 E2): they are
// the same field up to pi -> -pi. J is a Lie-Poisson tensor (so(3)*), H = sum pi_i^2 / (2 I_i).
class LiePoissonForm final : public GradientForm {
 public:
  explicit LiePoissonForm(const Eigen::Vector3d& inertia) : inverse_(inertia.cwiseInverse()) {}
  double value(const Eigen::VectorXd& p) const override {
    return 0.5 * (p(0) * p(0) * inverse_(0) + p(1) * p(1) * inverse_(1) + p(2) * p(2) * inverse_(2));
  }
  void gradient(const Eigen::VectorXd& p, Eigen::VectorXd& g) const override { g = p.cwiseProduct(inverse_); }
  void matrix(const Eigen::VectorXd& p, Eigen::MatrixXd& J) const override {
    J.resize(3, 3);
    J << 0.0, p(2), -p(1),  //
        -p(2), 0.0, p(0),   //
        p(1), -p(0), 0.0;
  }

 private:
  Eigen::Vector3d inverse_;
};

class EulerTopModel final : public VectorFieldModel {
 public:
  explicit EulerTopModel(const Eigen::Vector3d& inertia)
      : form_(inertia),
        a_(1 / inertia(1) - 1 / inertia(2), 1 / inertia(2) - 1 / inertia(0), 1 / inertia(0) - 1 / inertia(1)) {}
  int dim() const override { return 3; }
  // Lecture 6: pi1' = (1/I2 - 1/I3) pi2 pi3 and cyclically.
  void rhs(const Eigen::VectorXd& p, Eigen::VectorXd& f) const override {
    f.resize(3);
    f << a_(0) * p(1) * p(2), a_(1) * p(2) * p(0), a_(2) * p(0) * p(1);
  }
  void jacobian(const Eigen::VectorXd& p, Eigen::MatrixXd& J) const override {
    J.resize(3, 3);
    J << 0.0, a_(0) * p(2), a_(0) * p(1),  //
        a_(1) * p(2), 0.0, a_(1) * p(0),   //
        a_(2) * p(1), a_(2) * p(0), 0.0;
  }
  const GradientForm* skew_gradient() const override { return &form_; }
  bool poisson_tensor() const override { return true; }

 private:
  LiePoissonForm form_;
  Eigen::Vector3d a_;
};

struct Preset {
  const char* name;
  double inertia[3];
  double pi0[3];
  const char* description;
};

constexpr Preset kPresets[] = {
    {"mq1998",
     {2.0, 1.0, 2.0 / 3.0},
     {0.3, -0.7, 0.9},
     "I = (2, 1, 2/3) (spec 5.4's body), pi0 = (0.3, -0.7, 0.9): spec 5.6's Poisson-defect test of the implicit "
     "midpoint rule [VERIFIED]"},
};

// "random:K": pi0 of the preset's length |pi0| in a direction uniform on the sphere: every orbit lies on that sphere
// and on an ellipsoid H = const > 0, so it is bounded and periodic (or a separatrix, with probability 0).
Eigen::Vector3d initial_momentum(const Preset& preset, const Json& o, const std::string& ic) {
  const Eigen::Vector3d preset_pi0(preset.pi0[0], preset.pi0[1], preset.pi0[2]);
  if (const auto k = random_ic_index(ic)) {
    if (o.contains("Pi0")) throw InputError(std::string(kId) + ": Pi0 cannot be combined with initial condition " + ic);
    random::Stream rng(random::derive_seed(0x65756C6572746FULL, *k));
    return preset_pi0.norm() * Eigen::Vector3d(rng.unit3());
  }
  if (o.contains("Pi0")) return Eigen::Vector3d(overrides::read_vec3(o["Pi0"], "Pi0"));
  return preset_pi0;
}

std::unique_ptr<Problem> make(const std::string& preset_name, const Json& o_in, const std::string& ic) {
  const Preset& preset = find_preset(kPresets, preset_name, kId);
  const Json o = o_in.is_null() ? Json::object() : o_in;
  overrides::check_keys(o, {"inertia", "Pi0"}, kId);
  // Euler's equations need only I_i > 0; the triangle inequality of a physical body is not required (the spec's
  // I = (2, 1, 2/3) is the Hairer-Lubich-Wanner test body, which violates it).
  const Eigen::Vector3d inertia = o.contains("inertia") ? Eigen::Vector3d(overrides::read_positive_vec3(o["inertia"], "inertia"))
                                                        : Eigen::Vector3d(preset.inertia[0], preset.inertia[1], preset.inertia[2]);
  VectorFieldState x0{initial_momentum(preset, o, ic)};
  const auto model = std::make_shared<const EulerTopModel>(inertia);
  const Json parameters = {{"inertia", Json::array({inertia(0), inertia(1), inertia(2)})},
                           {"H", "sum pi_i^2 / (2 I_i)"},
                           {"S", "J(pi) = [[0, pi3, -pi2], [-pi3, 0, pi1], [pi2, -pi1, 0]] (text convention)"}};
  const std::string key = std::string(kId) + ":" + parameters["inertia"].dump() + ":" +
                          Json::array({x0.x(0), x0.x(1), x0.x(2)}).dump();
  auto reference = shared_vector_field_reference(key, [&] { return vector_field_reference(model, x0); });
  VectorFieldProblem::Extras extras;
  // The Casimir as the rigid body's casimir_err defines it, |pi|^2 / 2 (the lectures' I = |pi|^2 is twice it).
  extras.invariants.push_back({Invariant::casimir, metrics::casimir_err.name, InvariantErrorKind::absolute,
                               [](const VectorFieldState& s) { return InvariantValue::Constant(1, 0.5 * s.x.squaredNorm()); }});
  // Time scale 1.5: from the preset's pi0 the momentum goes round its orbit in 9.50, 1.51 per radian.
  return std::make_unique<VectorFieldProblem>(kId, preset_name, ic, model, std::move(x0), parameters, 1.5,
                                              std::move(reference), std::move(extras));
}

}  // namespace

ProblemInfo info() {
  ProblemInfo p;
  p.id = kId;
  p.display_name = "Euler's equations of the free rigid body (Lie-Poisson vector field)";
  p.citation = "McLachlan and Quispel 1998 lectures, Example 5 and Lecture 6 (Euler's equations); spec 4.2, 5.6";
  p.kind = ModelKind::vector_field;
  p.structure = kSkewGradient | kPoissonTensor;
  for (const Preset& s : kPresets) p.presets.push_back({s.name, s.description});
  p.parameters = {
      {"inertia", "principal moments [I1, I2, I3], each > 0"},
      {"Pi0", "initial body momentum [pi1, pi2, pi3], finite"},
  };
  p.make = make;
  return p;
}

}  // namespace gib::euler_top
