// Velocity Verlet (`velocity_verlet`), the explicit comparison method of Tao-Owhadi spec 2.9 ("Variational Euler
// (i.e. leapfrog)" on the penalised system):
//   x+ = x + h v + h^2/2 a(x),   v+ = v + h/2 (a(x) + a(x+)),   a = -M^-1 grad V.
// Symplectic, symmetric, second order; stable for h w_max < 2. It is Z&S, Z&Ss and Newmark at beta = 0 (spec 6.1).
// One gradient per step (a(x+) is reused by the next step).
#include <memory>

#include "methods/zhang_skeel/mass_inverse.hpp"
#include "methods/zhang_skeel/method_info.hpp"
#include "methods/zhang_skeel/verlet_form.hpp"
#include "methods/zhang_skeel/zhang_skeel.hpp"

namespace gib::zhang_skeel {
namespace {

class NewtonForce {
 public:
  static constexpr bool kDependsOnStep = false;

  explicit NewtonForce(const NewtonianModel& model) : model_(model), mass_inverse_(model) {}

  bool evaluate(const Eigen::VectorXd& x, double /*h*/, Eigen::VectorXd& f, OpCounters& c) {
    model_.gradient(x, grad_);
    ++c.force_evals;
    mass_inverse_.apply(-grad_, f);
    return true;  // explicit: nothing to fail; non-finite states are the harness's business
  }

 private:
  const NewtonianModel& model_;  // owned by the problem; outlives the stepper
  MassInverse mass_inverse_;
  Eigen::VectorXd grad_;
};

}  // namespace

MethodInfo velocity_verlet() {
  MethodClaims claims = second_order(/*implicit=*/false, /*symmetric=*/true, /*symplectic=*/true);
  claims.invariants.push_back(exact_angular_momentum());
  MethodInfo m = family_method("velocity_verlet", "Velocity Verlet",
                               "Swope, Andersen, Berendsen & Wilson 1982; Tao and Owhadi 2014 sec. 4 (comparison)", claims);
  m.newtonian = [](const NewtonianModel& model, const Json& /*params*/) -> std::unique_ptr<NewtonianStepper> {
    return std::make_unique<VerletFormStepper<NewtonForce>>(model);
  };
  return m;
}

}  // namespace gib::zhang_skeel
