// Buss's energy correction (paper sec. 4; spec 5.12 with the fix of spec 9 A4), in body coordinates.
//
// Poinsot: rho = nu / sqrt(nu . J nu) lies on the inertial ellipsoid rho . J rho = 1, whose normal J rho is
// parallel to the body momentum. Energy E and |L| fix the polhode as the intersection with
// sum J_k^2 rho_k^2 = |L|^2 / (2E). The correction moves rho to the point rho' of the correct polhode on the
// hyperboloid sum alpha_k rho_k^2 = const through rho (alpha frozen at rho), which crosses the polhodes at
// right angles; then it rotates the body so that its momentum points along J rho'. For s_k = rho'_k^2:
//   [ J1    J2    J3   ]       [ 1             ]
//   [ J1^2  J2^2  J3^2 ] s  =  [ |L|^2 / (2 E0) ]
//   [ a1    a2    a3   ]       [ sum a_k rho_k^2 ]
// with a1 = J2 J3 (J3 - J2) rho2^2 rho3^2 and cyclically. With c = (row 1) x (row 2) = (J2 J3 (J3 - J2), ...),
// a_k = c_k * (product of the other two rho^2), so det = a . c = sum c_k^2 (...) >= 0, zero exactly when the
// body turns about a principal axis. The system is solved for s - rho^2 (right-hand side (d1, d2, 0),
// adjugate formula): a zero rho_k^2 (t = 0 on the buss2001 preset) then stays exactly zero instead of
// turning into a rounding-sized negative number that would count as a failure.
//
// |L| is taken from the current Pi, not captured at the start: the correction only rotates Pi, so this
// makes the corrected energy exactly E0 whatever the base does with |Pi| (for Buss's methods |Pi| = |L0|
// to round-off anyway). E0 is captured at the first step after reset().
#include "methods/buss/energy_correction.hpp"

#include <cmath>
#include <cstdint>
#include <memory>

#include "core/errors.hpp"
#include "methods/buss/body_update.hpp"

namespace gib::buss {
namespace {

// det below this fraction of |alpha| |c| (the cosine between alpha and c) counts as singular: the
// correction along the polhode would be amplified by more than 1e12.
constexpr double kSingularCosine = 1e-12;

// The rotation E with E u = v for unit vectors u, v (Rodrigues with sin = |u x v|, cos = u . v):
// E = (u . v) I + hat(u x v) + (u x v)(u x v)^T / (1 + u . v).
Mat3 rotation_onto(const Vec3& u, const Vec3& v) {
  const Vec3 a = u.cross(v);
  const double c = u.dot(v);
  Mat3 E = so3::hat(a) + (a * a.transpose()) / (1.0 + c);
  E.diagonal().array() += c;
  return E;
}

// s = rho'^2 on the polhode of energy E0 (see the top of the file); false when singular.
bool solve_squares(const Vec3& J, const Vec3& rho2, double target, Vec3& s) {
  const Vec3 J2 = J.cwiseAbs2();
  const Vec3 c(J(1) * J(2) * (J(2) - J(1)), J(0) * J(2) * (J(0) - J(2)), J(0) * J(1) * (J(1) - J(0)));
  const Vec3 alpha(c(0) * rho2(1) * rho2(2), c(1) * rho2(0) * rho2(2), c(2) * rho2(0) * rho2(1));
  const double det = alpha.dot(c);
  if (!(det > kSingularCosine * alpha.norm() * c.norm())) return false;
  const double d1 = 1.0 - J.dot(rho2);  // round-off only: rho is on the ellipsoid
  const double d2 = target - J2.dot(rho2);
  s = rho2 + (d1 * J2.cross(alpha) + d2 * alpha.cross(J)) / det;
  return true;
}

}  // namespace

CorrectionOutcome correct_energy(RigidBodyState& x, const Vec3& inertia, double E0) {
  const Vec3 nu = inertia.cwiseInverse().cwiseProduct(x.Pi);
  const double two_E = nu.dot(x.Pi);  // nu . J nu
  const double pi2 = x.Pi.squaredNorm();
  if (!(two_E > 0) || !(E0 > 0) || !std::isfinite(two_E * pi2)) return CorrectionOutcome::invalid;
  const Vec3 rho = nu / std::sqrt(two_E);
  Vec3 s;
  if (!solve_squares(inertia, rho.cwiseAbs2(), pi2 / (2 * E0), s)) return CorrectionOutcome::singular;
  if (!(s.minCoeff() >= 0)) return CorrectionOutcome::negative_square;
  Vec3 rho_new;
  for (int k = 0; k < 3; ++k) rho_new(k) = std::copysign(std::sqrt(s(k)), rho(k));
  const Vec3 normal = inertia.cwiseProduct(rho_new);  // body normal of the ellipsoid at rho'
  // Body form of "rotate the world normal R n onto L = R Pi": R <- R E with E n = Pi (directions), and
  // Pi <- E^T Pi so that R Pi is unchanged.
  const Mat3 E = rotation_onto(normal.normalized(), x.Pi / std::sqrt(pi2));
  if (!E.allFinite()) return CorrectionOutcome::invalid;
  rotate_body_by(x, E);
  return CorrectionOutcome::applied;
}

namespace {

class EnergyCorrectedStepper final : public RigidBodyStepper {
 public:
  EnergyCorrectedStepper(std::unique_ptr<RigidBodyStepper> base, const RigidBodyModel& model)
      : base_(std::move(base)), history_(dynamic_cast<HistoryStepper*>(base_.get())), model_(model) {}

  StepStatus step(RigidBodyState& x, double h, OpCounters& c) override {
    capture_target(x);
    const StepStatus st = corrected_step(x, h, c, false);
    // Multistep bases continue from the corrected state (Buss applies the correction every step).
    if (history_ != nullptr) history_->continue_from(x);
    return st;
  }

  // The loop of step() with the base's history kept here: its bit-for-bit check of the state it is handed runs
  // once, and the corrected state is recorded once, at the end.
  Advanced advance(RigidBodyState& x, double h, std::int64_t n, OpCounters& c) override {
    if (n <= 0) return {StepStatus::ok, 0};
    capture_target(x);
    StepStatus st = corrected_step(x, h, c, false);
    std::int64_t i = 1;
    for (; i < n && st == StepStatus::ok; ++i) st = corrected_step(x, h, c, history_ != nullptr);
    if (history_ != nullptr) history_->continue_from(x);
    return {st, i};
  }

  void reset() override {
    base_->reset();
    have_target_ = false;
  }

 private:
  void capture_target(const RigidBodyState& x) {
    if (!have_target_) {
      E0_ = model_.kinetic_energy(x.Pi);
      have_target_ = true;
    }
  }

  // continued: the base's history stepper continues from x (see HistoryStepper::step_continued).
  StepStatus corrected_step(RigidBodyState& x, double h, OpCounters& c, bool continued) {
    const StepStatus st = continued ? history_->step_continued(x, h, c) : base_->step(x, h, c);
    if (st != StepStatus::ok) return st;
    ++c.rhs_evals;  // nu = J^-1 Pi of the corrected state
    ++c.linear_solves;
    if (correct_energy(x, model_.inertia(), E0_) != CorrectionOutcome::applied) {
      ++c.solver_failures;  // left uncorrected for this step (the paper only sketches a remedy)
      return StepStatus::ok;
    }
    ++c.exp_evals;  // the correcting rotation
    return StepStatus::ok;
  }

  std::unique_ptr<RigidBodyStepper> base_;
  HistoryStepper* history_;  // base_ when it keeps history, else null
  const RigidBodyModel& model_;  // owned by the problem; outlives the stepper
  double E0_ = 0;
  bool have_target_ = false;
};

void set_claim(std::vector<InvariantClaim>& claims, Invariant inv) {
  std::erase_if(claims, [inv](const InvariantClaim& c) { return c.invariant == inv; });
  claims.push_back({inv, Preservation::exact, Applies::torque_free});
}

}  // namespace

MethodInfo energy_corrected(MethodInfo base, int order, std::string why_order, int finite_time_order) {
  if (!base.rigid_body) {
    std::string msg = "energy_corrected: method ";
    msg += base.id;
    msg += " has no rigid-body stepper";
    throw InputError(msg);
  }
  MethodInfo m = std::move(base);
  m.id += "_ec";
  m.display_name += " + EC";
  m.citation += "; energy correction: Buss 2001 sec. 4 (spec 5.12); order: ";
  m.citation += why_order;
  m.claims.order = order;
  m.claims.finite_time_order = finite_time_order;
  m.claims.symplectic = false;  // a projection after each step: Buss, "presumably destroys" it
  m.claims.symmetric = false;   // projecting toward E0 after the step is not time-symmetric
  set_claim(m.claims.invariants, Invariant::energy);
  if (m.claims.stays_on_group) {
    set_claim(m.claims.invariants, Invariant::casimir);
    set_claim(m.claims.invariants, Invariant::spatial_momentum);
  }
  m.torque_free_only = true;  // the target is the initial kinetic energy
  m.particles = nullptr;
  m.newtonian = nullptr;
  m.rigid_body = [base_factory = m.rigid_body](const RigidBodyModel& model,
                                               const Json& params) -> std::unique_ptr<RigidBodyStepper> {
    return std::make_unique<EnergyCorrectedStepper>(base_factory(model, params), model);
  };
  return m;
}

}  // namespace gib::buss
