// Problems of the general-vector-field kind (core/vector_field.hpp): a model, an initial state, the invariants
// the field has (its energy, when it has one, plus the problem's own first integrals), the named scalars a paper
// plots, and a reference solution.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "core/problem.hpp"
#include "core/vector_field.hpp"

namespace gib {

using VectorFieldInvariant = InvariantOf<VectorFieldState>;
using VectorFieldReference = ReferenceOf<VectorFieldState>;
using VectorFieldObservable = ObservableOf<VectorFieldState>;

class VectorFieldProblem : public Problem {
 public:
  struct Extras {
    std::vector<VectorFieldInvariant> invariants;  // beyond the energy (Volterra's x1 + x2 + x3, ...)
    std::vector<VectorFieldObservable> observables;
  };

  // `parameters` holds every parameter of the field; the initial state is added by parameters().
  VectorFieldProblem(std::string id, std::string preset, std::string ic, std::shared_ptr<const VectorFieldModel> model,
                     VectorFieldState initial, Json parameters, double time_scale,
                     std::shared_ptr<const VectorFieldReference> reference, Extras extras = {});

  ModelKind kind() const override { return ModelKind::vector_field; }
  Json parameters() const override;
  double time_scale() const override { return time_scale_; }
  // Scales of the divergence test, computed once: |H0| + |f(x0)| x extent (at least 1e-300; NaN without an
  // energy), and the largest |x_i(0)| + 1.
  double energy_scale() const { return energy_scale_; }
  double extent() const { return extent_; }

  const VectorFieldModel& model() const { return *model_; }
  std::shared_ptr<const VectorFieldModel> model_ptr() const { return model_; }
  const VectorFieldState& initial_state() const { return initial_; }
  const VectorFieldReference* reference() const { return reference_.get(); }
  // The energy (relative) when the field has one, then the problem's own invariants.
  std::vector<VectorFieldInvariant> invariants() const;
  const std::vector<VectorFieldObservable>& observables() const { return extras_.observables; }

 private:
  std::shared_ptr<const VectorFieldModel> model_;
  VectorFieldState initial_;
  Json parameters_;
  double time_scale_;
  double energy_scale_ = 0, extent_ = 0;
  std::shared_ptr<const VectorFieldReference> reference_;
  Extras extras_;
};

}  // namespace gib
