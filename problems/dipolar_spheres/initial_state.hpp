// Seeded initial configurations of dipolar spheres (Kjer spec 5.2, 7 items 15-17, 27), reproducible bit
// for bit from the seed (core/random.hpp builds every draw from the raw mt19937_64 stream).
//
// Order of the draws from one stream: positions particle by particle, then orientations, then linear
// momenta, then angular momenta (the last two only when their scale is positive).
//   positions      uniform on [-box, box]^d, or box x N(0, 1) per component ("gaussian", spec 5.2 variant);
//                  d = 2 puts every q_i in the plane z = 0. A particle closer than min_start_distance to an
//                  earlier one is redrawn (spec 6: a start below about 1.2 sigma gives a violent kick); the
//                  preset seeds draw no such pair, so their positions are the plain i.i.d. draw.
//   orientations   3D: Haar on SO(3) by QR of a 3x3 standard-normal matrix with positive diag(R), the third
//                  column flipped when det = -1; 2D: R_z(theta), theta uniform on [0, 2 pi).
//   momenta        p_i components N(0, momentum_scale^2), minus their mean (the centre of mass stays put);
//                  body m_i components N(0, angular_momentum_scale^2); 2D keeps p in the plane, m along z.
#pragma once

#include <array>
#include <cstdint>
#include <string>

#include "core/random.hpp"
#include "core/state.hpp"

namespace gib::dipolar_spheres {

enum class PositionLaw { uniform, gaussian };

struct DrawSettings {
  int n = 100;
  int dimension = 3;
  double box = 100.0;  // half-width (uniform) or standard deviation (gaussian)
  PositionLaw positions = PositionLaw::uniform;
  double min_start_distance = 1.5;
  double momentum_scale = 0.0;
  double angular_momentum_scale = 0.0;
};

// Throws InputError when no admissible position is found for some particle (box too small for N at
// min_start_distance).
ParticlesState draw_initial_state(const DrawSettings& s, std::uint64_t seed);

// Two particles at rest on the x axis, q_1 = (-separation/2, 0, 0) and q_2 = (separation/2, 0, 0), with
// planar dipoles mu_i = Q_i mu_bar at angles_deg[i] from +x (the direction from particle 1 to 2):
// Q_i = R_z(angle_i - atan2(mu_bar_y, mu_bar_x)). Kjer's Fig 3.12 rule is about such a pair; a drawn pair
// fixes one orientation difference per seed, this sets any. mu_bar needs an in-plane part (not checked here).
ParticlesState planar_pair_state(double separation, const std::array<double, 2>& angles_deg, const Vec3& mu_bar);

// Haar rotation by QR of a Gaussian matrix (spec 5.2).
Mat3 haar_rotation_qr(random::Stream& rng);

// Whether the plain i.i.d. draw of the positions has no pair closer than min_start_distance (so the
// rejection rule left the draw untouched).
bool positions_untouched_by_rejection(const DrawSettings& s, std::uint64_t seed);

}  // namespace gib::dipolar_spheres
