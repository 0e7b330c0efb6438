// Figure checks on what particles do, for Kjer's planar figures (3.12: "as long as the particles' orientation
// differ by more than 90 degrees, they repel each other, otherwise they attract each other"; 3.13/3.14: "some
// particles stay close to each other and form bond-like structures during the entire simulation, while others
// are pushed out of the system"). Both kinds are judged by judge_row() (figure_verdict.hpp): at_most / at_least /
// range; a matching run that did not end ok refutes the statement (failed_run_row).
#pragma once

#include <nlohmann/json.hpp>

namespace gib {

using Json = nlohmann::json;

// orientation_rule: does a planar pair attract when its dipoles differ by less than 90 degrees and repel when
// they differ by more? Every row matching `where` must be a two-particle planar run started at rest (p0 = m0 = 0,
// e.g. dipolar_spheres with pair_separation and pair_angles). Per row, from the row's own initial state
// (params q0, Q0, mu_bar) and its final positions: the dipole angles a_1, a_2 from the separation q_2 - q_1, the
// orientation difference d = |a_1 - a_2| in [0, 180] and the mean angle (a_1 + a_2)/2 modulo 180 (turning both
// dipoles by 180 degrees changes nothing), and the pair's radial acceleration r'' = 2 (r(T) - r(0)) / T^2 (from
// rest r(t) = r0 + r'' t^2 / 2 + O(t^4): T must be short against the bond time). Attract: r'' < 0; repel: r'' > 0.
// Rows with d = 90 (to 1e-6 degrees) are not counted: the rule says nothing there. `stat`:
//   on_average         the share of orientation differences d whose mean r'' over the rows of that d (the mean
//                      angles, which should be equally spaced) has the rule's sign
//   per_configuration  the share of rows whose r'' has the rule's sign
//   dipole_theory      the share of rows whose r'' has the sign of -dU/dr at the start, U the pair energy at fixed
//                      orientations: c12/r^12 - c6/r^6 + (mu1.mu2 - 3 (mu1.e)(mu2.e))/r^3 (params sigma, epsilon,
//                      short_range; all pairs only, cutoff 0)
// The row carries "by_difference": [{d_deg, rows, attract, mean_accel}] for every d.
Json check_orientation_rule(const Json& c, const Json& rows);

// particle_fates: what becomes of the particles of the one row matching `where`, from its recorded positions
// (series "q", N [x, y, z] per sample: observe.series_particles). `particles` (required) is N, so the count's
// range [0, N] or [0, N(N-1)/2] is known when the spec loads; a run of another size has no data. `stat`:
//   pushed_out         particles whose distance from the centre of mass (the mean position: equal masses) grows
//                      by more than `grow_by` from the first sample to the last and that end with no other
//                      particle within `bond_distance` (default 1.5)
//   bonded_throughout  pairs within `bond_distance` of each other in at least `min_share` (default 0.9) of the
//                      samples
// The note names the particles and pairs.
Json check_particle_fates(const Json& c, const Json& rows, const Json& series);

}  // namespace gib
