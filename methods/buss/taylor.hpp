// Buss (2001) Taylor-type methods for the torque-free rigid body (spec 5.1-5.6): one rotation per step by
// an "average angular velocity" built from the angular velocity and its derivatives, evaluated in body
// coordinates (spec 4.2). Exposed here for the registry and for tests that build variants (the printed
// forms of eq. (9) and of the fourth-order average) from the same derivatives.
#pragma once

#include <string>

#include "core/method.hpp"

namespace gib::buss {

// World-frame derivatives of omega expressed in body coordinates: nu = J^-1 Pi, w_k = R^T omega^(k)
// (spec 4.2). Pitfall: w2 and w3 are NOT body-frame time derivatives of nu (R^T omega'' = nu'' + nu x nu').
struct BodyDerivatives {
  Vec3 nu, w1, w2, w3;
};

// The first `count` derivatives (0..3); the others are left zero. inv_inertia = diagonal of J^-1.
BodyDerivatives body_derivatives(const Vec3& inv_inertia, const Vec3& Pi, int count);

enum class TaylorKind { first, second, false_third, augmented_second, third, fourth };

// nu_bar(J^-1, Pi, h): the body average angular velocity of one step; the step is R <- R exp(h nu_bar).
using AverageVelocity = Vec3 (*)(const Vec3& inv_inertia, const Vec3& Pi, double h);

AverageVelocity average_velocity(TaylorKind k);

// A registered Taylor method: buss1, buss2, buss3false, buss2aug, buss3, buss4.
MethodInfo taylor_method(TaylorKind k);

// Any one-rotation body-increment method (tests use it for the printed, order-losing forms). Same
// claims and costs as the Taylor methods, with the given order.
MethodInfo body_increment_method(std::string id, std::string display_name, int order, AverageVelocity nu_bar);

}  // namespace gib::buss
