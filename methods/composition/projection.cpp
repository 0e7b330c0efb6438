#include "methods/composition/projection.hpp"

#include <memory>
#include <nlohmann/json.hpp>
#include <stdexcept>

#include "methods/composition/base_map.hpp"

namespace gib::composition {
namespace {

class ProjectionAdjoint final : public VectorFieldStepper {
 public:
  ProjectionAdjoint(const VectorFieldModel& model, const Json& params)
      : base_(model, params.at("base"), "projection_adjoint") {}

  StepStatus step(VectorFieldState& s, double h, OpCounters& c) override {
    // psi*_{h/2}(x) = psi_{-h/2}^-1(x)
    if (const StepStatus st = base_.inverse(s.x, -0.5 * h, y_, c); st != StepStatus::ok) return st;
    if (const StepStatus st = base_.apply(y_, 0.5 * h, c); st != StepStatus::ok) return st;
    s.x = y_;
    return StepStatus::ok;
  }

 private:
  BaseMap base_;
  Eigen::VectorXd y_;
};

class ReversibleProjection final : public VectorFieldStepper {
 public:
  ReversibleProjection(const VectorFieldModel& model, const Json& params)
      : base_(model, params.at("base"), "reversible_projection"), R_(model.reversing_involution()) {
    if (R_ == nullptr) throw std::invalid_argument("reversible_projection: the model has no reversing involution");
  }

  StepStatus step(VectorFieldState& s, double h, OpCounters& c) override {
    z_ = *R_ * s.x;
    if (const StepStatus st = base_.inverse(z_, 0.5 * h, y_, c); st != StepStatus::ok) return st;
    z_ = *R_ * y_;
    if (const StepStatus st = base_.apply(z_, 0.5 * h, c); st != StepStatus::ok) return st;
    s.x = z_;
    return StepStatus::ok;
  }

 private:
  BaseMap base_;
  const Eigen::MatrixXd* R_;
  Eigen::VectorXd y_, z_;
};

MethodInfo projection_method(const char* id, const char* name, const char* citation) {
  MethodInfo m;
  m.id = id;
  m.display_name = name;
  m.citation = citation;
  m.family = "projection";
  m.claims.order = 2;
  m.claims.symmetric = true;
  m.claims.implicit = true;
  m.default_params = {{"base", "odeint_euler"}};
  return m;
}

}  // namespace

MethodInfo projection_adjoint() {
  MethodInfo m = projection_method("projection_adjoint", "Projection psi_{h/2} psi*_{h/2} (Euler: implicit midpoint)",
                                   "McLachlan-Quispel lectures 1.6 and Example 18, spec 2.3");
  m.vector_field = [](const VectorFieldModel& model, const Json& params) -> std::unique_ptr<VectorFieldStepper> {
    return std::make_unique<ProjectionAdjoint>(model, params);
  };
  return m;
}

MethodInfo reversible_projection() {
  MethodInfo m = projection_method("reversible_projection", "Reversible projection psi_{h/2} R psi_{h/2}^-1 R",
                                   "McLachlan-Quispel lectures Lemma 15, Example 19 (step sizes: erratum E9), spec 2.7");
  m.needs_structure = kReversible;
  m.vector_field = [](const VectorFieldModel& model, const Json& params) -> std::unique_ptr<VectorFieldStepper> {
    return std::make_unique<ReversibleProjection>(model, params);
  };
  return m;
}

}  // namespace gib::composition
