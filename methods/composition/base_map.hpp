// A vector-field method used as a map psi_s inside another method (the projections of spec 2.3 and 2.7, the
// Thue-Morse words of spec 2.7 and 10): the base is a registered method named by the parameter `base`, built with
// its default parameters. Besides psi_s itself it gives psi_s's Jacobian (the base's exact tangent map, else central
// differences) and the inverse psi_s^-1 by Newton on psi_s(y) = z.
//
// Requirement on the base: a one-step map (no history between steps), as for symmetric_composition.hpp: the inverse
// calls it at many points and step sizes. two_step_midpoint is refused.
#pragma once

#include <memory>
#include <string>

#include "core/method.hpp"

namespace gib::composition {

class BaseMap {
 public:
  // Throws InputError for an unknown or unusable base (no vector-field factory, a multistep method, a structure
  // the model lacks), naming `owner`.
  BaseMap(const VectorFieldModel& model, const Json& base_id, const std::string& owner);

  // psi_s(x), in place.
  StepStatus apply(Eigen::VectorXd& x, double s, OpCounters& c);
  // y = psi_s^-1(z): Newton from the predictor psi_{-s}(z). solver_failed (counted) when it does not converge.
  StepStatus inverse(const Eigen::VectorXd& z, double s, Eigen::VectorXd& y, OpCounters& c);
  const VectorFieldModel& model() const { return model_; }

 private:
  // d psi_s / dx at y (the base's tangent map, else central differences with 2n base steps).
  bool jacobian(const Eigen::VectorXd& y, double s, Eigen::MatrixXd& J, OpCounters& c);

  const VectorFieldModel& model_;
  std::unique_ptr<VectorFieldStepper> base_;
  TangentMap* tangent_ = nullptr;
  VectorFieldState scratch_;
};

}  // namespace gib::composition
