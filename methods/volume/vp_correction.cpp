#include "methods/volume/vp_correction.hpp"

#include <Eigen/LU>
#include <cmath>
#include <memory>
#include <nlohmann/json.hpp>

#include "core/errors.hpp"
#include "core/vector_field.hpp"
#include "methods/implicit/nonlinear_solver.hpp"

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
    // Newton on the scalar equation int_0^z J(s) ds = target, from z = x_m, with the solver's defaults (50
    // iterations, |dz| <= 1e-14 max(1, |z|)).
    auto eval = [&](const implicit::VecN<1>& z, implicit::VecN<1>& F, implicit::MatN<1>& dF) {
      F(0) = integral(s.x, z(0), h, c) - target;
      dF(0, 0) = det_at(s.x, z(0), h, c);
    };
    z_(0) = s.x(last);
    const implicit::NewtonResult r = implicit::newton_root(eval, z_, implicit::SolverOptions{}, c, newton_);
    if (const StepStatus st = implicit::record_solve(r, c); st != StepStatus::ok) return st;
    y_ = s.x;
    y_(last) = z_(0);
    model_.rhs(y_, f_);
    ++c.rhs_evals;
    s.x.head(last) += h * f_.head(last);
    s.x(last) = z_(0);
    return StepStatus::ok;
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

  const VectorFieldModel& model_;
  Eigen::VectorXd y_, f_;
  Eigen::MatrixXd A_;
  implicit::VecN<1> z_;
  implicit::NewtonWorkspace<1> newton_;
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
