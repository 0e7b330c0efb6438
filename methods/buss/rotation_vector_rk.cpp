// Buss's "Runge-Kutta" (spec 5.10), world form
//   w1 = w(Omega_i), w2 = w(R_{h/2 w1} Omega_i), w3 = w(R_{h/2 w2} Omega_i), w4 = w(R_{h w3} Omega_i),
//   Omega_{i+1} = R_{h (w1 + 2 w2 + 2 w3 + w4)/6} Omega_i,   w(Omega) = Omega J^-1 Omega^T L,
// taken to body coordinates of step start: with v_k = R_i^T w_k and E = exp(c h v_{k-1}) (the stage
// rotation, body side), v_k = E J^-1 (E^T Pi_i). Only the stage momenta are rotated, never R.
// Averaging the angular velocities of rotations that do not commute misses the Magnus commutator
// h^2/12 [w', w]: order 2 on SO(3), whatever the RK weights.
#include "methods/buss/rotation_vector_rk.hpp"

#include <array>
#include <cmath>
#include <memory>
#include <nlohmann/json.hpp>

#include "core/errors.hpp"
#include "methods/buss/body_update.hpp"

namespace gib::buss {
namespace {

enum class Average { rotation_vector, quaternion };
constexpr std::array<double, 4> kWeights = {1.0 / 6, 2.0 / 6, 2.0 / 6, 1.0 / 6};
constexpr std::array<double, 3> kStageFraction = {0.5, 0.5, 1.0};

// Body angular velocities of the four stages, in the body frame of step start.
std::array<Vec3, 4> stage_velocities(const Vec3& inv_inertia, const Vec3& Pi, const Vec3& nu, double h, OpCounters& c) {
  std::array<Vec3, 4> v;
  v[0] = nu;
  for (std::size_t k = 1; k < 4; ++k) {
    const Vec3 u = (kStageFraction[k - 1] * h) * v[k - 1];
    v[k] = rotate_forward(u, inv_inertia.cwiseProduct(rotate_back(u, Pi)));
    ++c.exp_evals;
    ++c.rhs_evals;
  }
  return v;
}

// The quaternion of exp(u): (cos(t/2), sin(t/2) u/t), continuous in u for t < 2 pi.
Eigen::Vector4d quaternion_of(const Vec3& u) {
  const double half2 = u.squaredNorm() / 4;
  Eigen::Vector4d q;
  q(0) = std::cos(std::sqrt(half2));
  q.tail<3>() = (0.5 * so3::rodrigues_coefficients(half2).a) * u;
  return q;
}

// The normalised weighted mean of the quaternions of R_i exp(h v_k) is q(R_i) times that of exp(h v_k).
void quaternion_update(RigidBodyState& x, const std::array<Vec3, 4>& v, double h, OpCounters& c) {
  Eigen::Vector4d q = Eigen::Vector4d::Zero();
  for (std::size_t k = 0; k < 4; ++k) {
    q += kWeights[k] * quaternion_of(h * v[k]);
    ++c.exp_evals;
  }
  const Mat3 M = so3::matrix_from_quaternion<double>(q.normalized());
  rotate_body_by(x, M);
}

class RkStepper final : public RigidBodyStepper {
 public:
  RkStepper(const RigidBodyModel& model, Average a) : model_(model), average_(a) {}

  StepStatus step(RigidBodyState& x, double h, OpCounters& c) override {
    ++c.rhs_evals;
    const Vec3 nu = model_.angular_velocity(x.Pi);
    if (average_ == Average::rotation_vector) {
      rk_rotvec_step(x, model_.inverse_inertia(), nu, h, c);
    } else {
      quaternion_update(x, stage_velocities(model_.inverse_inertia(), x.Pi, nu, h, c), h, c);
    }
    return StepStatus::ok;
  }

 private:
  const RigidBodyModel& model_;  // owned by the problem; outlives the stepper
  Average average_;
};

Average average_from(const Json& p) {
  const Json& a = p.at("average");
  if (a == "rotation_vector") return Average::rotation_vector;
  if (a == "quaternion") return Average::quaternion;
  std::string msg = "buss_rk_rotvec parameter average=";
  msg += a.dump();
  msg += " must be \"rotation_vector\" or \"quaternion\"";
  throw InputError(msg);
}

}  // namespace

void rk_rotvec_step(RigidBodyState& x, const Vec3& inv_inertia, const Vec3& nu, double h, OpCounters& c) {
  const std::array<Vec3, 4> v = stage_velocities(inv_inertia, x.Pi, nu, h, c);
  Vec3 nu_bar = Vec3::Zero();
  for (std::size_t k = 0; k < 4; ++k) nu_bar += kWeights[k] * v[k];
  rotate_body(x, h * nu_bar);
  ++c.exp_evals;
}

MethodInfo rotation_vector_rk() {
  MethodInfo m = buss_method_info("buss_rk_rotvec", "Buss RK (rotation vector)",
                                  "Buss 2001 sec. 6, RK4 adapted to rotations; rotation-vector mean (spec 5.10, 9 A16)", 2);
  m.default_params = {{"average", "rotation_vector"}};
  m.rigid_body = [](const RigidBodyModel& model, const Json& params) -> std::unique_ptr<RigidBodyStepper> {
    return std::make_unique<RkStepper>(model, average_from(params));
  };
  return m;
}

}  // namespace gib::buss
