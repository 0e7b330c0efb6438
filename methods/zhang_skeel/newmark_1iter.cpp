// Newmark with one Newton iteration per step (`newmark_1iter`): the paper's "linearly-implicit Newmark" / "Newmark
// with only 1st iteration of nonlinear solve" (Tao-Owhadi Fig. 1 row 5; spec 2.2, A5). One Newton step on
// M (q+ - y_tilde) + beta h^2 grad V(q+) = 0 from a starting point y0 (parameter "guess"):
//   "q_k"  (default) y0 = q_k, the natural fsolve(F, q_k) call; the only guess that reproduces the paper's large
//          error (spec 8.1);
//   "a_k"  y0 = y_tilde + beta h^2 a_k (warm start);
//   "zero" y0 = y_tilde (a = 0): algebraically Z&Ss in Newmark's variables, x = q - beta h^2 a.
// Written for the acceleration, with d = y0 - y_tilde formed without cancellation:
//   (M + beta h^2 Hess V(y0)) a+ = Hess V(y0) d - grad V(y0),   q+ = y_tilde + beta h^2 a+,
// which is the Newton step divided by beta h^2 and stays defined at beta = 0, where F is linear in a and one Newton
// step is the exact solution (velocity Verlet; the "q_k" guess then degenerates, so beta = 0 is solved exactly).
//
// Claims: second order (consistent: the Newton step leaves an O(h^4) error in q+ and O(h^2) in a+); linearly implicit;
// neither symmetric (the carried a+ is not a function of q+, and the guess breaks time reversal) nor symplectic.
#include <memory>
#include <nlohmann/json.hpp>
#include <string>

#include "core/errors.hpp"
#include "methods/zhang_skeel/method_info.hpp"
#include "methods/zhang_skeel/newmark_form.hpp"
#include "methods/zhang_skeel/params.hpp"
#include "methods/zhang_skeel/symmetric_solver.hpp"
#include "methods/zhang_skeel/zhang_skeel.hpp"

namespace gib::zhang_skeel {
namespace {

enum class Guess { q_k, a_k, zero };

Guess guess_from(const Json& params) {
  if (!params.is_object() || !params.contains("guess")) return Guess::q_k;
  const Json& g = params.at("guess");
  if (g == "q_k") return Guess::q_k;
  if (g == "a_k") return Guess::a_k;
  if (g == "zero") return Guess::zero;
  throw InputError("method newmark_1iter: parameter guess must be \"q_k\", \"a_k\" or \"zero\", got " + g.dump());
}

class OneNewtonIteration {
 public:
  OneNewtonIteration(const NewtonianModel& model, double beta, Guess guess)
      : model_(model), beta_(beta), guess_(guess), solver_(model, Curvature::full_hessian), mass_inverse_(model) {}

  bool next(const NewtonianState& s, const Eigen::VectorXd& a, const Eigen::VectorXd& y_tilde, double h,
            Eigen::VectorXd& a_next, Eigen::VectorXd& q_next, OpCounters& c) {
    const double bh2 = beta_ * h * h;
    c.record_nonlinear_step(1);
    if (bh2 == 0.0) return explicit_step(y_tilde, a_next, q_next, c);
    start_offset(s, a, h, bh2);
    y0_ = y_tilde + d_;
    model_.gradient(y0_, grad_);
    ++c.force_evals;
    if (!solver_.assemble(y0_, bh2)) return false;
    solver_.curvature_times(d_, rhs_);
    rhs_ -= grad_;
    if (!solver_.solve(rhs_, a_next, c)) return false;
    q_next = y_tilde + bh2 * a_next;
    return true;
  }

 private:
  // d = y0 - y_tilde.
  void start_offset(const NewtonianState& s, const Eigen::VectorXd& a, double h, double bh2) {
    switch (guess_) {
      case Guess::q_k: d_ = -(h * s.v + (0.5 * h * h * (1.0 - 2.0 * beta_)) * a); break;
      case Guess::a_k: d_ = bh2 * a; break;
      case Guess::zero: d_.setZero(a.size()); break;
    }
  }
  bool explicit_step(const Eigen::VectorXd& y_tilde, Eigen::VectorXd& a_next, Eigen::VectorXd& q_next, OpCounters& c) {
    model_.gradient(y_tilde, grad_);
    ++c.force_evals;
    mass_inverse_.apply(-grad_, a_next);
    q_next = y_tilde;
    return true;
  }

  const NewtonianModel& model_;  // owned by the problem; outlives the stepper
  double beta_;
  Guess guess_;
  SymmetricSolver solver_;
  MassInverse mass_inverse_;
  Eigen::VectorXd d_, y0_, grad_, rhs_;
};

}  // namespace

MethodInfo newmark_1iter() {
  MethodInfo m = family_method("newmark_1iter", "Newmark (one Newton iteration)",
                               "Tao and Owhadi 2014 sec. 4.1 (linearly-implicit Newmark); Newmark 1959",
                               second_order(/*implicit=*/false, /*symmetric=*/false, /*symplectic=*/false));
  m.default_params = beta_default_params();
  (*m.default_params)["guess"] = "q_k";
  m.newtonian = [](const NewtonianModel& model, const Json& params) -> std::unique_ptr<NewtonianStepper> {
    const double beta = beta_from(params, "newmark_1iter");
    return std::make_unique<NewmarkStepper<OneNewtonIteration>>(model, beta, guess_from(params));
  };
  return m;
}

}  // namespace gib::zhang_skeel
