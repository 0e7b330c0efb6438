#include "problems/abc_flow/abc_flow.hpp"

#include <cmath>
#include <numbers>
#include <string>

#include "core/vector_field_problem.hpp"
#include "problems/common/overrides.hpp"
#include "problems/common/point_presets.hpp"
#include "problems/common/preset_table.hpp"
#include "problems/common/vector_field_reference.hpp"

namespace gib::abc_flow {
namespace {

constexpr const char* kId = "abc_flow";

struct Coefficients {
  double A, B, C;
  bool printed;  // x' = A sin z + C sin y, the lectures' typo (E4)
};

// Component i of f and its partial derivatives; f_i never depends on x_i.
class AbcModel final : public VectorFieldModel, private DivergenceFreeSplitting {
 public:
  explicit AbcModel(Coefficients k) : k_(k) {}

  int dim() const override { return 3; }
  void rhs(const Eigen::VectorXd& x, Eigen::VectorXd& f) const override {
    f.resize(3);
    for (int i = 0; i < 3; ++i) f(i) = component(i, x);
  }
  void jacobian(const Eigen::VectorXd& x, Eigen::MatrixXd& J) const override {
    J.resize(3, 3);
    for (int i = 0; i < 3; ++i) J.row(i) = gradient(i, x).transpose();
  }
  const DivergenceFreeSplitting* divergence_free() const override { return this; }

 private:
  // Piece j is the shear that moves coordinate j by f_j (spec 7.4: X_t, Y_t, Z_t); the lectures' general algorithm
  // (spec 7.2) gives the same three pieces, its x_m terms being zero and c(x, y) the z-shear.
  int pieces() const override { return 3; }
  int shear_coordinate(int j) const override { return j; }
  void piece_rhs(int j, const Eigen::VectorXd& x, Eigen::VectorXd& f) const override {
    f = Eigen::VectorXd::Zero(3);
    f(j) = component(j, x);
  }
  void piece_jacobian(int j, const Eigen::VectorXd& x, Eigen::MatrixXd& J) const override {
    J = Eigen::MatrixXd::Zero(3, 3);
    J.row(j) = gradient(j, x).transpose();
  }

  double component(int i, const Eigen::VectorXd& v) const {
    const double x = v(0), y = v(1), z = v(2);
    switch (i) {
      case 0: return k_.A * std::sin(z) + (k_.printed ? k_.C * std::sin(y) : k_.C * std::cos(y));
      case 1: return k_.B * std::sin(x) + k_.A * std::cos(z);
      default: return k_.C * std::sin(y) + k_.B * std::cos(x);
    }
  }
  Eigen::Vector3d gradient(int i, const Eigen::VectorXd& v) const {
    const double x = v(0), y = v(1), z = v(2);
    switch (i) {
      case 0: return {0.0, k_.printed ? k_.C * std::cos(y) : -k_.C * std::sin(y), k_.A * std::cos(z)};
      case 1: return {k_.B * std::cos(x), 0.0, -k_.A * std::sin(z)};
      default: return {-k_.B * std::sin(x), k_.C * std::cos(y), 0.0};
    }
  }

  Coefficients k_;
};

struct Preset {
  const char* name;
  bool printed;
  const char* description;
};

constexpr Preset kPresets[] = {
    {"mq1998", false,
     "A = B = 1, C = 2, (x, y, z) = (2, 5, 0), the standard field x' = A sin z + C cos y: the '240 circuits' of "
     "Figs 5.1-5.3 [spec 7.4, E4]"},
    {"mq1998_printed", true,
     "the same with the lectures' printed x' = A sin z + C sin y (erratum E4): about 17 circuits, not 240"},
};

std::unique_ptr<Problem> make(const std::string& preset_name, const Json& overrides_in, const std::string& ic) {
  const Preset& preset = find_preset(kPresets, preset_name, kId);
  const Json o = overrides_in.is_null() ? Json::object() : overrides_in;
  overrides::check_keys(o, {"A", "B", "C", "x0", "y0", "z0"}, kId);
  const auto coef = [&](const char* key, double paper) { return o.contains(key) ? overrides::read_finite(o[key], key) : paper; };
  const Coefficients k{coef("A", 1.0), coef("B", 1.0), coef("C", 2.0), preset.printed};
  // "random:K": a point uniform on the torus [0, 2 pi)^3.
  VectorFieldState x0{point_presets::initial_point<3>(o, ic, {"x0", "y0", "z0"}, {2.0, 5.0, 0.0}, 0.0,
                                                      2.0 * std::numbers::pi, 0x616263666C6F77ULL, kId)};
  auto model = std::make_shared<const AbcModel>(k);
  const Json parameters = {
      {"A", k.A},
      {"B", k.B},
      {"C", k.C},
      {"f", preset.printed ? "(A sin z + C sin y, B sin x + A cos z, C sin y + B cos x)"
                           : "(A sin z + C cos y, B sin x + A cos z, C sin y + B cos x)"}};
  Json key_json = parameters;
  key_json["x0"] = Json::array({x0.x(0), x0.x(1), x0.x(2)});
  auto reference =
      shared_vector_field_reference(std::string(kId) + ":" + key_json.dump(), [&] { return vector_field_reference(model, x0); });
  VectorFieldProblem::Extras extras;
  const double z0 = x0.x(2);
  // Signed: the standard orbit winds in -z (spec 7.4), so its circuits are negative.
  extras.observables.push_back(
      {"z_circuits", [z0](const VectorFieldState& s) { return (s.x(2) - z0) / (2.0 * std::numbers::pi); }});
  // The x and y ranges of Fig 5.2's shrinking amplitude (their _min and _max over a run or its late part).
  extras.observables.push_back({"x_coord", [](const VectorFieldState& s) { return s.x(0); }});
  extras.observables.push_back({"y_coord", [](const VectorFieldState& s) { return s.x(1); }});
  return std::make_unique<VectorFieldProblem>(kId, preset_name, ic, std::move(model), std::move(x0), parameters, 1.0,
                                              std::move(reference), std::move(extras));
}

}  // namespace

ProblemInfo info() {
  ProblemInfo p;
  p.id = kId;
  p.display_name = "ABC flow";
  p.citation = "McLachlan and Quispel 1998 lectures section 5, Figs 5.1-5.3 (erratum E4); spec 7.4";
  p.kind = ModelKind::vector_field;
  p.structure = kDivergenceFree;
  for (const Preset& s : kPresets) p.presets.push_back({s.name, s.description});
  p.parameters = {
      {"A", "coefficient A, finite (default 1)"},
      {"B", "coefficient B, finite (default 1)"},
      {"C", "coefficient C, finite (default 2)"},
      {"x0", "initial x, finite (on the covering space R, never wrapped)"},
      {"y0", "initial y, finite"},
      {"z0", "initial z, finite"},
  };
  p.make = make;
  return p;
}

}  // namespace gib::abc_flow
