// What the problems with a potential V = f(R33) share (problems/lagrange_top, problems/coulomb_wall):
// a RigidBodyProblem whose parameters include the potential, whose invariants include the momenta such a
// potential conserves, whose time scale accounts for the torque, and whose reference is numerical.
//
// Invariants: energy; vertical momentum e_z . R Pi (V is unchanged by rotations about e_z, so the spatial
// torque has no e_z-component); axial momentum Pi_3 when I1 == I2 exactly (the body torque
// f'(R33) (R32, -R31, 0) has no third component and Euler's third equation loses Pi1 Pi2 (1/I2 - 1/I1)).
//
// Time scale: min(1/|omega0|, sqrt(min I / |dT/deta(R0)|_2)). The second term is the period scale of small
// oscillations under the torque (for the top, sqrt(I / m g l) up to the choice of moment); it matters when
// the body starts slowly in a stiff potential (a random initial condition near Krysl's wall, a top released
// from rest). For the presets the spin term is the shorter one: slow top 0.2, fast top 0.02, Coulomb
// body 0.78 (pendulum terms 0.22, 0.22 and 2.97).
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "core/problem.hpp"
#include "core/random.hpp"
#include "problems/common/r33_potential.hpp"

namespace gib::r33_problem {

class R33Problem final : public RigidBodyProblem {
 public:
  R33Problem(std::string id, std::string preset, std::string ic, RigidBodyModel model, RigidBodyState initial,
             std::shared_ptr<const RigidBodyReference> reference, Json potential)
      : RigidBodyProblem(std::move(id), std::move(preset), std::move(ic), std::move(model), initial, std::move(reference)),
        potential_(std::move(potential)) {}

  Json parameters() const override;  // the rigid-body parameters plus "potential"
  double time_scale() const override;
  std::vector<RigidBodyInvariant> invariants() const override;

 private:
  Json potential_;
};

double time_scale(const RigidBodyModel& model, const RigidBodyState& x0);

// Throws InputError (naming the problem) unless each moment is at most the sum of the other two.
void check_triangle_inequality(const Vec3& inertia, const std::string& problem);

// The free body's stream for random:K (core/user_input.hpp, random_ic_index), so random:K means the same draws on
// every rigid-body problem.
random::Stream random_stream(std::uint64_t k);

struct Definition {
  std::string id, preset, ic;
  Vec3 inertia;
  RigidBodyState x0;
  std::shared_ptr<const R33Potential> potential;
  Json potential_parameters;                       // stored in parameters(), so in the hash and the cache key
  std::function<long double(long double)> slope;  // f'(R33) in long double, for the reference
};

// The problem with its numerical reference (checkpoints every 10 time scales, disk cache per the
// environment, see problems/common/numerical_reference.hpp).
std::unique_ptr<Problem> make(Definition d);

}  // namespace gib::r33_problem
