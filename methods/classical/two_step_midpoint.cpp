#include "methods/classical/two_step_midpoint.hpp"

#include <memory>
#include <nlohmann/json.hpp>

#include "core/errors.hpp"
#include "methods/classical/odeint_vector_field.hpp"

namespace gib::classical {
namespace {

// The starter is one step of the registered Odeint scheme of that name.
VectorFieldScheme parse_starter(const Json& value) {
  if (value == "rk4") return VectorFieldScheme::rk4;
  if (value == "euler") return VectorFieldScheme::euler;
  throw InputError("two_step_midpoint parameter starter=" + value.dump() + " must be \"rk4\" or \"euler\"");
}

class TwoStepMidpoint final : public VectorFieldStepper {
 public:
  TwoStepMidpoint(const VectorFieldModel& model, VectorFieldScheme starter)
      : model_(model), starter_(odeint_vector_field_stepper(starter, model)) {}

  StepStatus step(VectorFieldState& s, double h, OpCounters& c) override {
    if (!have_history_ || h != h_ || !same_bits(s.x, written_)) {
      previous_ = s.x;
      starter_->step(s, h, c);
    } else {
      model_.rhs(s.x, f_);
      ++c.rhs_evals;
      next_ = previous_ + 2 * h * f_;
      previous_ = s.x;
      s.x = next_;
    }
    written_ = s.x;
    h_ = h;
    have_history_ = true;
    return StepStatus::ok;
  }

  void reset() override { have_history_ = false; }

 private:
  const VectorFieldModel& model_;
  std::unique_ptr<VectorFieldStepper> starter_;
  Eigen::VectorXd previous_, written_, next_, f_;
  double h_ = 0;
  bool have_history_ = false;
};

}  // namespace

MethodInfo two_step_midpoint() {
  MethodInfo m;
  m.id = "two_step_midpoint";
  m.display_name = "Two-step explicit midpoint";
  m.citation = "McLachlan-Quispel lectures 2.7 (Fig 2.12), spec 3.2: x_{n+1} = x_{n-1} + 2 h f(x_n)";
  m.family = "classical";
  m.claims.order = 2;
  m.default_params = {{"starter", "rk4"}};
  m.vector_field = [](const VectorFieldModel& model, const Json& params) -> std::unique_ptr<VectorFieldStepper> {
    return std::make_unique<TwoStepMidpoint>(model, parse_starter(params.at("starter")));
  };
  return m;
}

}  // namespace gib::classical
