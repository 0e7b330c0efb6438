#include "problems/pendulum/pendulum.hpp"

#include <cmath>
#include <optional>

#include "core/errors.hpp"
#include "core/random.hpp"
#include "core/user_input.hpp"
#include "core/vector_field_problem.hpp"
#include "problems/common/overrides.hpp"
#include "problems/common/preset_table.hpp"
#include "problems/common/vector_field_reference.hpp"

namespace gib::pendulum {
namespace {

constexpr const char* kId = "pendulum";

class PendulumHamiltonian final : public SeparableHamiltonian {
 public:
  int degrees_of_freedom() const override { return 1; }
  double kinetic(const Eigen::Ref<const Eigen::VectorXd>& p) const override { return 0.5 * p(0) * p(0); }
  double potential(const Eigen::Ref<const Eigen::VectorXd>& q) const override { return -std::cos(q(0)); }
  void kinetic_gradient(const Eigen::Ref<const Eigen::VectorXd>& p, Eigen::Ref<Eigen::VectorXd> g) const override {
    g(0) = p(0);
  }
  void potential_gradient(const Eigen::Ref<const Eigen::VectorXd>& q, Eigen::Ref<Eigen::VectorXd> g) const override {
    g(0) = std::sin(q(0));
  }
  // For the exact tangent maps of the splittings (Lyapunov exponents, spec 3.3 and M11).
  bool kinetic_hessian(const Eigen::Ref<const Eigen::VectorXd>& /*p*/, Eigen::MatrixXd& H) const override {
    H.setOnes(1, 1);
    return true;
  }
  bool potential_hessian(const Eigen::Ref<const Eigen::VectorXd>& q, Eigen::MatrixXd& H) const override {
    H.setConstant(1, 1, std::cos(q(0)));
    return true;
  }
};

class PendulumModel final : public VectorFieldModel {
 public:
  int dim() const override { return 2; }
  void rhs(const Eigen::VectorXd& x, Eigen::VectorXd& f) const override {
    f.resize(2);
    f << x(1), -std::sin(x(0));
  }
  void jacobian(const Eigen::VectorXd& x, Eigen::MatrixXd& J) const override {
    J.resize(2, 2);
    J << 0.0, 1.0, -std::cos(x(0)), 0.0;
  }
  const SeparableHamiltonian* separable_hamiltonian() const override { return &h_; }
  const Eigen::MatrixXd* reversing_involution() const override { return &r_; }

 private:
  PendulumHamiltonian h_;
  // R(q, p) = (q, -p): f(Rx) = (-p, -sin q) = -R f(x) (spec metric M6).
  Eigen::MatrixXd r_ = Eigen::Vector2d(1.0, -1.0).asDiagonal();
};

struct Preset {
  const char* name;
  double q0, p0;
  const char* description;
};

// The lectures give no initial condition for Figs 2.8-2.12; these are the spec's (3.3, 3.4).
constexpr Preset kPresets[] = {
    {"mq1998", 1.0, 0.5, "(q0, p0) = (1, 0.5): the spec's order test at T = 1 [spec 3.3, VERIFIED baselines]"},
    {"mq1998_libration", 0.0, 1.0,
     "(0, 1): H0 = -0.5, a libration well inside the separatrix (p = 2); the global-error growth and two-step "
     "midpoint experiments [spec 3.3, 3.4]"},
};

// "random:K": q0 uniform in [-2, 2], p0 uniform in [-1, 1]: librations of every amplitude up to H = 0.92 < 1,
// inside the separatrix, so every random orbit is periodic and the reference stays accurate.
VectorFieldState initial_state(const Preset& preset, const Json& o, const std::string& ic) {
  if (const auto k = random_ic_index(ic)) {
    if (o.contains("q0") || o.contains("p0"))
      throw InputError(std::string(kId) + ": q0 and p0 cannot be combined with initial condition " + ic);
    random::Stream rng(random::derive_seed(0x70656E64756CULL, *k));
    const double q = rng.uniform(-2.0, 2.0), p = rng.uniform(-1.0, 1.0);
    return {Eigen::Vector2d(q, p)};
  }
  const double q = o.contains("q0") ? overrides::read_finite(o["q0"], "q0") : preset.q0;
  const double p = o.contains("p0") ? overrides::read_finite(o["p0"], "p0") : preset.p0;
  return {Eigen::Vector2d(q, p)};
}

std::unique_ptr<Problem> make(const std::string& preset_name, const Json& o, const std::string& ic) {
  const Preset& preset = find_preset(kPresets, preset_name, kId);
  overrides::check_keys(o, {"q0", "p0"}, kId);
  VectorFieldState x0 = initial_state(preset, o.is_null() ? Json::object() : o, ic);
  static const auto model = std::make_shared<const PendulumModel>();
  const Json parameters = {{"H", "p^2/2 - cos q"}};
  // The reference is a function of x0 alone (the model has no parameter).
  const std::string key = std::string(kId) + ":" + Json::array({x0.x(0), x0.x(1)}).dump();
  auto reference = shared_vector_field_reference(key, [&] { return vector_field_reference(model, x0); });
  return std::make_unique<VectorFieldProblem>(kId, preset_name, ic, model, std::move(x0), parameters, 1.0,
                                              std::move(reference));
}

}  // namespace

ProblemInfo info() {
  ProblemInfo p;
  p.id = kId;
  p.display_name = "Pendulum";
  p.citation = "McLachlan and Quispel 1998 lectures section 2 (eq. 2.1, Figs 2.8-2.12); spec 3";
  p.kind = ModelKind::vector_field;
  p.structure = kSeparableHamiltonian | kReversible;
  for (const Preset& s : kPresets) p.presets.push_back({s.name, s.description});
  p.parameters = {
      {"q0", "initial angle q (radians, on the covering space R), finite"},
      {"p0", "initial momentum p, finite"},
  };
  p.make = make;
  return p;
}

}  // namespace gib::pendulum
