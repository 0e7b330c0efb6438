#include "problems/dipolar_spheres/initial_state.hpp"

#include <cmath>
#include <numbers>
#include <sstream>

#include "core/errors.hpp"
#include "core/user_input.hpp"

namespace gib::dipolar_spheres {
namespace {

constexpr int kMaxPlacementTries = 100000;

Vec3 draw_position(const DrawSettings& s, random::Stream& rng) {
  Vec3 q = Vec3::Zero();
  for (int k = 0; k < s.dimension; ++k)
    q(k) = s.positions == PositionLaw::uniform ? rng.uniform(-s.box, s.box) : s.box * rng.normal();
  return q;
}

bool clear_of_earlier(const Eigen::Matrix3Xd& q, int count, const Vec3& candidate, double min_distance) {
  for (int j = 0; j < count; ++j)
    if ((q.col(j) - candidate).squaredNorm() < min_distance * min_distance) return false;
  return true;
}

Eigen::Matrix3Xd draw_positions(const DrawSettings& s, random::Stream& rng) {
  Eigen::Matrix3Xd q(3, s.n);
  for (int i = 0; i < s.n; ++i) {
    int tries = 0;
    Vec3 candidate = draw_position(s, rng);
    while (!clear_of_earlier(q, i, candidate, s.min_start_distance)) {
      if (++tries == kMaxPlacementTries) {
        std::ostringstream msg;
        msg << "dipolar_spheres: cannot place particle " << i + 1 << " of " << s.n
            << " at least min_start_distance = " << number_text(s.min_start_distance) << " from the others in box "
            << number_text(s.box) << " ("
            << kMaxPlacementTries << " tries); raise box or lower N or min_start_distance";
        throw InputError(msg.str());
      }
      candidate = draw_position(s, rng);
    }
    q.col(i) = candidate;
  }
  return q;
}

Mat3 rotation_z(double theta) {
  Mat3 r = Mat3::Identity();
  r(0, 0) = std::cos(theta);
  r(0, 1) = -std::sin(theta);
  r(1, 0) = std::sin(theta);
  r(1, 1) = std::cos(theta);
  return r;
}

}  // namespace

// With positive diag(R), Q = (q1, q2, q3) is Gram-Schmidt on the columns and q3 = +-(q1 x q2); flipping q3
// when det Q = -1 (a fixed right factor, which keeps the Haar measure) always leaves q3 = q1 x q2, so the
// third Gaussian column is drawn (the stream stays that of a 3x3 QR) but does not enter.
Mat3 haar_rotation_qr(random::Stream& rng) {
  for (;;) {
    Mat3 a;
    for (int col = 0; col < 3; ++col)
      for (int row = 0; row < 3; ++row) a(row, col) = rng.normal();
    const Vec3 q1 = a.col(0).normalized();
    const Vec3 v = a.col(1) - q1.dot(a.col(1)) * q1;
    if (a.col(0).norm() == 0.0 || v.norm() == 0.0) continue;  // measure zero; redraw
    const Vec3 q2 = v.normalized();
    Mat3 q;
    q.col(0) = q1;
    q.col(1) = q2;
    q.col(2) = q1.cross(q2);
    return q;
  }
}

ParticlesState draw_initial_state(const DrawSettings& s, std::uint64_t seed) {
  random::Stream rng(seed);
  ParticlesState x;
  x.q = draw_positions(s, rng);
  x.Q.resize(static_cast<std::size_t>(s.n));
  for (auto& Q : x.Q) Q = s.dimension == 2 ? rotation_z(2 * std::numbers::pi * rng.uniform()) : haar_rotation_qr(rng);
  x.p = Eigen::Matrix3Xd::Zero(3, s.n);
  x.m = Eigen::Matrix3Xd::Zero(3, s.n);
  if (s.momentum_scale > 0) {
    for (int i = 0; i < s.n; ++i)
      for (int k = 0; k < s.dimension; ++k) x.p(k, i) = s.momentum_scale * rng.normal();
    const Vec3 mean = x.p.rowwise().mean();
    x.p.colwise() -= mean;
  }
  if (s.angular_momentum_scale > 0) {
    for (int i = 0; i < s.n; ++i)
      for (int k = s.dimension == 2 ? 2 : 0; k < 3; ++k) x.m(k, i) = s.angular_momentum_scale * rng.normal();
  }
  return x;
}

ParticlesState planar_pair_state(double separation, const std::array<double, 2>& angles_deg, const Vec3& mu_bar) {
  ParticlesState x;
  x.q = Eigen::Matrix3Xd::Zero(3, 2);
  x.q(0, 0) = -0.5 * separation;
  x.q(0, 1) = 0.5 * separation;
  x.p = Eigen::Matrix3Xd::Zero(3, 2);
  x.m = Eigen::Matrix3Xd::Zero(3, 2);
  const double body_angle = std::atan2(mu_bar(1), mu_bar(0));
  for (const double a : angles_deg) x.Q.push_back(rotation_z(a * std::numbers::pi / 180.0 - body_angle));
  return x;
}

bool positions_untouched_by_rejection(const DrawSettings& s, std::uint64_t seed) {
  DrawSettings plain = s;
  plain.min_start_distance = 0;
  random::Stream a(seed), b(seed);
  return draw_positions(s, a) == draw_positions(plain, b);
}

}  // namespace gib::dipolar_spheres
