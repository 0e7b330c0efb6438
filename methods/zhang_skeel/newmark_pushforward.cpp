// Push-forward Newmark (`newmark_pushforward`), Tao-Owhadi Integrator 3, eq. (14) (spec 2.3): Newmark (gamma = 1/2)
// seen through eta(q, qdot) = (q + beta h^2 M^-1 grad V(q), qdot), which makes it preserve dx ^ dp:
//   x+ = x + h v + h^2/2 a,   v+ = v + h/2 (a + a+),   M a+ + grad V(x+ + beta h^2 a+) = 0 (full Newton).
// The Newton unknown is y = x+ + beta h^2 a+ (the Newmark position), solving M (y - x+) + beta h^2 grad V(y) = 0, and
// a+ = -M^-1 grad V(y), which is exact at beta = 0 (velocity Verlet). Inverse map q = x + beta h^2 a. Symplectic
// (variational, discrete Lagrangian (15)), symmetric (a depends on h through h^2), second order, unconditionally
// linearly stable for beta >= 1/4. Z&S is its second-order Taylor truncation in a; for quadratic V they coincide.
#include <memory>
#include <nlohmann/json.hpp>

#include "methods/zhang_skeel/mass_inverse.hpp"
#include "methods/zhang_skeel/method_info.hpp"
#include "methods/zhang_skeel/params.hpp"
#include "methods/zhang_skeel/position_newton.hpp"
#include "methods/zhang_skeel/verlet_form.hpp"
#include "methods/zhang_skeel/zhang_skeel.hpp"

namespace gib::zhang_skeel {
namespace {

class PushForwardForce {
 public:
  static constexpr bool kDependsOnStep = true;

  PushForwardForce(const NewtonianModel& model, double beta) : beta_(beta), newton_(model), mass_inverse_(model) {}

  bool evaluate(const Eigen::VectorXd& x, double h, Eigen::VectorXd& f, OpCounters& c) {
    const double bh2 = beta_ * h * h;
    // Warm start from the last a (at a nearby x); the first evaluation starts from y = x.
    y_ = last_a_.size() == x.size() ? Eigen::VectorXd(x + bh2 * last_a_) : x;
    if (!newton_.solve(x, bh2, y_, grad_, c)) return false;
    mass_inverse_.apply(-grad_, f);
    last_a_ = f;
    return true;
  }

 private:
  double beta_;
  PositionNewton newton_;
  MassInverse mass_inverse_;
  Eigen::VectorXd y_, grad_, last_a_;
};

}  // namespace

MethodInfo newmark_pushforward() {
  MethodClaims claims = second_order(/*implicit=*/true, /*symmetric=*/true, /*symplectic=*/true);
  claims.invariants.push_back(exact_angular_momentum());
  MethodInfo m = family_method("newmark_pushforward", "Push-forward Newmark",
                               "Tao and Owhadi 2014 eq. (14) (Integrator 3); Skeel, Zhang and Schlick 1997", claims);
  m.default_params = beta_default_params();
  m.newtonian = [](const NewtonianModel& model, const Json& params) -> std::unique_ptr<NewtonianStepper> {
    const double beta = beta_from(params, "newmark_pushforward");
    return std::make_unique<VerletFormStepper<PushForwardForce>>(model, beta);
  };
  return m;
}

}  // namespace gib::zhang_skeel
