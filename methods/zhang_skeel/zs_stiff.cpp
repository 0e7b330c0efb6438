// Simplified Z&Ss for stiff systems (`zs_stiff`), Tao-Owhadi Integrator 5, eq. (19) (spec 2.6): for V = V0 + V1
// with V1 stiff (the penalty 1/2 omega^2 g^T g of a PenalizedModel),
//   (M + beta h^2 Hess V1(x)) a = -grad V(x),   f = a,
// so only the stiff part's Hessian is assembled (block-diagonal per molecule for rigid water). Symmetric (f depends on
// h through h^2 only) and second order; not symplectic in general; unconditionally linearly stable for
// beta > 1/4 + O(epsilon). Models without a stiff part are refused when the stepper is built.
#include <memory>
#include <nlohmann/json.hpp>

#include "core/errors.hpp"
#include "methods/zhang_skeel/method_info.hpp"
#include "methods/zhang_skeel/params.hpp"
#include "methods/zhang_skeel/verlet_form.hpp"
#include "methods/zhang_skeel/zhang_skeel.hpp"
#include "methods/zhang_skeel/zhang_skeel_force.hpp"

namespace gib::zhang_skeel {

MethodInfo zs_stiff() {
  MethodInfo m = family_method("zs_stiff", "Z&Ss for stiff systems (Integrator 5)",
                               "Tao and Owhadi 2014 eq. (19) (Integrator 5)",
                               second_order(/*implicit=*/false, /*symmetric=*/true, /*symplectic=*/false));
  m.default_params = beta_default_params();
  m.needs_penalty = true;
  m.newtonian = [](const NewtonianModel& model, const Json& params) -> std::unique_ptr<NewtonianStepper> {
    const double beta = beta_from(params, "zs_stiff");
    if (!model.has_stiff_part())
      throw InputError("method zs_stiff (Integrator 5) needs a model with a stiff part V1 (a penalised model); "
                       "this model has none");
    return std::make_unique<VerletFormStepper<ZhangSkeelForce>>(model, beta, Curvature::stiff_hessian, false);
  };
  return m;
}

}  // namespace gib::zhang_skeel
