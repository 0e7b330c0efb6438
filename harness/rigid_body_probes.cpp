#include "harness/rigid_body_probes.hpp"

#include <algorithm>
#include <cmath>

#include "core/so3.hpp"

namespace gib::rigid_body_probes {
namespace {

bool one_step(const MethodInfo& m, const RigidBodyModel& model, const Json& params, RigidBodyState& x, double h) {
  auto s = m.rigid_body(model, params);
  s->reset();
  OpCounters c;
  return s->step(x, h, c) == StepStatus::ok && x.R.allFinite() && x.Pi.allFinite();
}

// d Pi'/d Pi at (R, Pi) by central differences, Richardson-extrapolated (steps 1e-3 and 5e-4 relative to |Pi|):
// O(eps^4) truncation, about 1e-13 round-off.
bool momentum_jacobian(const MethodInfo& m, const RigidBodyModel& model, const Json& params, const RigidBodyState& x,
                       double h, Mat3& D) {
  const double scale = std::max(1.0, x.Pi.norm());
  const auto columns = [&](double e, Mat3& out) {
    for (int j = 0; j < 3; ++j) {
      RigidBodyState plus = x, minus = x;
      plus.Pi(j) += e * scale;
      minus.Pi(j) -= e * scale;
      if (!one_step(m, model, params, plus, h) || !one_step(m, model, params, minus, h)) return false;
      out.col(j) = (plus.Pi - minus.Pi) / (2 * e * scale);
    }
    return true;
  };
  Mat3 coarse, fine;
  if (!columns(1e-3, coarse) || !columns(0.5e-3, fine)) return false;
  D = (4 * fine - coarse) / 3;
  return true;
}

void keep_max(double& acc, double v) { acc = std::isnan(acc) ? v : std::max(acc, v); }

}  // namespace

Probes probe(const MethodInfo& m, const RigidBodyModel& model, const Json& params, const std::vector<RigidBodyState>& points,
             double h) {
  Probes r;
  const bool torque_free = model.potential() == nullptr;
  if (!torque_free) r.notes.emplace_back("poisson: the body has a torque; its momentum map depends on R");
  bool failed = false;
  for (const RigidBodyState& x : points) {
    RigidBodyState y = x;
    bool ok = one_step(m, model, params, y, h);
    const RigidBodyState image = y;
    y.Pi = -y.Pi;
    ok = ok && one_step(m, model, params, y, h);
    y.Pi = -y.Pi;
    if (ok) keep_max(r.reversibility, (y.R - x.R).norm() + (y.Pi - x.Pi).norm()); else failed = true;
    if (!torque_free) continue;
    Mat3 D;
    if (!momentum_jacobian(m, model, params, x, h, D)) {
      failed = true;
      continue;
    }
    const Mat3 J = so3::hat(x.Pi), J_image = so3::hat(image.Pi);
    keep_max(r.poisson, (D * J * D.transpose() - J_image).norm());
    keep_max(r.poisson_printed, (D.transpose() * J * D - J_image).norm());
  }
  if (failed) r.notes.emplace_back("a probe's step failed or left the finite numbers at some point; its value is over the others");
  return r;
}

}  // namespace gib::rigid_body_probes
