#include "core/vector_field_problem.hpp"

#include <cmath>
#include <stdexcept>

#include "core/metrics.hpp"

namespace gib {

VectorFieldProblem::VectorFieldProblem(std::string id, std::string preset, std::string ic,
                                       std::shared_ptr<const VectorFieldModel> model, VectorFieldState initial,
                                       Json parameters, double time_scale,
                                       std::shared_ptr<const VectorFieldReference> reference, Extras extras)
    : Problem(std::move(id), std::move(preset), std::move(ic)),
      model_(std::move(model)),
      initial_(std::move(initial)),
      parameters_(std::move(parameters)),
      time_scale_(time_scale),
      reference_(std::move(reference)),
      extras_(std::move(extras)) {
  if (model_ == nullptr || initial_.x.size() != model_->dim())
    throw std::invalid_argument("VectorFieldProblem: model and initial state disagree on the dimension");
  extent_ = initial_.x.cwiseAbs().maxCoeff() + 1.0;
  Eigen::VectorXd f;
  model_->rhs(initial_.x, f);
  // |f(x0)| x extent is the change the field makes across the state's size: a pendulum released from rest
  // at the bottom has H0 = -1 but still its scale.
  energy_scale_ = model_->has_energy() ? std::max(std::abs(model_->energy(initial_.x)) + f.norm() * extent_, 1e-300)
                                       : std::nan("");
}

Json VectorFieldProblem::parameters() const {
  Json p = parameters_;
  Json x = Json::array();
  for (Eigen::Index i = 0; i < initial_.x.size(); ++i) x.push_back(initial_.x(i));
  p["x0"] = x;
  return p;
}

std::vector<VectorFieldInvariant> VectorFieldProblem::invariants() const {
  std::vector<VectorFieldInvariant> out;
  if (model_->has_energy()) {
    const VectorFieldModel* model = model_.get();
    out.push_back({Invariant::energy, metrics::energy_rel_err.name, InvariantErrorKind::relative,
                   [model](const VectorFieldState& s) { return InvariantValue::Constant(1, model->energy(s.x)); }});
  }
  out.insert(out.end(), extras_.invariants.begin(), extras_.invariants.end());
  return out;
}

}  // namespace gib
