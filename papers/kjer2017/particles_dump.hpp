// The N-particle state and one force evaluation of Kjer's dipolar spheres, as a peer code needs them to set up the
// same system and compare (scripts/lammps_crosscheck.py, through `gibench particles-dump`).
#pragma once

#include <nlohmann/json.hpp>

namespace gib {
class Problem;
}

namespace gib::precision {

// In the space frame: positions, velocities p/M, dipoles Q_i mu_bar, angular velocities Q_i I^-1 m_i, and the
// energy, forces and torques Q_i tau_i evaluated in long double (then rounded). dipolar_spheres only (InputError
// otherwise).
nlohmann::json particles_dump(const Problem& problem);

}  // namespace gib::precision
