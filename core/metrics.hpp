// Every metric and series a results row can carry, declared once: its name, how the name expands into row keys,
// its definition, its unit and the model kinds it applies to. Emitters (the runner, the kinds' observers, the
// problems' invariants) and readers (the battery, rank, figure checks, the run summary) take names from here,
// never from string literals; tests/test_metric_schema.cpp runs every problem and fails when an emitted key is
// not declared, a declared one is never emitted, or results/SCHEMA.md documents a key that is not declared or
// misses one that is.
#pragma once

#include <limits>
#include <string>
#include <string_view>
#include <vector>

namespace gib::metrics {

// Which model kinds a metric applies to (a bit per kind, in the order of the ModelKind enum).
enum KindMask : unsigned { kRigidBody = 1U, kParticles = 2U, kNewtonian = 4U, kVectorField = 8U, kAllKinds = 15U };

// How a declared name becomes the keys of `row.metrics`.
enum class Family {
  error,      // <name>_final, <name>_max: an error against the reference (sampled; the last step)
  invariant,  // <name>_max, _final, _drift_slope, _drift_slope_ci95, _class, and _blocks with observe.block_stats
  relative_invariant,  // as invariant, plus <base>_abs_err_max and _final, base = name without "_rel_err"
  tracked,    // <name>_max, _final: tracked every step (the manifold residual)
  quantity,   // <name>_min, _max, _final for each named scalar: problems' observables, methods' observables
  scalar,     // the name itself is the key
  series,     // only in series (row.metrics has no key for it)
};

// The suffixes the families append (row keys are name + suffix).
inline constexpr const char* kFinal = "_final";
inline constexpr const char* kMax = "_max";
inline constexpr const char* kMin = "_min";
inline constexpr const char* kDriftSlope = "_drift_slope";
inline constexpr const char* kDriftSlopeCi95 = "_drift_slope_ci95";
inline constexpr const char* kClass = "_class";
inline constexpr const char* kBlocks = "_blocks";  // only with observe.block_stats

// The suffixes of a family's keys in row.metrics (scalar: {""}; series: none).
std::vector<const char*> suffixes(Family f);

inline constexpr double kUnbounded = std::numeric_limits<double>::infinity();

struct Metric {
  const char* name;
  Family family;
  const char* definition;
  const char* unit;
  unsigned kinds;
  // The values its magnitude can take (errors, residuals and counts: [0, inf)), so that a figure check's bound the
  // metric cannot reach is refused when the spec loads (harness/check_kinds.cpp).
  double lo = 0;
  double hi = kUnbounded;
};

// ---- errors against the reference (harness/model_kinds.hpp kErrorNames, in that order per kind)
inline constexpr Metric rot_geodesic{"rot_geodesic", Family::error, "angle of R_ref^T R", "rad", kRigidBody, 0, 3.141592653589793};
// |R - R'|_2 = 2 sin(angle / 2) for two rotations
inline constexpr Metric rot_2norm{"rot_2norm", Family::error, "|R - R_ref|_2 (spectral norm)", "1", kRigidBody, 0, 2};
inline constexpr Metric mom_err{"mom_err", Family::error, "|Pi - Pi_ref|_2", "momentum", kRigidBody};
inline constexpr Metric mom_rel_err{"mom_rel_err", Family::error, "|Pi - Pi_ref|_2 / |Pi_ref|_2", "1", kRigidBody};
inline constexpr Metric pos_err{"pos_err", Family::error, "Euclidean norm of the position differences", "length",
                                kParticles | kNewtonian};
inline constexpr Metric rot_err{"rot_err", Family::error, "Frobenius norm over all particles of Q_i - Q_i,ref", "1",
                                kParticles};
inline constexpr Metric lin_mom_err{"lin_mom_err", Family::error, "norm over all particles of p_i - p_i,ref",
                                    "momentum", kParticles};
inline constexpr Metric ang_mom_err{"ang_mom_err", Family::error, "norm over all particles of m_i - m_i,ref",
                                    "angular momentum", kParticles};
inline constexpr Metric vel_err{"vel_err", Family::error, "|v - v_ref|", "velocity", kNewtonian};
inline constexpr Metric tip_err{"tip_err", Family::error,
                                "error of the problem's tip coordinates (the last bob); null without a tip", "length",
                                kNewtonian};
inline constexpr Metric max_coord_err{"max_coord_err", Family::error, "largest |q_i - q_i,ref| (|x_i - x_i,ref| of a vector field)",
                                     "length (state units)", kNewtonian | kVectorField};
inline constexpr Metric state_err{"state_err", Family::error, "the kind's primary error (order fits, rank, baselines)",
                                  "1 (rigid body) or state units", kAllKinds};

// ---- invariants (core/problem.cpp, problems/common/r33_problem.cpp)
inline constexpr Metric energy_rel_err{"energy_rel_err", Family::relative_invariant, "(H(t) - H0) / |H0|", "1",
                                       kAllKinds};
inline constexpr Metric casimir_err{"casimir_err", Family::invariant,
                                    "C(t) - C0, C = |Pi|^2 / 2 (a rigid body's Pi, or euler_top's state x = pi)",
                                    "momentum^2", kRigidBody | kVectorField};
inline constexpr Metric spatial_momentum_err{"spatial_momentum_err", Family::invariant, "|R Pi - R0 Pi0|_2",
                                             "momentum", kRigidBody};
inline constexpr Metric vertical_momentum_err{"vertical_momentum_err", Family::invariant, "e3 . (R Pi - R0 Pi0)",
                                              "momentum", kRigidBody};
inline constexpr Metric axial_momentum_err{"axial_momentum_err", Family::invariant, "Pi3 - Pi3(0)", "momentum",
                                           kRigidBody};
inline constexpr Metric linear_momentum_err{"linear_momentum_err", Family::invariant, "|sum p_i - sum p_i(0)|",
                                            "momentum", kParticles | kNewtonian};
inline constexpr Metric angular_momentum_err{"angular_momentum_err", Family::invariant,
                                             "|sum (q_i x p_i + Q_i m_i) - its initial value| (point masses: Q_i m_i = 0)",
                                             "angular momentum", kParticles | kNewtonian};

inline constexpr Metric linear_integral_err{"linear_integral_err", Family::invariant,
                                            "L(t) - L0 for a problem's linear first integral (Volterra: x1 + x2 + x3)",
                                            "state units", kVectorField};
inline constexpr Metric cubic_integral_err{"cubic_integral_err", Family::invariant,
                                           "C(t) - C0 for a problem's cubic first integral (Volterra: x1 x2 x3)",
                                           "state units^3", kVectorField};
inline constexpr Metric kepler_angular_momentum_err{"kepler_angular_momentum_err", Family::invariant,
                                                   "L(t) - L0, L = q1 p2 - q2 p1 (Kepler problem)",
                                                   "angular momentum", kVectorField};

// ---- structure probes of a vector-field method (observe.probes, harness/vector_field_probes.cpp; spec 11)
inline constexpr Metric adjoint_err{"adjoint_err", Family::scalar,
                                    "M5: largest |psi_-h(psi_h(x)) - x| over the probe points", "state units",
                                    kVectorField};
inline constexpr Metric reversibility_err{"reversibility_err", Family::scalar,
                                          "M6: largest |R psi_h(R psi_h(x)) - x| over the probe points (R the "
                                          "model's reversing involution; a rigid body's (R, Pi) -> (R, -Pi), "
                                          "measured as |dR|_F + |dPi|)",
                                          "state units", kVectorField | kRigidBody};
inline constexpr Metric poisson_err{"poisson_err", Family::scalar,
                                    "M9 for a Poisson tensor S: largest |D S(x) D^T - S(x')|_F, D = dx'/dx of the step "
                                    "(spec 9 E1's corrected condition); a free body's momentum map with S(Pi) = "
                                    "hat(Pi), a vector field's skew-gradient S (kPoissonTensor) or canonical J",
                                    "momentum (S's unit)", kRigidBody | kVectorField};
inline constexpr Metric poisson_printed_err{"poisson_printed_err", Family::scalar,
                                            "the lectures' printed condition |D^T J(Pi) D - J(Pi')|_F (Table 2.1, "
                                            "spec 9 E1: wrong for a non-constant J), for the erratum row",
                                            "momentum", kRigidBody};
inline constexpr Metric symmetry_err{"symmetry_err", Family::scalar,
                                     "M7: largest |h(psi_h(x)) - psi_h(h(x))| over the probe points (h the model's "
                                     "symmetry)",
                                     "state units", kVectorField};
inline constexpr Metric volume_err{"volume_err", Family::scalar,
                                   "M8: largest |det(d psi_h / dx) - 1| over the probe points", "1", kVectorField};
inline constexpr Metric symplecticity_err{"symplecticity_err", Family::scalar,
                                          "M9: largest |D^T J D - J|_F over the probe points, D = d psi_h / dx, J "
                                          "canonical (separable Hamiltonian fields)",
                                          "1", kVectorField};
inline constexpr Metric lyapunov_exponent{"lyapunov_exponent", Family::scalar,
                                          "M11: (1 / (N h)) sum log |v_k+1| of a renormalised tangent vector carried "
                                          "by the method's exact tangent map over the whole run",
                                          "1/time", kVectorField, -kUnbounded};
inline constexpr Metric lyapunov_exponent_resolution{"lyapunov_exponent_resolution", Family::scalar,
                                                     "log(N) / (N h): a regular orbit's exponent after N steps is "
                                                     "about this, so smaller exponents are not resolved",
                                                     "1/time", kVectorField};
inline constexpr Metric probe_notes{"probe_notes", Family::scalar,
                                    "a list of lines: where the probes' tangent maps came from (the method's exact one "
                                    "or central differences) and what a probe could not do",
                                    "text", kVectorField | kRigidBody};
inline constexpr Metric phase_shift_final{"phase_shift_final", Family::scalar,
                                          "M2's phase part: the time shift s* in [-B, B] minimising |x_N - x_ref(t_N + "
                                          "s)| (probe phase; B in probe_notes)",
                                          "time", kVectorField, -kUnbounded};
inline constexpr Metric shape_err_final{"shape_err_final", Family::scalar,
                                        "M2's shape part: min over |s| <= B of |x_N - x_ref(t_N + s)|_2, the global "
                                        "error left once the phase is taken out",
                                        "state units", kVectorField};
inline constexpr Metric lyapunov_increase_steps{"lyapunov_increase_steps", Family::scalar,
                                                "M10: steps with V(x_n+1) > V(x_n) + 1e-13 (1 + |V(x_n)|), V the "
                                                "model's Lyapunov function",
                                                "steps", kVectorField};

// ---- tracked every step, and scalars of the run
inline constexpr Metric manifold_residual{"manifold_residual", Family::tracked,
                                          "|R^T R - I|_F (largest over particles), |g(q)| with constraints", "1",
                                          kAllKinds};
inline constexpr Metric rotation_per_step_max_deg{"rotation_per_step_max_deg", Family::scalar,
                                                  "largest angle of R_(n-1)^T R_n over the run", "deg", kAllKinds, 0, 180};
inline constexpr Metric rotation_per_step_mean_deg{"rotation_per_step_mean_deg", Family::scalar,
                                                   "mean angle of R_(n-1)^T R_n over the run", "deg", kAllKinds, 0, 180};
inline constexpr Metric energy_initial{"energy_initial", Family::scalar, "H0", "energy", kAllKinds, -kUnbounded};
inline constexpr Metric energy_final{"energy_final", Family::scalar, "H after the last step", "energy", kAllKinds, -kUnbounded};
inline constexpr Metric min_pair_distance_min{"min_pair_distance_min", Family::scalar,
                                              "closest approach of two particles at the sampled steps", "length",
                                              kParticles};
inline constexpr Metric observable{"<observable>", Family::quantity,
                                   "a problem's or a method's named scalar (the DNA chain's mean angle, RATTLE's "
                                   "multipliers lambda_i): smallest, largest and last value",
                                   "its own", kNewtonian | kVectorField, -kUnbounded};

// ---- series only
inline constexpr Metric t{"t", Family::series, "time of each sample", "time", kAllKinds};
inline constexpr Metric min_pair_distance{"min_pair_distance", Family::series, "closest approach at each sample",
                                          "length", kParticles};
inline constexpr Metric Pi{"Pi", Family::series, "body angular momentum (observe.series_extra Pi)", "momentum",
                           kRigidBody};
inline constexpr Metric q{"q", Family::series, "positions (observe.series_extra configuration)", "length",
                          kParticles | kNewtonian};
inline constexpr Metric x{"x", Family::series, "the state of a vector field (observe.series_extra state)", "state units",
                          kVectorField};
inline constexpr Metric Q{"Q", Family::series, "orientations (observe.series_extra configuration)", "1", kParticles};
inline constexpr Metric orthogonality{"orthogonality", Family::series,
                                      "|Q_i^T Q_i - I|_F per particle (observe.series_extra orthogonality)", "1",
                                      kParticles};

// Every declaration, in the order above.
const std::vector<const Metric*>& all();

// Row keys of a declaration with a suffix: key(state_err, "_final") == "state_err_final".
inline std::string key(const Metric& m, std::string_view suffix) { return std::string(m.name) + std::string(suffix); }

// The absolute companion of a relative invariant: "energy_rel_err" -> "energy_abs_err".
std::string absolute_name(std::string_view relative_name);

// The declaration with this name (a stem, a scalar key or a series name); nullptr when none.
const Metric* find(std::string_view name);

// The declaration a row key or series name belongs to: a stem with one of its family's suffixes ("state_err_max"),
// the absolute companion of a relative invariant ("energy_abs_err_final"), a scalar key, a series name (that of an
// error or invariant is its stem: "energy_rel_err", "energy_abs_err"); nullptr for anything else (a problem's or a
// method's observable, "<name>_max").
struct KeyOf {
  const Metric* metric = nullptr;
  std::string suffix;  // "_max", "" for a scalar or a series, ...
};
KeyOf resolve(std::string_view key);

}  // namespace gib::metrics
