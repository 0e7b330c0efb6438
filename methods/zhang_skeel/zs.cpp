// Zhang-Skeel (`zs`), Tao-Owhadi Integrator 1, eq. (3) (spec 2.4): per step
//   x+ = x + h v + h^2/2 f,   (M + beta h^2 Hess V(x+)) a+ = -grad V(x+),
//   f+ = a+ - 1/2 beta^2 h^4 M^-1 V'''(x+)[a+, a+],   v+ = v + h/2 (f + f+).
// Linearly implicit: one gradient, one Hessian, one V''' contraction and one symmetric solve per step (f is cached,
// see verlet_form.hpp). Variational, hence symplectic and momentum-map preserving (Thms 1.1, 2.5); symmetric
// (Cor. 2.2); second order (Cor. 2.1); unconditionally linearly stable iff beta >= 1/4 (Thm 2.2). Its V''' term
// also limits its *nonlinear* stability at large h (spec 8, "cross-cutting surprise").
#include <memory>
#include <nlohmann/json.hpp>

#include "methods/zhang_skeel/method_info.hpp"
#include "methods/zhang_skeel/params.hpp"
#include "methods/zhang_skeel/verlet_form.hpp"
#include "methods/zhang_skeel/zhang_skeel.hpp"
#include "methods/zhang_skeel/zhang_skeel_force.hpp"

namespace gib::zhang_skeel {

MethodInfo zs() {
  MethodClaims claims = second_order(/*implicit=*/false, /*symmetric=*/true, /*symplectic=*/true);
  claims.invariants.push_back(exact_angular_momentum());
  MethodInfo m = family_method("zs", "Zhang-Skeel (Z&S)", "Tao and Owhadi 2014 eq. (3); Zhang and Skeel 1997", claims);
  m.default_params = beta_default_params();
  m.newtonian = [](const NewtonianModel& model, const Json& params) -> std::unique_ptr<NewtonianStepper> {
    const double beta = beta_from(params, "zs");
    return std::make_unique<VerletFormStepper<ZhangSkeelForce>>(model, beta, Curvature::full_hessian, true);
  };
  return m;
}

}  // namespace gib::zhang_skeel
