// Crouch-Grossman methods from a tableau (see the header; cg3.cpp derives the product order).
#include "methods/crouch_grossman/crouch_grossman.hpp"

#include <memory>
#include <vector>

#include "core/errors.hpp"
#include "core/tso3.hpp"

namespace gib::crouch_grossman {
namespace {

using Alg = tso3::Algebra<double>;
using Elem = tso3::Element<double>;
constexpr so3::ActionSide kRightAction = so3::ActionSide::right_multiply;  // y exp(sigma)

class TableauStepper final : public RigidBodyStepper {
 public:
  TableauStepper(const RigidBodyModel& model, const rkmk::Tableau& t)
      : model_(model), s_(t.b.size()), F_(s_), t_(rkmk::in_double(t)) {}

  StepStatus step(RigidBodyState& x, double h, OpCounters& c) override {
    const Elem y{x.R, x.Pi};
    for (std::size_t i = 0; i < s_; ++i) {
      Elem Yi = y;
      for (std::size_t j = 0; j < i; ++j) {
        if (t_.a[i][j] == 0) continue;
        Yi = tso3::act(Yi, (h * t_.a[i][j]) * F_[j], kRightAction);
        ++c.exp_evals;
      }
      ++c.rhs_evals;
      if (!model_.torque_free()) ++c.force_evals;
      F_[i] = {model_.angular_velocity(Yi.mu), model_.body_torque(Yi.R)};
    }
    Elem next = y;
    for (std::size_t i = 0; i < s_; ++i) {
      if (t_.b[i] == 0) continue;
      next = tso3::act(next, (h * t_.b[i]) * F_[i], kRightAction);
      ++c.exp_evals;
    }
    x.R = next.R;
    x.Pi = next.mu;
    return StepStatus::ok;
  }

 private:
  const RigidBodyModel& model_;  // owned by the problem; outlives the stepper
  std::size_t s_;
  std::vector<Alg> F_;  // the stages' vector fields, kept to avoid an allocation per step
  rkmk::DoubleTableau t_;
};

}  // namespace

MethodInfo method(std::string id, std::string display_name, std::string citation, const rkmk::Tableau& tableau) {
  MethodInfo m;
  m.id = std::move(id);
  m.display_name = std::move(display_name);
  m.citation = std::move(citation);
  m.family = "crouch_grossman";
  m.claims.order = tableau.order;
  m.claims.stays_on_group = true;
  // Torque-free, every factor maps Pi to exp(xi)^T Pi and R to R exp(xi) (cg3.cpp).
  m.claims.invariants = {{Invariant::casimir, Preservation::exact, Applies::torque_free},
                         {Invariant::spatial_momentum, Preservation::exact, Applies::torque_free}};
  m.rigid_body = [tableau](const RigidBodyModel& model, const Json& /*params: none*/) -> std::unique_ptr<RigidBodyStepper> {
    return std::make_unique<TableauStepper>(model, tableau);
  };
  return m;
}

}  // namespace gib::crouch_grossman
