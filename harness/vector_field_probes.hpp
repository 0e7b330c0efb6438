// Structure probes of a vector-field method (McLachlan-Quispel spec 11): what a method does to the geometry of the
// flow, measured on its one-step map psi_h at given points, or along a whole run for the Lyapunov exponent. Each
// probe builds fresh steppers from the method, so it never disturbs the run it reports on.
#pragma once

#include <Eigen/Core>
#include <cstdint>
#include <string>
#include <vector>

#include "core/method.hpp"
#include "core/vector_field_problem.hpp"

namespace gib::probes {

// Where a tangent map came from: the method's own exact Jacobian (core/method.hpp TangentMap) or central
// differences of its step, Richardson-extrapolated (accurate to about 1e-11 relative on smooth maps).
enum class TangentSource { exact, central_differences };
const char* to_string(TangentSource s);

// psi_h(x) and its Jacobian at x.
struct Tangent {
  Eigen::VectorXd image;
  Eigen::MatrixXd D;
  TangentSource source = TangentSource::exact;
  bool ok = true;  // false: a step failed (solver) or left the finite numbers
};
Tangent tangent(const MethodInfo& m, const VectorFieldModel& model, const Json& params, const Eigen::VectorXd& x, double h);

// The largest value of each probe over the points; NaN where a step failed. `why` collects one line per probe
// that could not run (the model lacks the structure, a step failed).
struct PointProbes {
  double adjoint = NAN, reversibility = NAN, symmetry = NAN, volume = NAN, symplecticity = NAN;
  // M9 for a Poisson tensor S (spec 9 E1): |D S(x) D^T - S(psi_h(x))|_F, absolute, as the spec's 1.15e-3 for the
  // implicit midpoint rule on Euler's equations (5.6) is. S is the skew-gradient form's when the model declares it a
  // Poisson tensor (kPoissonTensor), else the canonical J of a separable Hamiltonian; NaN for other models.
  double poisson = NAN;
  std::vector<std::string> notes;
  TangentSource tangent_source = TangentSource::exact;
};
PointProbes probe_points(const MethodInfo& m, const VectorFieldModel& model, const Json& params,
                         const std::vector<Eigen::VectorXd>& points, double h, const std::vector<std::string>& which);

// M11: lambda_N = (1 / (N h)) sum_k log |v_k+1| of a tangent vector renormalised every step, from x0 over N steps;
// NaN when a step fails. The tangent is the method's exact one when it has it.
struct Lyapunov {
  double exponent = NAN;
  double resolution = NAN;  // log(N) / (N h)
  TangentSource source = TangentSource::exact;
  std::string note;
};
Lyapunov lyapunov_exponent(const MethodInfo& m, const VectorFieldModel& model, const Json& params,
                           const Eigen::VectorXd& x0, double h, std::int64_t N);

// M2's split of a final error into phase and shape (spec 11 M2, 3.4): the shift s* in [-bound, bound] minimising
// |x - x_ref(t + s)|, and that minimum. Coarse scan of 64 shifts, then Brent's method on |x - x_ref(t + s)|^2 (smooth
// at its minimum, unlike the norm) in the scan's best bracket; s* to about 1e-8 relative. bound <= t, so that the
// reference is never asked for a negative time.
struct PhaseSplit {
  double shift = NAN, shape = NAN;
  bool at_bound = false;  // s* is at +-bound: the true shift may lie beyond it
};
PhaseSplit phase_split(const VectorFieldReference& ref, const Eigen::VectorXd& x, double t, double bound);

}  // namespace gib::probes
