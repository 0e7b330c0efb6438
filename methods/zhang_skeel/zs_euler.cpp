// First-order variational Z&S (`zs_euler`): the symplectic-Euler form of the variational Zhang-Skeel scheme, the
// flat-space counterpart of the SO(3) update of Tao-Owhadi 4.5 (spec 2.11 "Update", left-endpoint quadrature of the
// discrete Lagrangian (36)):
//   p+ = p + h M f(x),   x+ = x + h M^-1 p+,
// with f(x) the Z&S force of eq. (3) at x for this h (zhang_skeel_force.hpp). M f = -grad W with W the modified
// potential, so the map is symplectic (a kick then a drift) and keeps momentum maps; first order, not symmetric.
// One gradient, Hessian, V''' contraction and symmetric solve per step.
#include <memory>
#include <nlohmann/json.hpp>

#include "methods/zhang_skeel/method_info.hpp"
#include "methods/zhang_skeel/params.hpp"
#include "methods/zhang_skeel/zhang_skeel.hpp"
#include "methods/zhang_skeel/zhang_skeel_force.hpp"

namespace gib::zhang_skeel {
namespace {

class ZsEulerStepper final : public NewtonianStepper {
 public:
  ZsEulerStepper(const NewtonianModel& model, double beta) : force_(model, beta, Curvature::full_hessian, true) {}

  StepStatus step(NewtonianState& s, double h, OpCounters& c) override {
    if (!force_.evaluate(s.q, h, f_, c)) {
      ++c.solver_failures;
      return StepStatus::solver_failed;
    }
    s.v += h * f_;
    s.q += h * s.v;
    return StepStatus::ok;
  }

 private:
  ZhangSkeelForce force_;
  Eigen::VectorXd f_;
};

}  // namespace

MethodInfo zs_euler() {
  MethodClaims claims;
  claims.order = 1;
  claims.symplectic = true;
  claims.invariants = {exact_linear_momentum(), exact_angular_momentum(), bounded_energy()};
  MethodInfo m = family_method("zs_euler", "Variational Z&S (symplectic Euler form)",
                               "Tao and Owhadi 2014 sec. 4.5 (first-order variational Z&S, flat space); eq. (3)", claims);
  m.default_params = beta_default_params();
  m.newtonian = [](const NewtonianModel& model, const Json& params) -> std::unique_ptr<NewtonianStepper> {
    return std::make_unique<ZsEulerStepper>(model, beta_from(params, "zs_euler"));
  };
  return m;
}

}  // namespace gib::zhang_skeel
