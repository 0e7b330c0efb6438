#include "methods/composition/base_map.hpp"

#include <cmath>
#include <limits>
#include <nlohmann/json.hpp>

#include "core/errors.hpp"
#include "methods/implicit/nonlinear_solver.hpp"

namespace gib::composition {

BaseMap::BaseMap(const VectorFieldModel& model, const Json& base_id, const std::string& owner) : model_(model) {
  if (!base_id.is_string()) throw InputError(owner + " parameter base=" + base_id.dump() + " must be a method id");
  const MethodInfo& base = find_method(base_id.get<std::string>());
  if (!base.vector_field) throw InputError(owner + ": base method " + base.id + " does not support vector fields");
  if (base.id == "two_step_midpoint")
    throw InputError(owner + ": base method two_step_midpoint is a two-step method; the base must be a one-step map");
  if (const unsigned missing = base.needs_structure & ~model.structure(); missing != 0)
    throw InputError(owner + ": base method " + base.id + " needs " + structure_names(missing) +
                     ", which this problem does not have");
  base_ = base.vector_field(model, base.default_params);
  tangent_ = dynamic_cast<TangentMap*>(base_.get());
}

StepStatus BaseMap::apply(Eigen::VectorXd& x, double s, OpCounters& c) {
  scratch_.x = x;
  const StepStatus st = base_->step(scratch_, s, c);
  x = scratch_.x;
  return st;
}

bool BaseMap::jacobian(const Eigen::VectorXd& y, double s, Eigen::MatrixXd& J, OpCounters& c) {
  if (tangent_ != nullptr) {
    scratch_.x = y;
    return tangent_->step_with_tangent(scratch_, s, J, c) == StepStatus::ok;
  }
  // Central differences: an O(eps^2) error of ~1e-12 only slows Newton to a contraction of that size per
  // iteration; the root it converges to is psi_s's own.
  const Eigen::Index n = y.size();
  J.resize(n, n);
  Eigen::VectorXd plus, minus;
  for (Eigen::Index i = 0; i < n; ++i) {
    const double e = 1e-6 * std::max(1.0, std::abs(y(i)));
    plus = y;
    minus = y;
    plus(i) += e;
    minus(i) -= e;
    const double width = plus(i) - minus(i);  // the representable spacing, not 2 e
    if (apply(plus, s, c) != StepStatus::ok || apply(minus, s, c) != StepStatus::ok) return false;
    J.col(i) = (plus - minus) / width;
  }
  return true;
}

StepStatus BaseMap::inverse(const Eigen::VectorXd& z, double s, Eigen::VectorXd& y, OpCounters& c) {
  y = z;
  if (apply(y, -s, c) == StepStatus::ok) {  // psi_{-s} = psi_s^-1 + O(s^2): the predictor
    Eigen::VectorXd image;
    auto eval = [&](const Eigen::VectorXd& at, Eigen::VectorXd& F, Eigen::MatrixXd& J) {
      image = at;
      if (apply(image, s, c) != StepStatus::ok || !jacobian(at, s, J, c)) {
        // A failed base step poisons the residual, so Newton stops and reports failure.
        F.setConstant(at.size(), std::numeric_limits<double>::quiet_NaN());
        J.setIdentity(at.size(), at.size());
        return;
      }
      F = image - z;
    };
    // The solver's defaults: 50 iterations, |dy| <= 1e-14 max(1, |y|).
    implicit::NewtonWorkspace<Eigen::Dynamic> buffers;
    return implicit::record_solve(implicit::newton_root(eval, y, implicit::SolverOptions{}, c, buffers), c);
  }
  ++c.solver_failures;
  return StepStatus::solver_failed;
}

}  // namespace gib::composition
