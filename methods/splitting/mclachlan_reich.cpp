// McLachlan-Reich splitting `mr2` (see the header for the method, its parameters and sources).
//
// Sub-flow of H_x = Pi_x^2/(2 I_x) over time tau, in gibench's convention (R body to space, Pi body):
// omega = (Pi_x/I_x) e_x is constant along it because Pi_x is, so with E = exp(theta e_x),
// theta = tau Pi_x/I_x, the exact flow is R <- R E, Pi <- E^T Pi (Buss's UPDATE[x, tau]; McLachlan-
// Quispel's physical convention, spec 5.2-5.3). Every sub-step is therefore
//   * orthogonal on Pi: the Casimir |Pi| is kept to round-off;
//   * R Pi -> R E E^T Pi = R Pi: the spatial momentum is kept to round-off;
//   * a product of rotations on R: R stays on SO(3);
//   * the exact flow of a Hamiltonian: each step is a Poisson (symplectic) map, so the energy error stays
//     bounded; the palindrome of self-adjoint flows is self-adjoint (symmetric) and hence of order 2.
// The Cayley option replaces theta by 2 atan(theta/2) with Pi_x still fixed: that is the exact flow of
// F(Pi_x) = (2/tau) integral atan(tau s/(2 I_x)) ds, a function of Pi_x alone and even in tau, so all of
// the above holds (symmetry included); F = H_x + O(tau^2), which keeps order 2.
//
// Cost accounting: "rhs_evals" counts evaluations of the full vector field (omega, Pi x omega), which a
// splitting never makes; a step counts 0 of them. Its work is the five planar rotations, each one sin/cos
// pair (Buss's unit of cost), counted as one exp_evals each, or one cayley_evals each with the Cayley
// option (no exponential is evaluated then).
#include "methods/splitting/mclachlan_reich.hpp"

#include <cmath>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>

#include "core/errors.hpp"

namespace gib::splitting {
namespace {

// Rotates the body by E = exp(theta e_a) given c = cos theta, s = sin theta: R <- R E, Pi <- E^T Pi.
// With (j, k) the axes after a in cyclic order, E e_j = c e_j + s e_k and E e_k = -s e_j + c e_k, so both
// updates mix index j and k the same way: two columns of R and two components of Pi.
inline void planar_rotation(RigidBodyState& x, int a, double c, double s) {
  const int j = (a + 1) % 3;
  const int k = (a + 2) % 3;
  const Vec3 rj = x.R.col(j);
  const Vec3 rk = x.R.col(k);
  x.R.col(j) = c * rj + s * rk;
  x.R.col(k) = c * rk - s * rj;
  const double pj = x.Pi(j);
  const double pk = x.Pi(k);
  x.Pi(j) = c * pj + s * pk;
  x.Pi(k) = c * pk - s * pj;
}

template <RotationKind Kind> class Mr2Stepper final : public RigidBodyStepper {
 public:
  Mr2Stepper(const RigidBodyModel& model, AxisOrdering o) : inv_inertia_(model.inverse_inertia()), o_(o) {}

  StepStatus step(RigidBodyState& x, double h, OpCounters& c) override {
    const double half = 0.5 * h;
    update(x, o_.axis[0], half, c);
    update(x, o_.axis[1], half, c);
    update(x, o_.axis[2], h, c);
    update(x, o_.axis[1], half, c);
    update(x, o_.axis[0], half, c);
    return StepStatus::ok;
  }

 private:
  // Buss's UPDATE[a, tau]: the exact (or Cayley) flow of H_a over tau.
  void update(RigidBodyState& x, int a, double tau, OpCounters& c) const {
    const double theta = tau * x.Pi(a) * inv_inertia_(a);
    if constexpr (Kind == RotationKind::exact) {
      ++c.exp_evals;
      planar_rotation(x, a, std::cos(theta), std::sin(theta));
    } else {
      // cos and sin of 2 atan(theta/2), rational in theta (Buss 5.8).
      ++c.cayley_evals;
      const double q = 0.25 * theta * theta;
      const double d = 1.0 / (1.0 + q);
      planar_rotation(x, a, (1.0 - q) * d, theta * d);
    }
  }

  Vec3 inv_inertia_;
  AxisOrdering o_;
};

}  // namespace

AxisOrdering parse_ordering(const Json& value) {
  const std::string bad = "mr2 parameter ordering=" + value.dump() +
                          " must be one of \"123\", \"132\", \"213\", \"231\", \"312\", \"321\"";
  // The command line reads `--param ordering=123` as the JSON number 123; it names the same ordering.
  std::string s;
  if (value.is_string())
    s = value.get<std::string>();
  else if (value.is_number_integer())
    s = std::to_string(value.get<long long>());
  else
    throw InputError(bad);
  if (s.size() != 3) throw InputError(bad);
  AxisOrdering o;
  bool seen[3] = {false, false, false};
  for (std::size_t i = 0; i < 3; ++i) {
    const int a = s[i] - '1';
    if (a < 0 || a > 2 || seen[a]) throw InputError(bad);
    seen[a] = true;
    o.axis[i] = a;
  }
  return o;
}

RotationKind parse_rotation(const Json& value) {
  if (value == "exact") return RotationKind::exact;
  if (value == "cayley") return RotationKind::cayley;
  throw InputError("mr2 parameter rotation=" + value.dump() + " must be \"exact\" or \"cayley\"");
}

std::unique_ptr<RigidBodyStepper> free_rotor_stepper(const RigidBodyModel& model, const Json& params) {
  const AxisOrdering o = parse_ordering(params.at("ordering"));
  if (parse_rotation(params.at("rotation")) == RotationKind::cayley)
    return std::make_unique<Mr2Stepper<RotationKind::cayley>>(model, o);
  return std::make_unique<Mr2Stepper<RotationKind::exact>>(model, o);
}

MethodInfo mr2() {
  MethodInfo m;
  m.id = "mr2";
  m.display_name = "McLachlan-Reich 2 (axis splitting)";
  m.citation =
      "McLachlan 1993; Reich 1994; Touma & Wisdom 1994; Buss 2001 section 5.8 (spec 5.8); "
      "McLachlan-Quispel lectures 3.5 (spec 5.3-5.4)";
  m.family = "splitting";
  m.claims.order = 2;
  m.claims.symmetric = true;
  m.claims.symplectic = true;
  m.claims.stays_on_group = true;
  // Every sub-step is an exact rotation with Pi_x fixed (see the top of the file).
  m.claims.invariants = {{Invariant::casimir, Preservation::exact, Applies::torque_free},
                         {Invariant::spatial_momentum, Preservation::exact, Applies::torque_free},
                         {Invariant::energy, Preservation::bounded, Applies::torque_free}};
  m.default_params = {{"ordering", "231"}, {"rotation", "exact"}};
  m.torque_free_only = true;
  m.rigid_body = [](const RigidBodyModel& model, const Json& params) -> std::unique_ptr<RigidBodyStepper> {
    if (!model.torque_free()) throw InputError("mr2 is for torque-free bodies only (dlm2 adds torque kicks)");
    return free_rotor_stepper(model, params);
  };
  return m;
}

}  // namespace gib::splitting
