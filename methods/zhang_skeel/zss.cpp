// Simplified Zhang-Skeel (`zss`), Tao-Owhadi Integrator 4, eq. (18) (spec 2.5): eq. (3) without the V''' term,
//   (M + beta h^2 Hess V(x)) a = -grad V(x),   f = a.
// It is one Newton step of push-forward Newmark from a = 0. Symmetric and second order (Thm 2.1), unconditionally
// linearly stable for beta >= 1/4, but symplectic only when M Da is symmetric (one degree of freedom, or a Hessian
// diagonalised by a constant matrix: Remark 2.2, spec A8), so not in general.
#include <memory>
#include <nlohmann/json.hpp>

#include "methods/zhang_skeel/method_info.hpp"
#include "methods/zhang_skeel/params.hpp"
#include "methods/zhang_skeel/verlet_form.hpp"
#include "methods/zhang_skeel/zhang_skeel.hpp"
#include "methods/zhang_skeel/zhang_skeel_force.hpp"

namespace gib::zhang_skeel {

MethodInfo zss() {
  MethodInfo m = family_method("zss", "Simplified Zhang-Skeel (Z&Ss)", "Tao and Owhadi 2014 eq. (18) (Integrator 4)",
                               second_order(/*implicit=*/false, /*symmetric=*/true, /*symplectic=*/false));
  m.default_params = beta_default_params();
  m.newtonian = [](const NewtonianModel& model, const Json& params) -> std::unique_ptr<NewtonianStepper> {
    const double beta = beta_from(params, "zss");
    return std::make_unique<VerletFormStepper<ZhangSkeelForce>>(model, beta, Curvature::full_hessian, false);
  };
  return m;
}

}  // namespace gib::zhang_skeel
