// Buss (2001) Taylor-type methods, orders 1-4 (spec 5.1-5.6), in body coordinates (spec 4.2).
//
// Buss builds the world average angular velocity omega_bar from omega and its world-frame derivatives
// (eqs. 5, 8, 9) and rotates Omega_{i+1} = R_{h omega_bar} Omega_i. Every term is made of cross products
// and I^-1, both rotation-equivariant, so nu_bar = R^T omega_bar is the same formula with nu, w1, w2, w3
// (the world derivatives expressed in body coordinates) and the diagonal J. The average matches the
// Magnus expansion Z = W0 + h/2 W0' + h^2/6 W0'' + h^2/12 [W0', W0] + h^3/24 W0''' + h^3/24 [W0'', W0]
// (spec 5.13) through the order of each method:
//   buss1       nu                                                          order 1
//   buss2       nu + h/2 w1                                                 order 2
//   buss3false  nu + h/2 w1 + h^2/6 w2           (no commutator term)       order 2
//   buss2aug    nu + h/2 w1 + h^2/12 w1 x nu                                order 2, small constant
//   buss3       nu + h/2 w1 + h^2/6 w2 + h^2/12 (w1 + h/3 w2) x nu          order 3 (h^3/36 term kept: spec 5.5)
//   buss4       buss3 without h^3/36, + h^3/24 w3 + h^3/24 w2 x nu          order 4 (spec 9 A1, A2 corrected)
// Cost counted per step: one evaluation of the angular velocity (the derivatives reuse it) and one rotation.
#include "methods/buss/taylor.hpp"

#include <memory>

#include "methods/buss/body_update.hpp"

namespace gib::buss {

BodyDerivatives body_derivatives(const Vec3& inv_inertia, const Vec3& Pi, int count) {
  BodyDerivatives d{inv_inertia.cwiseProduct(Pi), Vec3::Zero(), Vec3::Zero(), Vec3::Zero()};
  const Vec3& nu = d.nu;
  if (count < 1) return d;
  d.w1 = inv_inertia.cwiseProduct(Pi.cross(nu));  // (5): J^-1 (-nu x L_bd)
  if (count < 2) return d;
  const Vec3 nu_L = nu.cross(Pi);  // nu x L_bd, used by (8) and (9)
  // (8): w2 = nu x w1 + J^-1 (-w1 x L_bd + nu x (nu x L_bd))
  d.w2 = nu.cross(d.w1) + inv_inertia.cwiseProduct(Pi.cross(d.w1) + nu.cross(nu_L));
  if (count < 3) return d;
  // (9), corrected (spec 9 A1: 2 nu x w2, not 2 nu x w1):
  // w3 = 2 nu x w2 - nu x (nu x w1)
  //      + J^-1 (-w2 x L_bd + w1 x (nu x L_bd) + 2 nu x (w1 x L_bd) - nu x (nu x (nu x L_bd)))
  const Vec3 inner = Pi.cross(d.w2) + d.w1.cross(nu_L) + 2.0 * nu.cross(d.w1.cross(Pi)) - nu.cross(nu.cross(nu_L));
  d.w3 = 2.0 * nu.cross(d.w2) - nu.cross(nu.cross(d.w1)) + inv_inertia.cwiseProduct(inner);
  return d;
}

namespace {

Vec3 first(const Vec3& inv_inertia, const Vec3& Pi, double /*h*/) { return inv_inertia.cwiseProduct(Pi); }

Vec3 second(const Vec3& inv_inertia, const Vec3& Pi, double h) {
  const BodyDerivatives d = body_derivatives(inv_inertia, Pi, 1);
  return d.nu + (h / 2) * d.w1;
}

Vec3 false_third(const Vec3& inv_inertia, const Vec3& Pi, double h) {
  const BodyDerivatives d = body_derivatives(inv_inertia, Pi, 2);
  return d.nu + (h / 2) * d.w1 + (h * h / 6) * d.w2;
}

Vec3 augmented_second(const Vec3& inv_inertia, const Vec3& Pi, double h) {
  const BodyDerivatives d = body_derivatives(inv_inertia, Pi, 1);
  return d.nu + (h / 2) * d.w1 + (h * h / 12) * d.w1.cross(d.nu);
}

// (w1 + h/3 w2) estimates the mean of omega' over the step; its h^3/36 w2 x nu part is heuristic but the
// paper's tables need it (spec 5.5: without it the drift is about 5x larger on the test problem).
Vec3 third(const Vec3& inv_inertia, const Vec3& Pi, double h) {
  const BodyDerivatives d = body_derivatives(inv_inertia, Pi, 2);
  return d.nu + (h / 2) * d.w1 + (h * h / 6) * d.w2 + (h * h / 12) * (d.w1 + (h / 3) * d.w2).cross(d.nu);
}

// The printed "h^3/24 w2 + h^3/24 w1 x nu" (spec 9 A2) is not fourth order; this is the Magnus form.
Vec3 fourth(const Vec3& inv_inertia, const Vec3& Pi, double h) {
  const BodyDerivatives d = body_derivatives(inv_inertia, Pi, 3);
  const double h2 = h * h, h3 = h2 * h;
  return d.nu + (h / 2) * d.w1 + (h2 / 6) * d.w2 + (h2 / 12) * d.w1.cross(d.nu) + (h3 / 24) * d.w3 +
         (h3 / 24) * d.w2.cross(d.nu);
}

class BodyIncrementStepper final : public RigidBodyStepper {
 public:
  BodyIncrementStepper(const RigidBodyModel& model, AverageVelocity nu_bar) : model_(model), nu_bar_(nu_bar) {}

  StepStatus step(RigidBodyState& x, double h, OpCounters& c) override {
    ++c.rhs_evals;
    rotate_body(x, h * nu_bar_(model_.inverse_inertia(), x.Pi, h));
    ++c.exp_evals;
    return StepStatus::ok;
  }

 private:
  const RigidBodyModel& model_;  // owned by the problem; outlives the stepper
  AverageVelocity nu_bar_;
};

struct TaylorEntry {
  const char* id;
  const char* name;
  int order;
  const char* source;
};

TaylorEntry entry(TaylorKind k) {
  switch (k) {
    case TaylorKind::first: return {"buss1", "Buss 1st order", 1, "sec. 3, first-order method (spec 5.1)"};
    case TaylorKind::second: return {"buss2", "Buss 2nd order", 2, "sec. 3, second-order method (spec 5.2)"};
    case TaylorKind::false_third:
      return {"buss3false", "Buss false 3rd order", 2, "sec. 3, false third-order method, no commutator (spec 5.3)"};
    case TaylorKind::augmented_second:
      return {"buss2aug", "Buss augmented 2nd order", 2, "sec. 3, augmented second-order method (spec 5.4)"};
    case TaylorKind::third: return {"buss3", "Buss 3rd order", 3, "sec. 3, third-order method with h^3/36 term (spec 5.5)"};
    case TaylorKind::fourth:
      return {"buss4", "Buss 4th order", 4, "sec. 3, fourth-order method, eq. (9) and average corrected (spec 5.6, 9 A1/A2)"};
  }
  return {"?", "?", 0, "?"};
}

}  // namespace

AverageVelocity average_velocity(TaylorKind k) {
  switch (k) {
    case TaylorKind::first: return first;
    case TaylorKind::second: return second;
    case TaylorKind::false_third: return false_third;
    case TaylorKind::augmented_second: return augmented_second;
    case TaylorKind::third: return third;
    case TaylorKind::fourth: return fourth;
  }
  return first;
}

MethodInfo body_increment_method(std::string id, std::string display_name, int order, AverageVelocity nu_bar) {
  MethodInfo m = buss_method_info(std::move(id), std::move(display_name), "Buss 2001, body-coordinate one-rotation step", order);
  m.rigid_body = [nu_bar](const RigidBodyModel& model, const Json& /*params: none*/) -> std::unique_ptr<RigidBodyStepper> {
    return std::make_unique<BodyIncrementStepper>(model, nu_bar);
  };
  return m;
}

MethodInfo taylor_method(TaylorKind k) {
  const TaylorEntry e = entry(k);
  MethodInfo m = body_increment_method(e.id, e.name, e.order, average_velocity(k));
  m.citation = "Buss 2001, ";
  m.citation += e.source;
  return m;
}

}  // namespace gib::buss
