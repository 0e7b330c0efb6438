#include "problems/integral3d/integral3d.hpp"

#include <cmath>

#include "core/errors.hpp"
#include "core/random.hpp"
#include "core/user_input.hpp"
#include "core/vector_field_problem.hpp"
#include "problems/common/overrides.hpp"
#include "problems/common/vector_field_reference.hpp"

namespace gib::integral3d {
namespace {

constexpr const char* kId = "integral3d";

// I and S exactly as printed (spec 8.3); S grad I reproduces f term by term, which tests/test_discrete_gradient.cpp
// checks to round-off.
class SkewForm final : public GradientForm {
 public:
  double value(const Eigen::VectorXd& v) const override {
    const double x = v(0), y = v(1), z = v(2);
    return 0.5 * x * x + 0.25 * y * y * y * y + y + 0.5 * z * z;
  }
  void gradient(const Eigen::VectorXd& v, Eigen::VectorXd& g) const override {
    g.resize(3);
    g << v(0), v(1) * v(1) * v(1) + 1.0, v(2);
  }
  void matrix(const Eigen::VectorXd& v, Eigen::MatrixXd& S) const override {
    const double x = v(0), y = v(1), z = v(2);
    const double a = x * (1.0 + 0.1 * y * y);
    S.resize(3, 3);
    S << 0.0, a, y,  //
        -a, 0.0, z,  //
        -y, -z, 0.0;
  }
};

class Integral3dModel final : public VectorFieldModel {
 public:
  int dim() const override { return 3; }
  void rhs(const Eigen::VectorXd& v, Eigen::VectorXd& f) const override {
    const double x = v(0), y = v(1), z = v(2);
    const double y2 = y * y, y3 = y2 * y;
    f.resize(3);
    f << y * z + x * (1.0 + 0.1 * y2 + y3 + 0.1 * y3 * y2),  //
        -x * x + z * z - 0.1 * x * x * y2,                     //
        -z - x * y - y3 * z;
  }
  void jacobian(const Eigen::VectorXd& v, Eigen::MatrixXd& J) const override {
    const double x = v(0), y = v(1), z = v(2);
    const double y2 = y * y, y3 = y2 * y;
    J.resize(3, 3);
    J << 1.0 + 0.1 * y2 + y3 + 0.1 * y3 * y2, z + x * (0.2 * y + 3.0 * y2 + 0.5 * y2 * y2), y,  //
        -2.0 * x - 0.2 * x * y2, -0.2 * x * x * y, 2.0 * z,                                     //
        -y, -x - 3.0 * y2 * z, -1.0 - y3;
  }
  const GradientForm* skew_gradient() const override { return &form_; }

 private:
  SkewForm form_;
};

// The lectures give no initial condition for Fig 6.2: (1, 0.5, 0.5) is the spec's [INFERENCE] (its prototype's).
constexpr double kPresetX0[3] = {1.0, 0.5, 0.5};

VectorFieldState initial_state(const std::string& preset, const Json& o, const std::string& ic) {
  if (preset != "mq1998")
    throw InputError("unknown preset " + quote_excerpt(preset) + " for problem integral3d (valid: mq1998)");
  if (const auto k = random_ic_index(ic)) {
    if (o.contains("x0")) throw InputError(std::string(kId) + ": x0 cannot be combined with initial condition " + ic);
    // A direction uniform on the unit half-sphere y >= 0: there I = (1 - y^2)/2 + y^4/4 + y lies in [0.5, 1.25],
    // away from 0, where a relative error of I would mean nothing (y + y^4/4 < 0 for y in (-1.59, 0)). I's level
    // sets are compact, so every orbit stays bounded.
    random::Stream rng(random::derive_seed(0x696E74336433ULL, *k));
    Eigen::Vector3d x = rng.unit3();
    x(1) = std::abs(x(1));
    return {x};
  }
  if (o.contains("x0")) return {Eigen::Vector3d(overrides::read_vec3(o["x0"], "x0"))};
  return {Eigen::Vector3d(kPresetX0[0], kPresetX0[1], kPresetX0[2])};
}

std::unique_ptr<Problem> make(const std::string& preset, const Json& overrides_in, const std::string& ic) {
  const Json o = overrides_in.is_null() ? Json::object() : overrides_in;
  overrides::check_keys(o, {"x0"}, kId);
  VectorFieldState x0 = initial_state(preset, o, ic);
  static const auto model = std::make_shared<const Integral3dModel>();
  const Json parameters = {{"I", "x^2/2 + y^4/4 + y + z^2/2"}};
  const std::string key = std::string(kId) + ":" + Json::array({x0.x(0), x0.x(1), x0.x(2)}).dump();
  auto reference = shared_vector_field_reference(key, [&] { return vector_field_reference(model, x0); });
  // Time scale 0.5: from (1, 0.5, 0.5) the state turns through a radian in about |x0| / |f(x0)| = 0.64, and the
  // field's Jacobian there has norm 2.7.
  return std::make_unique<VectorFieldProblem>(kId, preset, ic, model, std::move(x0), parameters, 0.5,
                                              std::move(reference));
}

}  // namespace

ProblemInfo info() {
  ProblemInfo p;
  p.id = kId;
  p.display_name = "3D field with one first integral";
  p.citation = "McLachlan and Quispel 1998 lectures section 6 (Fig 6.2); spec 8.3";
  p.kind = ModelKind::vector_field;
  p.structure = kSkewGradient;
  p.presets = {{"mq1998",
                "x0 = (1, 0.5, 0.5), I0 = 1.140625: the lectures give no initial condition, the spec's prototype "
                "used this one [spec 8.3, INFERENCE]"}};
  p.parameters = {{"x0", "initial state [x, y, z], finite"}};
  p.make = make;
  return p;
}

}  // namespace gib::integral3d
