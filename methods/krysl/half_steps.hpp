// Krysl's four half-step building blocks (spec 4), each mapping (R_t, Pi_t) to (R_t exp(Psi), Pi_{t+h}):
//   forward Euler, rate form (11):      Pi' = Pi + h (Pi x W Pi + T(R)),        Psi = h W Pi
//   backward Euler, rate form (12):     Pi' = Pi + h (Pi' x W Pi' + T(R')),     Psi = h W Pi'
//   forward Euler, momentum form (18):  Pi' = exp(-Psi) (Pi + h T(R)),          Psi = h W Pi
//   backward Euler, momentum form (19): Pi' = exp(-Psi) Pi + h T(R'),           Psi = h W Pi'
// with W = I^{-1}. IMID, TRAP, IMIDM and TRAPM are their compositions (methods/krysl/compositions.cpp), and
// the conjugacy and adjointness tests of spec 4 and 5.3 use them directly.
#pragma once

#include "core/counters.hpp"
#include "core/model.hpp"
#include "methods/implicit/nonlinear_solver.hpp"

namespace gib::krysl {

enum class Form { rate, momentum };

// T(R), counted; zero and free for a torque-free body.
Vec3 torque(const RigidBodyModel& model, const Mat3& R, OpCounters& c);
// Pi x omega + T, Euler's right-hand side.
Vec3 euler_rate(const RigidBodyModel& model, const Vec3& Pi, const Vec3& T);

// The explicit half step of the given form, with T = T(R_t) supplied by the caller (it is usually at hand).
RigidBodyState forward_euler(const RigidBodyModel& model, Form form, const RigidBodyState& x, const Vec3& T, double h,
                             OpCounters& c);

// The end state of an implicit half step and the torque there, which the next forward half step reuses.
struct HalfStepEnd {
  RigidBodyState state;
  Vec3 torque;
};

// The backward half step as the fixed-point map x = G(x) in x = Pi_{t+h}, with its Jacobian.
class BackwardEuler {
 public:
  BackwardEuler(const RigidBodyModel& model, Form form) : model_(model), form_(form) {}
  void start(const RigidBodyState& from, double h, OpCounters& c);
  void operator()(const Vec3& x, Vec3& g, Mat3* dg);
  // The end state at the root: Pi = G(x) (one more sweep, so that the structure of the update holds to round-off
  // whatever the solver tolerance), R = R_t exp(h W x).
  HalfStepEnd finish(const Vec3& x);

 private:
  const RigidBodyModel& model_;
  Form form_;
  RigidBodyState from_;
  double h_ = 0;
  OpCounters* c_ = nullptr;
};

// One backward half step solved on its own (tests of spec 4's adjointness); false when the solve fails.
bool backward_euler(const RigidBodyModel& model, Form form, RigidBodyState& x, double h,
                    const implicit::SolverOptions& o, OpCounters& c);

}  // namespace gib::krysl
