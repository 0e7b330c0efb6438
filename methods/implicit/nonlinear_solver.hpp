// The one nonlinear solver of gibench's implicit methods (Krysl spec 6, and the implicit vector-field methods of the
// McLachlan-Quispel lectures). Two ways to pose a step's equations, one Newton loop (newton_root) under both:
//   * a fixed point x = G(x) of a small map (the Krysl methods: 3 unknowns, 6 for BBTRAPWD, 6 per stage for
//     implicit MKRK), the map returning its Jacobian dG/dx on request:
//       - Newton on F(x) = x - G(x) with the analytic Jacobian I - dG/dx (default), or
//       - fixed-point iteration x <- G(x), which is also the fallback when Newton does not converge;
//       - start from the method's explicit predictor (default) or from the state's own values ("previous",
//         the bad guess of spec 6 item 4, kept to demonstrate the spurious roots it finds);
//       - the root-rejection safeguard of spec 6 item 4: a root far from the predictor (or, in the stepper, one whose
//         energy jumps) is re-solved by fixed-point iteration from the predictor; a root found from "previous" is
//         cross-checked against a solve from the predictor (see cross_check_previous_start);
//   * a root F(y) = 0 with its Jacobian J (implicit Euler, the implicit midpoint rule on a vector field, the
//     projections' inverse steps, the volume-preserving and discrete-gradient methods), any number of unknowns
//     (N = Eigen::Dynamic).
// Stopping rule: |dx| <= tol max(1, |x|) after the update. Newton converges quadratically, so its last iterate is
// exact to round-off; a fixed-point iterate is exact to about tol. A non-finite iterate ends the solve unconverged;
// an unconverged solve is never a root (its caller reports StepStatus::solver_failed).
//
// Method parameters (shared by every Krysl method): solver "newton" | "fixed_point", start "predictor" |
// "previous", tol (relative, default 1e-14), max_iter (per solve, default 50), safeguard true | false.
#pragma once

#include <Eigen/Dense>
#include <algorithm>
#include <cstdint>
#include <limits>
#include <string>

#include "core/counters.hpp"
#include "core/method.hpp"

namespace gib::implicit {

enum class SolverKind { newton, fixed_point };
enum class StartKind { predictor, previous };

struct SolverOptions {
  SolverKind kind = SolverKind::newton;
  StartKind start = StartKind::predictor;
  double tol = 1e-14;
  int max_iter = 50;
  bool safeguard = true;
  // Newton with an inexact (finite-difference) Jacobian converges only linearly, and its corrections stall at the
  // residual's rounding noise, which can exceed tol: 0 (default) ignores this; > 0 accepts a correction below
  // noise_floor max(1, |x|) that shrank by less than half (it has stalled), and fails a solve whose correction grows
  // while above it (leaving the predictor's basin), before applying it. Not a method parameter.
  double noise_floor = 0.0;
};

// {"solver": "newton", "start": "predictor", "tol": 1e-14, "max_iter": 50, "safeguard": true}
Json solver_default_params();
// Reads the five keys of solver_default_params(); throws InputError naming the method and the bad value.
SolverOptions solver_options_from(const Json& params, const std::string& method_id);

// Solver events that OpCounters has no field for; steppers expose them through SolverStatsSource.
struct SolverStats {
  std::int64_t fallbacks = 0;        // the solve did not converge; fixed point from the predictor took over
  std::int64_t root_rejections = 0;  // a converged root failed the safeguard and was re-solved
};

class SolverStatsSource {
 public:
  virtual ~SolverStatsSource() = default;
  virtual const SolverStats& solver_stats() const = 0;
};

template <int N>
using VecN = Eigen::Matrix<double, N, 1>;
template <int N>
using MatN = Eigen::Matrix<double, N, N>;

template <int N>
struct Solution {
  VecN<N> x;
  int iterations = 0;  // map evaluations of the fixed-point iteration, Newton updates of Newton; summed over re-solves
  bool converged = false;
  bool by_fixed_point_from_predictor = false;  // the fallback itself: re-solving it would repeat it
};

template <class V>
double tolerance_scale(const V& x) {
  return std::max(1.0, x.norm());
}

// The buffers of one Newton solve. A stepper that keeps one between steps iterates without allocating (N =
// Eigen::Dynamic); the other entry points allocate it once per solve.
template <int N>
struct NewtonWorkspace {
  VecN<N> F, dx;
  MatN<N> J;
  Eigen::PartialPivLU<MatN<N>> lu;
};

struct NewtonResult {
  int iterations = 0;  // Newton updates, the non-finite one included
  bool converged = false;
};

// The Newton loop: solves F(y) = 0 in place from the start in y. F(y, f, J) writes F(y) to f and dF/dy to J. Counts
// one linear solve per update; a single unknown is a division, not a linear solve. Stops at o.max_iter updates, on a
// non-finite iterate, or as SolverOptions::noise_floor says; y is then not a root.
template <int N, class System>
NewtonResult newton_root(System& F, VecN<N>& y, const SolverOptions& o, OpCounters& c, NewtonWorkspace<N>& w) {
  double previous = std::numeric_limits<double>::infinity();
  for (int iteration = 1; iteration <= o.max_iter; ++iteration) {
    F(y, w.F, w.J);
    if constexpr (N == 1) {
      w.dx(0) = w.F(0) / w.J(0, 0);
    } else {
      w.lu.compute(w.J);
      w.dx = w.lu.solve(w.F);
      ++c.linear_solves;
    }
    const double size = w.dx.norm();
    if (o.noise_floor > 0 && size > previous && size > o.noise_floor * tolerance_scale(y)) return {iteration, false};
    y -= w.dx;
    if (!y.allFinite()) return {iteration, false};
    const double scale = tolerance_scale(y);
    if (size <= o.tol * scale) return {iteration, true};
    if (o.noise_floor > 0 && size <= o.noise_floor * scale && size >= 0.5 * previous) return {iteration, true};
    previous = size;
  }
  return {o.max_iter, false};
}

// The bookkeeping of a step that is one Newton solve: its iterations, and a failure as StepStatus::solver_failed.
inline StepStatus record_solve(const NewtonResult& r, OpCounters& c) {
  c.record_nonlinear_step(r.iterations);
  if (r.converged) return StepStatus::ok;
  ++c.solver_failures;
  return StepStatus::solver_failed;
}

// newton_root from y0 with buffers of its own.
template <int N, class System>
Solution<N> newton_root(System& F, const VecN<N>& y0, const SolverOptions& o, OpCounters& c) {
  Solution<N> s{y0, 0, false, false};
  NewtonWorkspace<N> w;
  const NewtonResult r = newton_root(F, s.x, o, c, w);
  s.iterations = r.iterations;
  s.converged = r.converged;
  return s;
}

// Newton on x - G(x) = 0. G(x, g, dg) writes G(x) to g and, when dg is not null, dG/dx to *dg.
template <int N, class Map>
Solution<N> newton(Map& G, const VecN<N>& x0, const SolverOptions& o, OpCounters& c) {
  VecN<N> g;
  MatN<N> dg;
  const Eigen::Index n = x0.size();
  auto F = [&](const VecN<N>& x, VecN<N>& f, MatN<N>& J) {
    G(x, g, &dg);
    J = MatN<N>::Identity(n, n) - dg;
    f = x - g;
  };
  return newton_root(F, x0, o, c);
}

template <int N, class Map>
Solution<N> fixed_point(Map& G, const VecN<N>& x0, const SolverOptions& o) {
  Solution<N> s{x0, 0, false, false};
  VecN<N> g;
  while (s.iterations < o.max_iter) {
    ++s.iterations;
    G(s.x, g, nullptr);
    const double step = (g - s.x).norm();
    s.x = g;
    if (!s.x.allFinite()) return s;
    if (step <= o.tol * tolerance_scale(s.x)) {
      s.converged = true;
      return s;
    }
  }
  return s;
}

// Spec 6 item 4: the physical root lies within O(dt^2) of the O(dt) explicit predictor; a root more than ten
// predictor increments away is another branch of the nonlinear equations.
template <int N>
bool plausible_root(const VecN<N>& x, const VecN<N>& predictor, const VecN<N>& previous) {
  return (x - predictor).norm() <= 10 * (predictor - previous).norm() + 1e-8 * tolerance_scale(predictor);
}

// Fixed-point iteration from the predictor after a failed or rejected solve; iterations add up.
template <int N, class Map>
Solution<N> resolve_from_predictor(Map& G, const VecN<N>& predictor, const SolverOptions& o, int spent) {
  Solution<N> f = fixed_point(G, predictor, o);
  f.iterations += spent;
  f.by_fixed_point_from_predictor = true;
  return f;
}

template <int N, class Map>
Solution<N> run_solver(Map& G, const VecN<N>& x0, const SolverOptions& o, OpCounters& c) {
  return o.kind == SolverKind::newton ? newton(G, x0, o, c) : fixed_point(G, x0, o);
}

// With start "previous" the spec's two tests (plausible_root here, the energy jump in the stepper) miss the spurious
// roots of spec 6 item 4: on the Coulomb body at dt = 0.5 they lie 1.5-1.6 predictor increments from the predictor
// (legitimate roots reach 1.4 on the fast top) and raise H by 0.15 H0. So the safeguard re-solves from the predictor
// and takes that root when the two differ.
template <int N, class Map>
void cross_check_previous_start(Map& G, const VecN<N>& predictor, const SolverOptions& o, OpCounters& c,
                                SolverStats& stats, Solution<N>& s) {
  Solution<N> ref = run_solver(G, predictor, o, c);
  ref.iterations += s.iterations;
  ref.by_fixed_point_from_predictor = o.kind == SolverKind::fixed_point;
  if (ref.converged && (ref.x - s.x).norm() > 1e-8 * tolerance_scale(ref.x)) {
    ++stats.root_rejections;
    s = ref;
  } else {
    s.iterations = ref.iterations;
  }
}

// The solve of one step: the chosen solver from the chosen start, then the safeguard and the fallback.
template <int N, class Map>
Solution<N> solve(Map& G, const VecN<N>& predictor, const VecN<N>& previous, const SolverOptions& o, OpCounters& c,
                  SolverStats& stats) {
  const bool from_predictor = o.start == StartKind::predictor;
  Solution<N> s = run_solver(G, from_predictor ? predictor : previous, o, c);
  s.by_fixed_point_from_predictor = o.kind == SolverKind::fixed_point && from_predictor;
  if (s.converged && o.safeguard && !from_predictor) cross_check_previous_start(G, predictor, o, c, stats, s);
  if (s.converged && (!o.safeguard || plausible_root(s.x, predictor, previous))) return s;
  if (s.by_fixed_point_from_predictor) return s;  // already the fallback
  if (s.converged)
    ++stats.root_rejections;
  else
    ++stats.fallbacks;
  return resolve_from_predictor(G, predictor, o, s.iterations);
}

}  // namespace gib::implicit
