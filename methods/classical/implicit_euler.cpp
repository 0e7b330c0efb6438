#include "methods/classical/implicit_euler.hpp"

#include <Eigen/LU>
#include <memory>
#include <nlohmann/json.hpp>

#include "methods/implicit/nonlinear_solver.hpp"

namespace gib::classical {
namespace {

class ImplicitEuler final : public VectorFieldStepper, public TangentMap {
 public:
  explicit ImplicitEuler(const VectorFieldModel& model) : model_(model) {}

  StepStatus step(VectorFieldState& s, double h, OpCounters& c) override {
    model_.rhs(s.x, f_);
    ++c.rhs_evals;
    y_ = s.x + h * f_;
    const Eigen::Index n = s.x.size();
    // F(y) = y - x - h f(y), F'(y) = I - h f'(y).
    auto eval = [&](const Eigen::VectorXd& y, Eigen::VectorXd& F, Eigen::MatrixXd& J) {
      model_.rhs(y, f_);
      model_.jacobian(y, J);
      ++c.rhs_evals;
      F = y - s.x - h * f_;
      J = Eigen::MatrixXd::Identity(n, n) - h * J;
    };
    const implicit::NewtonResult r = implicit::newton_root(eval, y_, implicit::SolverOptions{}, c, newton_);
    if (const StepStatus st = implicit::record_solve(r, c); st != StepStatus::ok) return st;
    s.x = y_;
    return StepStatus::ok;
  }

  StepStatus step_with_tangent(VectorFieldState& s, double h, Eigen::MatrixXd& D, OpCounters& c) override {
    if (const StepStatus st = step(s, h, c); st != StepStatus::ok) return st;
    // Differentiating x+ = x + h f(x+): (I - h f'(x+)) dx+ = dx.
    model_.jacobian(s.x, J_);
    const Eigen::Index n = s.x.size();
    D = (Eigen::MatrixXd::Identity(n, n) - h * J_).partialPivLu().inverse();
    return StepStatus::ok;
  }

 private:
  const VectorFieldModel& model_;
  Eigen::VectorXd f_, y_;
  Eigen::MatrixXd J_;
  implicit::NewtonWorkspace<Eigen::Dynamic> newton_;
};

}  // namespace

MethodInfo implicit_euler() {
  MethodInfo m;
  m.id = "implicit_euler";
  m.display_name = "Implicit Euler";
  m.citation = "backward Euler; McLachlan-Quispel spec 12 (Euler), 2.3 (the adjoint of explicit Euler)";
  m.family = "classical";
  m.claims.order = 1;
  m.claims.implicit = true;
  m.default_params = Json::object();
  m.vector_field = [](const VectorFieldModel& model, const Json& /*params*/) -> std::unique_ptr<VectorFieldStepper> {
    return std::make_unique<ImplicitEuler>(model);
  };
  return m;
}

}  // namespace gib::classical
