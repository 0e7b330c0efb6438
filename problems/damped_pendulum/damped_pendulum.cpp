#include "problems/damped_pendulum/damped_pendulum.hpp"

#include <cmath>

#include "core/errors.hpp"
#include "core/random.hpp"
#include "core/user_input.hpp"
#include "core/vector_field_problem.hpp"
#include "problems/common/overrides.hpp"
#include "problems/common/preset_table.hpp"
#include "problems/common/vector_field_reference.hpp"

namespace gib::damped_pendulum {
namespace {

constexpr const char* kId = "damped_pendulum";

double lyapunov_value(const Eigen::VectorXd& x) { return 0.5 * x(1) * x(1) - std::cos(x(0)); }

// v.Lv = -alpha v2^2 <= 0 for alpha >= 0; the symmetric part of L has eigenvalues 0 and -alpha (spec 8.6).
class LinearGradientForm final : public GradientForm {
 public:
  explicit LinearGradientForm(double alpha) : alpha_(alpha) {}
  double value(const Eigen::VectorXd& x) const override { return lyapunov_value(x); }
  void gradient(const Eigen::VectorXd& x, Eigen::VectorXd& g) const override {
    g.resize(2);
    g << std::sin(x(0)), x(1);
  }
  void matrix(const Eigen::VectorXd& /*x*/, Eigen::MatrixXd& L) const override {
    L.resize(2, 2);
    L << 0.0, 1.0, -1.0, -alpha_;
  }

 private:
  double alpha_;
};

class DampedPendulumModel final : public VectorFieldModel {
 public:
  explicit DampedPendulumModel(double alpha) : alpha_(alpha), form_(alpha) {}
  int dim() const override { return 2; }
  void rhs(const Eigen::VectorXd& x, Eigen::VectorXd& f) const override {
    f.resize(2);
    f << x(1), -std::sin(x(0)) - alpha_ * x(1);
  }
  void jacobian(const Eigen::VectorXd& x, Eigen::MatrixXd& J) const override {
    J.resize(2, 2);
    J << 0.0, 1.0, -std::cos(x(0)), -alpha_;
  }
  const GradientForm* lyapunov_gradient() const override { return &form_; }
  // V is the energy the harness tracks: kept at alpha = 0, decreasing otherwise.
  bool has_energy() const override { return true; }
  double energy(const Eigen::VectorXd& x) const override { return lyapunov_value(x); }

 private:
  double alpha_;
  LinearGradientForm form_;
};

struct Preset {
  const char* name;
  double alpha;
  const char* description;
};

// The lectures give neither alpha nor the orbits of Fig 6.3; the spec's prototype ran these (spec 8.6 [VERIFIED]).
constexpr Preset kPresets[] = {
    {"mq1998_alpha0", 0.0, "alpha = 0 (the undamped pendulum, V kept), from (0, 1.9): V0 = 0.805 [spec 8.6]"},
    {"mq1998_alpha0.01", 0.01, "alpha = 0.01 from (0, 1.9): weak damping, V -> -1 [spec 8.6]"},
    {"mq1998_alpha0.1", 0.1, "alpha = 0.1 from (0, 1.9): V -> -1; Euler's tau/alpha scan [spec 8.6]"},
};

VectorFieldState initial_state(const Json& o, const std::string& ic) {
  if (const auto k = random_ic_index(ic)) {
    if (o.contains("q0") || o.contains("p0"))
      throw InputError(std::string(kId) + ": q0 and p0 cannot be combined with initial condition " + ic);
    // q in [-1, 1], p in [-0.5, 0.5]: V0 = p^2/2 - cos q in [-1, -0.42], inside the separatrix and away from V = 0,
    // where relative errors of V would mean nothing.
    random::Stream rng(random::derive_seed(0x64616D706564ULL, *k));
    const double q = rng.uniform(-1.0, 1.0), p = rng.uniform(-0.5, 0.5);
    return {Eigen::Vector2d(q, p)};
  }
  const double q = o.contains("q0") ? overrides::read_finite(o["q0"], "q0") : 0.0;
  const double p = o.contains("p0") ? overrides::read_finite(o["p0"], "p0") : 1.9;
  return {Eigen::Vector2d(q, p)};
}

std::unique_ptr<Problem> make(const std::string& preset_name, const Json& overrides_in, const std::string& ic) {
  const Preset& preset = find_preset(kPresets, preset_name, kId);
  const Json o = overrides_in.is_null() ? Json::object() : overrides_in;
  overrides::check_keys(o, {"alpha", "q0", "p0"}, kId);
  const double alpha = o.contains("alpha") ? overrides::read_finite(o["alpha"], "alpha") : preset.alpha;
  if (!(alpha >= 0.0))
    throw InputError("damped_pendulum: alpha must be >= 0 (a damping; negative alpha makes V grow), got " +
                     o["alpha"].dump());
  VectorFieldState x0 = initial_state(o, ic);
  auto model = std::make_shared<const DampedPendulumModel>(alpha);
  const Json parameters = {{"V", "x2^2/2 - cos x1"}, {"alpha", alpha}};
  VectorFieldProblem::Extras extras;
  // V as a named quantity too, so that a sweep's observe.quantities_after gives its late-time band (spec 11 M10).
  extras.observables.push_back({"V", [](const VectorFieldState& s) { return lyapunov_value(s.x); }});
  // The angle on the covering space: an orbit that rotates (crosses the separatrix for good) makes it grow.
  extras.observables.push_back({"x1", [](const VectorFieldState& s) { return s.x(0); }});
  const std::string key = std::string(kId) + ":" + Json::array({alpha, x0.x(0), x0.x(1)}).dump();
  auto reference = shared_vector_field_reference(key, [&] { return vector_field_reference(model, x0); });
  return std::make_unique<VectorFieldProblem>(kId, preset_name, ic, std::move(model), std::move(x0), parameters, 1.0,
                                              std::move(reference), std::move(extras));
}

}  // namespace

ProblemInfo info() {
  ProblemInfo p;
  p.id = kId;
  p.display_name = "Damped pendulum";
  p.citation = "McLachlan and Quispel 1998 lectures section 6 (Fig 6.3); spec 8.5, 8.6";
  p.kind = ModelKind::vector_field;
  p.structure = kLyapunovGradient;
  for (const Preset& s : kPresets) p.presets.push_back({s.name, s.description});
  p.parameters = {
      {"alpha", "damping alpha >= 0"},
      {"q0", "initial angle x1 (radians, on the covering space R), finite; default 0"},
      {"p0", "initial velocity x2, finite; default 1.9"},
  };
  p.make = make;
  return p;
}

}  // namespace gib::damped_pendulum
