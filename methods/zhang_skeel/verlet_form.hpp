// Scheme (21) of Tao-Owhadi (Theorem 2.4, spec 2.7), the common form of velocity Verlet, Z&S, Z&Ss, Integrator 5 and
// push-forward Newmark:
//   x+ = x + h v + h^2/2 f(x),   v+ = v + h/2 (f(x) + f(x+)),
// where each method has its own "force" f (an acceleration). f depends on the step only through h^2 (and h^4), so
// the scheme is symmetric, and symplectic when M Df is symmetric (Lemma 2.1, spec A8).
//
// f(x) of the step's end is cached and reused at the start of the next step, keyed on the bits of x and on |h|
// (f is even in h): a caller that moves x or changes h in between (a composition with substeps gamma_i h, some
// negative; the symmetry check's fresh Phi_{-h}) gets f recomputed at the incoming x for this h, so the step stays
// a one-step map of (x, v) alone. A Force provides
//   static constexpr bool kDependsOnStep;   // false for velocity Verlet: f = -M^-1 grad V
//   bool evaluate(const Eigen::VectorXd& x, double h, Eigen::VectorXd& f, OpCounters& c);   // false: solver failed
#pragma once

#include <Eigen/Core>
#include <cmath>
#include <utility>

#include "core/method.hpp"

namespace gib::zhang_skeel {

template <class Force> class VerletFormStepper final : public NewtonianStepper {
 public:
  template <class... Args>
  explicit VerletFormStepper(Args&&... args) : force_(std::forward<Args>(args)...) {}

  StepStatus step(NewtonianState& s, double h, OpCounters& c) override {
    if (!cached_at(s.q, h)) {
      if (!force_.evaluate(s.q, h, f_, c)) return failed(c);
      remember(s.q, h);
    }
    x_next_ = s.q + h * s.v + (0.5 * h * h) * f_;
    if (!force_.evaluate(x_next_, h, f_next_, c)) return failed(c);
    s.v += (0.5 * h) * (f_ + f_next_);
    s.q = x_next_;
    f_.swap(f_next_);
    remember(s.q, h);
    return StepStatus::ok;
  }

  void reset() override { cached_ = false; }

 private:
  bool cached_at(const Eigen::VectorXd& x, double h) const {
    return cached_ && x.size() == key_x_.size() && x == key_x_ && (!Force::kDependsOnStep || std::abs(h) == key_h_);
  }
  void remember(const Eigen::VectorXd& x, double h) {
    key_x_ = x;
    key_h_ = std::abs(h);
    cached_ = true;
  }
  StepStatus failed(OpCounters& c) {
    cached_ = false;
    ++c.solver_failures;
    return StepStatus::solver_failed;
  }

  Force force_;
  Eigen::VectorXd f_, f_next_, x_next_, key_x_;
  double key_h_ = 0;
  bool cached_ = false;
};

}  // namespace gib::zhang_skeel
