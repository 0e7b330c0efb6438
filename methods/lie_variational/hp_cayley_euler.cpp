#include "methods/lie_variational/hp_cayley_euler.hpp"

#include <Eigen/LU>
#include <algorithm>
#include <cmath>
#include <memory>
#include <nlohmann/json.hpp>

#include "core/errors.hpp"

namespace gib::lie_variational {

namespace hp_cayley {

Vec3 right_side(const Vec3& inertia, const Vec3& omega_k, const Vec3& torque, double h) {
  const Vec3 pi = inertia.cwiseProduct(omega_k);
  return pi - 0.5 * h * omega_k.cross(pi) + 0.25 * h * h * omega_k * omega_k.dot(pi) + h * torque;
}

Vec3 left_side(const Vec3& inertia, const Vec3& omega, double h) {
  const Vec3 pi = inertia.cwiseProduct(omega);
  return pi + 0.5 * h * omega.cross(pi) + 0.25 * h * h * omega * omega.dot(pi);
}

Solve solve_general(const Vec3& inertia, const Vec3& b, double h, double tol, int max_iter) {
  Solve s;
  s.omega = b.cwiseQuotient(inertia);  // the h -> 0 solution
  const Mat3 I = inertia.asDiagonal();
  while (s.iterations < max_iter) {
    ++s.iterations;
    const Vec3 pi = inertia.cwiseProduct(s.omega);
    const Mat3 dF = I + 0.5 * h * (so3::hat(s.omega) * I - so3::hat(pi)) +
                    0.25 * h * h * (s.omega.dot(pi) * Mat3::Identity() + 2.0 * s.omega * pi.transpose());
    const Vec3 dx = dF.partialPivLu().solve(b - left_side(inertia, s.omega, h));
    s.omega += dx;
    if (!s.omega.allFinite()) return s;
    if (dx.norm() <= tol * std::max(1.0, s.omega.norm())) {
      s.converged = true;
      return s;
    }
  }
  return s;
}

Solve solve_isotropic(double c, const Vec3& b, double h, double tol, int max_iter) {
  Solve s;
  const double beta = b.norm() / c, q = 0.25 * h * h;
  if (beta == 0) {
    s.converged = true;
    return s;
  }
  double r = beta;  // phi(beta) = q beta^3 >= 0: Newton from the right decreases monotonically to the root
  while (s.iterations < max_iter) {
    ++s.iterations;
    const double ds = (q * r * r * r + r - beta) / (3 * q * r * r + 1);
    r -= ds;
    if (!std::isfinite(r)) return s;
    if (std::abs(ds) <= tol * std::max(1.0, r)) {
      s.converged = true;
      break;
    }
  }
  s.omega = (r / b.norm()) * b;
  return s;
}

}  // namespace hp_cayley

namespace {

class HpCayleyEulerStepper final : public RigidBodyStepper {
 public:
  HpCayleyEulerStepper(const RigidBodyModel& model, double tol, int max_iter)
      : model_(model), tol_(tol), max_iter_(max_iter),
        isotropic_(model.inertia()(0) == model.inertia()(1) && model.inertia()(1) == model.inertia()(2)) {}

  StepStatus step(RigidBodyState& x, double h, OpCounters& c) override {
    ++c.rhs_evals;
    Vec3 torque = Vec3::Zero();
    if (!model_.torque_free()) {
      torque = model_.body_torque(x.R);
      ++c.force_evals;
    }
    const Vec3& I = model_.inertia();
    const Vec3 b = hp_cayley::right_side(I, model_.angular_velocity(x.Pi), torque, h);
    const hp_cayley::Solve s = isotropic_ ? hp_cayley::solve_isotropic(I(0), b, h, tol_, max_iter_)
                                          : hp_cayley::solve_general(I, b, h, tol_, max_iter_);
    c.record_nonlinear_step(s.iterations);
    if (!isotropic_) c.linear_solves += s.iterations;
    if (!s.converged) {
      ++c.solver_failures;
      return StepStatus::solver_failed;
    }
    x.R = x.R * so3::cayley(Vec3(h * s.omega));
    ++c.cayley_evals;
    x.Pi = I.cwiseProduct(s.omega);
    return StepStatus::ok;
  }

 private:
  const RigidBodyModel& model_;  // owned by the problem; outlives the stepper
  double tol_;
  int max_iter_;
  bool isotropic_;
};

}  // namespace

MethodInfo hp_cayley_euler() {
  MethodInfo m;
  m.id = "hp_cayley_euler";
  m.display_name = "HP variational Euler (Cayley)";
  m.citation = "Bou-Rabee & Marsden 2009 (Hamilton-Pontryagin Lie-group integrators); Tao & Owhadi 2014 eqs (34), "
               "(35), the section 4.5 benchmark (spec 2.10)";
  m.family = "lie_variational";
  m.claims.order = 1;
  m.claims.implicit = true;
  m.claims.symplectic = true;
  m.claims.stays_on_group = true;
  m.default_params = {{"tol", 1e-14}, {"max_iter", 50}};
  m.rigid_body = [](const RigidBodyModel& model, const Json& params) -> std::unique_ptr<RigidBodyStepper> {
    const Json tol = params.value("tol", Json(1e-14)), max_iter = params.value("max_iter", Json(50));
    if (!tol.is_number() || !(tol.get<double>() > 0) || !std::isfinite(tol.get<double>()))
      throw InputError("hp_cayley_euler: tol must be a positive number, got " + tol.dump());
    if (!max_iter.is_number_integer() || max_iter.get<long long>() < 1 || max_iter.get<long long>() > 1000000)
      throw InputError("hp_cayley_euler: max_iter must be an integer in [1, 1e6], got " + max_iter.dump());
    return std::make_unique<HpCayleyEulerStepper>(model, tol.get<double>(), max_iter.get<int>());
  };
  return m;
}

}  // namespace gib::lie_variational
