#include "problems/common/r33_potential.hpp"

#include <cmath>
#include <sstream>

#include "core/errors.hpp"
#include "core/user_input.hpp"

namespace gib {

Vec3 R33Potential::body_torque(const Mat3& R) const {
  return profile(R(2, 2)).df * Vec3(R(2, 1), -R(2, 0), 0.0);
}

Mat3 R33Potential::body_torque_jacobian(const Mat3& R) const {
  const R33Profile p = profile(R(2, 2));
  const Vec3 gamma = R.row(2).transpose();
  const Vec3 g_cross_e3(gamma.y(), -gamma.x(), 0.0);
  return -p.d2f * g_cross_e3 * g_cross_e3.transpose() - p.df * so3::hat(Vec3(0.0, 0.0, 1.0)) * so3::hat(gamma);
}

namespace {
Mat3 e33(double value) {
  Mat3 m = Mat3::Zero();
  m(2, 2) = value;
  return m;
}
}  // namespace

Mat3 R33Potential::euclidean_gradient(const Mat3& R) const { return e33(profile(R(2, 2)).df); }

Mat3 R33Potential::euclidean_hessian_apply(const Mat3& R, const Mat3& a) const {
  return e33(profile(R(2, 2)).d2f * a(2, 2));
}

Mat3 R33Potential::euclidean_third_contracted(const Mat3& R, const Mat3& a) const {
  return e33(profile(R(2, 2)).d3f * a(2, 2) * a(2, 2));
}

namespace {

class UniformGravity final : public R33Potential {
 public:
  explicit UniformGravity(double weight) : w_(weight) {}
  R33Profile profile(double r33) const override { return {w_ * r33, w_, 0.0, 0.0}; }
  bool uniform_field() const override { return true; }

 private:
  double w_;
};

class CoulombWall final : public R33Potential {
 public:
  CoulombWall(double k, double eps, double offset, double sign) : k_(k), eps_(eps), offset_(offset), sign_(sign) {}
  R33Profile profile(double r33) const override {
    const double r = offset_ + r33;
    const double r2 = r * r, r10 = std::pow(r, 10);
    // f''' = d/dr (2k/r^3 - 110 eps/r^12) = -6k/r^4 + 1320 eps/r^13.
    return {sign_ * (k_ / r - eps_ / r10), sign_ * (-k_ / r2 + 10 * eps_ / (r10 * r)),
            sign_ * (2 * k_ / (r2 * r) - 110 * eps_ / (r10 * r2)),
            sign_ * (-6 * k_ / (r2 * r2) + 1320 * eps_ / (r10 * r2 * r))};
  }

 private:
  double k_, eps_, offset_, sign_;
};

}  // namespace

std::shared_ptr<const R33Potential> uniform_gravity_potential(double weight) {
  if (!std::isfinite(weight)) throw InputError("uniform gravity: weight m g l must be finite");
  return std::make_shared<UniformGravity>(weight);
}

std::shared_ptr<const R33Potential> coulomb_wall_potential(double k, double eps, double offset, double sign) {
  if (!(offset > 1) || !std::isfinite(offset)) {
    std::ostringstream msg;
    msg << "coulomb wall: offset must be > 1 so that r = offset + R33 stays positive, got " << number_text(offset);
    throw InputError(msg.str());
  }
  if (!std::isfinite(k) || !std::isfinite(eps) || !(eps >= 0)) throw InputError("coulomb wall: k must be finite and eps >= 0");
  if (sign != 1.0 && sign != -1.0) throw InputError("coulomb wall: sign must be +1 (printed torque) or -1 (flipped)");
  return std::make_shared<CoulombWall>(k, eps, offset, sign);
}

}  // namespace gib
