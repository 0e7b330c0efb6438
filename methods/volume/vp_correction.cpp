#include "methods/volume/vp_correction.hpp"

#include <Eigen/LU>
#include <algorithm>
#include <cmath>
#include <memory>
#include <nlohmann/json.hpp>

#include "core/errors.hpp"
#include "core/vector_field.hpp"

namespace gib::volume {
namespace {

class VpCorrectionStepper final : public VectorFieldStepper {
 public:
  explicit VpCorrectionStepper(const VectorFieldModel& model) : model_(model) {}

  StepStatus step(VectorFieldState& s, double h, OpCounters& c) override {
    const Eigen::Index m = s.x.size();
    const Eigen::Index last = m - 1;
    // h f_m(x_<m, 0): the constant of integration.
    y_ = s.x;
    y_(last) = 0.0;
    model_.rhs(y_, f_);
    ++c.rhs_evals;
    const double target = s.x(last) + h * f_(last);
    double z = s.x(last);
    int iter = 1;
    for (; iter <= kMaxIterations; ++iter) {
      const double dz = -(integral(s.x, z, h, c) - target) / det_at(s.x, z, h, c);
      z += dz;
      if (!std::isfinite(z)) break;
      if (std::abs(dz) <= kTolerance * std::max(1.0, std::abs(z))) {
        y_ = s.x;
        y_(last) = z;
        model_.rhs(y_, f_);
        ++c.rhs_evals;
        s.x.head(last) += h * f_.head(last);
        s.x(last) = z;
        c.record_nonlinear_step(iter);
        return StepStatus::ok;
      }
    }
    c.record_nonlinear_step(std::min(iter, kMaxIterations));
    ++c.solver_failures;
    return StepStatus::solver_failed;
  }

 private:
  // J(s) = det(I + h A), A the leading (m-1) x (m-1) block of df/dx at (x_<m, s).
  double det_at(const Eigen::VectorXd& x, double s, double h, OpCounters& c) {
    y_ = x;
    y_(y_.size() - 1) = s;
    model_.jacobian(y_, A_);
    ++c.rhs_evals;
    const Eigen::Index k = y_.size() - 1;
    return (Eigen::MatrixXd::Identity(k, k) + h * A_.topLeftCorner(k, k)).determinant();
  }

  // int_0^z J(s) ds by two-point Gauss-Legendre (nodes (1 -+ 1/sqrt 3) z / 2, weights z / 2).
  double integral(const Eigen::VectorXd& x, double z, double h, OpCounters& c) {
    const double r = 0.5 / std::sqrt(3.0);
    return 0.5 * z * (det_at(x, (0.5 - r) * z, h, c) + det_at(x, (0.5 + r) * z, h, c));
  }

  static constexpr int kMaxIterations = 50;
  static constexpr double kTolerance = 1e-14;
  const VectorFieldModel& model_;
  Eigen::VectorXd y_, f_;
  Eigen::MatrixXd A_;
};

}  // namespace

MethodInfo vp_correction() {
  MethodInfo m;
  m.id = "vp_correction";
  m.display_name = "VP correction (Quispel)";
  m.citation = "Quispel 1995; McLachlan and Quispel 1998 lectures section 5 (Example 25); spec 7.3";
  m.family = "volume";
  m.needs_structure = kDivergenceFree;
  m.claims.order = 1;
  m.claims.implicit = true;
  m.claims.volume_preserving = true;
  m.default_params = Json::object();
  m.vector_field = [](const VectorFieldModel& model, const Json& /*params*/) -> std::unique_ptr<VectorFieldStepper> {
    if (model.dim() < 2) throw InputError("vp_correction needs a field of dimension at least 2");
    return std::make_unique<VpCorrectionStepper>(model);
  };
  return m;
}

}  // namespace gib::volume
