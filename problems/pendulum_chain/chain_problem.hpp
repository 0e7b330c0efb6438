// The penalised planar pendulum chain as a gibench problem (Tao-Owhadi spec 4.1, 4.2), shared by
// problems/double_pendulum (n = 2) and problems/pendulum_chain: the model PenalizedModel(gravity, rods, omega),
// the observables the paper plots, the two references and the override readers both problems take.
//
// References (problems/common/newtonian_reference.hpp, one per distinct trajectory in the process):
//   penalised    the penalised Cartesian ODE itself (what every penalty method integrates);
//   constrained  the Lagrange-multiplier solution in the rod angles (planar_chain.hpp), mapped to Cartesian: Fig 1's
//                benchmark. Always in Extras::constrained_reference; "reference": "constrained" makes it reference()
//                too, so a penalty method's state error includes the finite-omega model error (spec 3 item 4).
// Observables: omega2_g_norm = omega^2 |g(q)| (Fig 2a, spec 3 item 2: O(1) uniformly in omega), optionally
// omega2_g<i> = omega^2 g_i(q) per rod (spec 3 item 3: lambda ~ -omega^2 g averaged over a window), and x<i>, y<i>
// of chosen bobs (Figs 1, 3).
// Time scale: 1/omega_max, omega_max^2 the largest eigenvalue of M^-1 Hess V(q0) (the rods' penalty vibration,
// ~ 2 omega L sqrt(2/m)), so the battery's coarse step 0.2 time scales stays inside explicit methods' stability
// limit h omega_max < 2; the pendulum motion itself is slower (time scale ~ sqrt(L/g) ~ 1).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/problem.hpp"
#include "problems/common/planar_chain.hpp"

namespace gib::pendulum_chain {

enum class ReferenceChoice { penalized, constrained };

struct ChainProblemDefinition {
  std::string id, preset, ic;
  planar_chain::Chain chain;
  double omega = 20;
  NewtonianState x0;  // consistent (check_consistent)
  ReferenceChoice reference = ReferenceChoice::penalized;
  std::vector<int> observed_bobs;       // 1-based bob numbers with observables x<i>, y<i>
  bool rod_observables = false;         // omega2_g<i> for every rod
  Json parameters = Json::object();     // problem-specific entries; the chain's own are added
};

std::unique_ptr<Problem> make_chain_problem(ChainProblemDefinition d);

// Throws InputError naming the problem unless |g_i(q0)| <= 1e-12 (1 + L_i^2) and |(G v0)_i| <= 1e-12 (1 + L_i |v0|):
// the penalty-to-multiplier theorem (spec 3, Theorem 1.2) starts on the constraint manifold with tangent velocity.
void check_consistent(const planar_chain::Chain& chain, const NewtonianState& x0, const std::string& problem);

// "random:K": rod angles uniform in center_i +- angle_spread and angular rates uniform in +- rate_spread (rad, rad
// per time unit), from a stream derived from K, mapped to a consistent Cartesian state.
NewtonianState random_state(const planar_chain::Chain& chain, std::uint64_t k, const Eigen::VectorXd& center,
                            double angle_spread, double rate_spread);

// Override readers shared by both problems (InputError naming the key and value).
ReferenceChoice read_reference(const Json& v, const std::string& problem);
double read_gravity_sign(const Json& v, const std::string& problem);

}  // namespace gib::pendulum_chain
