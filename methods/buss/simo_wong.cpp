// Simo-Wong explicit algorithm ALGO_C1 (gamma = 1, beta = 0) in Buss's form (spec 5.7):
//   nu_i = J^-1 Pi_i,  a_i = (nu_i - nu_{i-1}) / h,  nu_bar = nu_i + h/2 a_i,  R <- R exp(h nu_bar).
// The body-frame difference estimates nu' = w1 (spec 4.2), so the printed formula is a lagged version of
// the second-order method. Buss's numbers are reproduced only without the division by h (spec 5.7), which
// leaves an O(h^2) perturbation of the first-order method: order 1.
// Two-step: not self-starting. The first step after reset(), after a change of h, or on a state that is
// not the one this stepper wrote last is the first-order step (spec 9 A3: start unspecified).
// Cost per step: one angular-velocity evaluation, one rotation.
#include "methods/buss/simo_wong.hpp"

#include <cstdint>
#include <memory>

#include "methods/buss/body_update.hpp"

namespace gib::buss {
namespace {

class SimoWongStepper final : public HistoryStepper {
 public:
  SimoWongStepper(const RigidBodyModel& model, SimoWongVariant v) : model_(model), variant_(v) {}

  StepStatus step(RigidBodyState& x, double h, OpCounters& c) override {
    take_step(x, h, c, have_history_ && same_bits(h, h_) && same_bits(x, last_));
    last_ = x;
    h_ = h;
    have_history_ = true;
    return StepStatus::ok;
  }
  StepStatus step_continued(RigidBodyState& x, double h, OpCounters& c) override {
    take_step(x, h, c, true);
    return StepStatus::ok;
  }
  Advanced advance(RigidBodyState& x, double h, std::int64_t n, OpCounters& c) override {
    return advance_continuing(*this, x, h, n, c);
  }

  void reset() override { have_history_ = false; }
  void continue_from(const RigidBodyState& x) override { last_ = x; }

 private:
  // continuing: x is the state of the last step, taken with this h; otherwise the first-order start.
  void take_step(RigidBodyState& x, double h, OpCounters& c, bool continuing) {
    ++c.rhs_evals;
    const Vec3 nu = model_.angular_velocity(x.Pi);
    Vec3 nu_bar = nu;
    if (continuing) {
      const Vec3 a = variant_ == SimoWongVariant::printed ? Vec3((nu - nu_prev_) / h) : Vec3(nu - nu_prev_);
      nu_bar += (h / 2) * a;
    }
    rotate_body(x, h * nu_bar);
    ++c.exp_evals;
    nu_prev_ = nu;
  }

  const RigidBodyModel& model_;  // owned by the problem; outlives the stepper
  SimoWongVariant variant_;
  bool have_history_ = false;
  Vec3 nu_prev_ = Vec3::Zero();
  RigidBodyState last_;
  double h_ = 0;
};

}  // namespace

MethodInfo simo_wong(SimoWongVariant v) {
  const bool printed = v == SimoWongVariant::printed;
  MethodInfo m = buss_method_info(
      printed ? "simo_wong_printed" : "simo_wong",
      printed ? "Simo-Wong (printed)" : "Simo-Wong (as run)",
      printed ? "Simo & Wong 1991 ALGO_C1 (gamma = 1, beta = 0) as printed in Buss 2001 sec. 3 (spec 5.7)"
              : "Simo & Wong 1991 ALGO_C1 (gamma = 1, beta = 0) as Buss 2001 ran it, without /h (spec 5.7)",
      printed ? 2 : 1);
  m.rigid_body = [v](const RigidBodyModel& model, const Json& /*params: none*/) -> std::unique_ptr<RigidBodyStepper> {
    return std::make_unique<SimoWongStepper>(model, v);
  };
  return m;
}

}  // namespace gib::buss
