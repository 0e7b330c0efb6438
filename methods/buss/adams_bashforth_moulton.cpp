// Adams-Bashforth-Moulton (spec 5.11, the "natural" reading; the paper's numbers are not reproduced):
//   predict  Omega_p   = R_{h (55 w_i - 59 w_{i-1} + 37 w_{i-2} - 9 w_{i-3}) / 24} Omega_i
//   correct  Omega_i+1 = R_{h (9 w(Omega_p) + 19 w_i - 5 w_{i-1} + w_{i-2}) / 24} Omega_i
// with world angular velocities w = Omega J^-1 Omega^T L (world frame: the history must not rotate with
// the body), applied on the body side through nu_bar = R_i^T w_bar (spec 4.1). The first three steps (and
// the first after reset(), a change of h or a state this stepper did not write) are rotation-vector RK
// steps (spec 5.10). Fourth order in Euclidean space, but the combination has no Magnus commutator term:
// order 2 on SO(3).
// Cost per step once started: 2 angular-velocity evaluations (w_i and w(Omega_p)), 2 rotations.
#include "methods/buss/adams_bashforth_moulton.hpp"

#include <array>
#include <cstdint>
#include <memory>

#include "methods/buss/body_update.hpp"
#include "methods/buss/rotation_vector_rk.hpp"

namespace gib::buss {
namespace {

constexpr std::array<double, 4> kBashforth = {55.0 / 24, -59.0 / 24, 37.0 / 24, -9.0 / 24};
constexpr std::array<double, 4> kMoulton = {9.0 / 24, 19.0 / 24, -5.0 / 24, 1.0 / 24};  // w_p, w_i, w_i-1, w_i-2

class AbmStepper final : public HistoryStepper {
 public:
  explicit AbmStepper(const RigidBodyModel& model) : model_(model) {}

  StepStatus step(RigidBodyState& x, double h, OpCounters& c) override {
    if (!same_bits(h, h_) || !same_bits(x, last_)) history_ = 0;
    step_continued(x, h, c);
    last_ = x;
    h_ = h;
    return StepStatus::ok;
  }
  StepStatus step_continued(RigidBodyState& x, double h, OpCounters& c) override {
    ++c.rhs_evals;
    const Vec3 nu = model_.angular_velocity(x.Pi);
    push(x.R * nu);
    if (history_ < 4)
      rk_rotvec_step(x, model_.inverse_inertia(), nu, h, c);
    else
      pece(x, h, c);
    return StepStatus::ok;
  }
  Advanced advance(RigidBodyState& x, double h, std::int64_t n, OpCounters& c) override {
    return advance_continuing(*this, x, h, n, c);
  }

  void reset() override { history_ = 0; }
  void continue_from(const RigidBodyState& x) override { last_ = x; }

 private:
  // w_[0] = w_i (newest), w_[3] = w_{i-3}.
  void push(const Vec3& w) {
    for (std::size_t k = 3; k > 0; --k) w_[k] = w_[k - 1];
    w_[0] = w;
    if (history_ < 4) ++history_;
  }

  void pece(RigidBodyState& x, double h, OpCounters& c) {
    Vec3 w_pred = Vec3::Zero();
    for (std::size_t k = 0; k < 4; ++k) w_pred += kBashforth[k] * w_[k];
    // Omega_p = Omega_i exp(u): its world angular velocity is Omega_i exp(u) J^-1 exp(u)^T Pi_i.
    const Vec3 u = h * (x.R.transpose() * w_pred);
    const Vec3 nu_p = rotate_forward(u, model_.angular_velocity(rotate_back(u, x.Pi)));
    ++c.exp_evals;
    ++c.rhs_evals;
    Vec3 w_corr = kMoulton[0] * (x.R * nu_p);
    for (std::size_t k = 1; k < 4; ++k) w_corr += kMoulton[k] * w_[k - 1];
    rotate_body(x, h * (x.R.transpose() * w_corr));
    ++c.exp_evals;
  }

  const RigidBodyModel& model_;  // owned by the problem; outlives the stepper
  std::array<Vec3, 4> w_{};
  int history_ = 0;
  RigidBodyState last_;
  double h_ = 0;
};

}  // namespace

MethodInfo adams_bashforth_moulton() {
  MethodInfo m = buss_method_info("buss_abm", "Buss AB-AM (AB4/AM4)",
                                  "Buss 2001 sec. 6, Adams-Bashforth/Adams-Moulton; natural reading of spec 5.11 "
                                  "(the paper's numbers are not reproducible)",
                                  2);
  m.rigid_body = [](const RigidBodyModel& model, const Json& /*params: none*/) -> std::unique_ptr<RigidBodyStepper> {
    return std::make_unique<AbmStepper>(model);
  };
  return m;
}

}  // namespace gib::buss
