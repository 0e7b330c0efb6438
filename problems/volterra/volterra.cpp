#include "problems/volterra/volterra.hpp"

#include <string>

#include "core/metrics.hpp"
#include "core/vector_field_problem.hpp"
#include "problems/common/overrides.hpp"
#include "problems/common/point_presets.hpp"
#include "problems/common/preset_table.hpp"
#include "problems/common/vector_field_reference.hpp"

namespace gib::volterra {
namespace {

constexpr const char* kId = "volterra";

// Spec 7.2's pieces (x3 plays the role of x_m):
//   f~1 = (x1 x2 - x1 x3, 0, -x2 x3 + x3^2 / 2),   f~2 = (0, x2 x3 - x2 x1, x1 x3 - x3^2 / 2).
// Each has zero divergence on its own ((x2 - x3) + (x3 - x2), (x3 - x1) + (x1 - x3)), and the x3^2 terms cancel in the
// sum, which is f. Neither is a shear: both move x3 by a function of x3.
class VolterraSplitting final : public DivergenceFreeSplitting {
 public:
  int pieces() const override { return 2; }
  int shear_coordinate(int /*j*/) const override { return -1; }
  void piece_rhs(int j, const Eigen::VectorXd& x, Eigen::VectorXd& f) const override {
    f.resize(3);
    if (j == 0)
      f << x(0) * x(1) - x(0) * x(2), 0.0, -x(1) * x(2) + 0.5 * x(2) * x(2);
    else
      f << 0.0, x(1) * x(2) - x(1) * x(0), x(0) * x(2) - 0.5 * x(2) * x(2);
  }
  void piece_jacobian(int j, const Eigen::VectorXd& x, Eigen::MatrixXd& J) const override {
    J.resize(3, 3);
    if (j == 0)
      J << x(1) - x(2), x(0), -x(0),  //
          0.0, 0.0, 0.0,              //
          0.0, -x(2), x(2) - x(1);
    else
      J << 0.0, 0.0, 0.0,              //
          -x(1), x(2) - x(0), x(1),  //
          x(2), 0.0, x(0) - x(2);
  }
};

class VolterraModel final : public VectorFieldModel {
 public:
  int dim() const override { return 3; }
  void rhs(const Eigen::VectorXd& x, Eigen::VectorXd& f) const override {
    f.resize(3);
    f << x(0) * (x(1) - x(2)), x(1) * (x(2) - x(0)), x(2) * (x(0) - x(1));
  }
  void jacobian(const Eigen::VectorXd& x, Eigen::MatrixXd& J) const override {
    J.resize(3, 3);
    J << x(1) - x(2), x(0), -x(0),  //
        -x(1), x(2) - x(0), x(1),   //
        x(2), -x(2), x(0) - x(1);
  }
  const DivergenceFreeSplitting* divergence_free() const override { return &split_; }

 private:
  VolterraSplitting split_;
};

struct Preset {
  const char* name;
  double x1, x2, x3;
  const char* description;
};

constexpr Preset kPresets[] = {
    {"mq1998", 1.0, 0.5, 2.0,
     "(x1, x2, x3) = (1, 0.5, 2): the spec's determinant, order and long-run checks [spec 7.2, 7.3 VERIFIED]"},
};

// "random:K": each x_i uniform in [0.5, 2]. In the positive octant the level sets of x1 + x2 + x3 and x1 x2 x3 meet
// in closed curves, so every random orbit is periodic and bounded, and the reference stays accurate.
constexpr double kRandomLo = 0.5, kRandomHi = 2.0;

std::unique_ptr<Problem> make(const std::string& preset_name, const Json& o, const std::string& ic) {
  const Preset& preset = find_preset(kPresets, preset_name, kId);
  overrides::check_keys(o, {"x1", "x2", "x3"}, kId);
  VectorFieldState x0{point_presets::initial_point<3>(o.is_null() ? Json::object() : o, ic, {"x1", "x2", "x3"},
                                                      {preset.x1, preset.x2, preset.x3}, kRandomLo, kRandomHi,
                                                      0x766F6C74657272ULL, kId)};
  static const auto model = std::make_shared<const VolterraModel>();
  const Json parameters = {{"f", "(x1 (x2 - x3), x2 (x3 - x1), x3 (x1 - x2))"}};
  const std::string key = std::string(kId) + ":" + Json::array({x0.x(0), x0.x(1), x0.x(2)}).dump();
  auto reference = shared_vector_field_reference(key, [&] { return vector_field_reference(model, x0); });
  // Both integrals are reported as absolute errors, as the spec quotes max |d(x1 + x2 + x3)|; their round-off is
  // judged against their initial values, which are positive in the positive octant.
  VectorFieldProblem::Extras extras;
  extras.invariants.push_back({Invariant::linear_integral, metrics::linear_integral_err.name,
                               InvariantErrorKind::absolute,
                               [](const VectorFieldState& s) { return InvariantValue::Constant(1, s.x.sum()); }});
  extras.invariants.push_back({Invariant::cubic_integral, metrics::cubic_integral_err.name,
                               InvariantErrorKind::absolute,
                               [](const VectorFieldState& s) { return InvariantValue::Constant(1, s.x.prod()); }});
  return std::make_unique<VectorFieldProblem>(kId, preset_name, ic, model, std::move(x0), parameters, 1.0,
                                              std::move(reference), std::move(extras));
}

}  // namespace

ProblemInfo info() {
  ProblemInfo p;
  p.id = kId;
  p.display_name = "Volterra system (3D)";
  p.citation = "McLachlan and Quispel 1998 lectures section 5, Examples 24 and 25; spec 7.2, 7.3";
  p.kind = ModelKind::vector_field;
  p.structure = kDivergenceFree;
  for (const Preset& s : kPresets) p.presets.push_back({s.name, s.description});
  p.parameters = {
      {"x1", "initial x1, finite (the integrals' orbits are closed curves when all three are positive)"},
      {"x2", "initial x2, finite"},
      {"x3", "initial x3, finite"},
  };
  p.make = make;
  return p;
}

}  // namespace gib::volterra
