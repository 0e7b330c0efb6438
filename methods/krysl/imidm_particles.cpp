// IMIDM on rigid particles (see the header for the scheme, its properties and the solver).
#include "methods/krysl/imidm_particles.hpp"

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "methods/implicit/nonlinear_solver.hpp"
#include "methods/particle_common.hpp"

namespace gib::krysl {
namespace {

using particles::at;
using particles::ForceBuffer;
using particles::ParticleConstants;

// The 6N unknowns: midpoint linear and body angular momenta.
struct Unknowns {
  Eigen::Matrix3Xd p, m;
  void shape_for(int n) {
    particles::shape(p, n);
    particles::shape(m, n);
  }
  double norm() const { return std::sqrt(p.squaredNorm() + m.squaredNorm()); }
  bool finite() const { return p.allFinite() && m.allFinite(); }
};

double distance(const Unknowns& a, const Unknowns& b) {
  return std::sqrt((a.p - b.p).squaredNorm() + (a.m - b.m).squaredNorm());
}

double scale(const Unknowns& z) { return std::max(1.0, z.norm()); }

// How far above tol an iteration may stall at round-off and still count as converged (see run()).
constexpr double kStallFactor = 100;

struct RunResult {
  int iterations = 0;
  bool converged = false;
};

class ImidmParticlesStepper final : public ParticlesStepper, public implicit::SolverStatsSource {
 public:
  ImidmParticlesStepper(const RigidParticlesModel& model, const implicit::SolverOptions& o)
      : model_(model), constants_(model), opts_(o) {}

  StepStatus step(ParticlesState& x, double dt, OpCounters& c) override {
    shape_for(x.size());
    x0_ = &x;
    h_ = 0.5 * dt;
    c_ = &c;
    const RunResult s = solve();
    c.record_nonlinear_step(s.iterations);
    if (!s.converged) {
      ++c.solver_failures;
      return StepStatus::solver_failed;
    }
    finish(x);
    return StepStatus::ok;
  }

  const implicit::SolverStats& solver_stats() const override { return stats_; }

 private:
  void shape_for(int n) {
    if (z_.p.cols() == n) return;
    for (Unknowns* u : {&z_, &g_, &dz_, &alt_, &pred_, &prev_}) u->shape_for(n);
    particles::shape(mid_, n);
    E_.assign(at(n), Mat3::Identity());
  }

  // G(z): the midpoint configuration of z (kept in mid_, E_ and forces_ for finish) and the backward half step.
  void map(const Unknowns& z, Unknowns& g) {
    const ParticlesState& x = *x0_;
    ++c_->rhs_evals;
    for (int i = 0; i < x.size(); ++i) {
      mid_.q.col(i) = x.q.col(i) + (h_ * constants_.inv_mass(i)) * z.p.col(i);
      const Vec3 psi = h_ * constants_.inv_inertia.col(i).cwiseProduct(z.m.col(i));
      E_[at(i)] = so3::exp(psi);
      mid_.Q[at(i)] = x.Q[at(i)] * E_[at(i)];
    }
    c_->exp_evals += x.size();
    forces_.evaluate(model_, mid_, *c_);
    g.p = x.p + h_ * forces_.F;
    for (int i = 0; i < x.size(); ++i) g.m.col(i) = E_[at(i)].transpose() * x.m.col(i) + h_ * forces_.tau.col(i);
  }

  // The Newton correction with the free-rotor Jacobian dG_m/dz_m = exp(-psi) hat(m) dexp_left(psi) h I^-1 per
  // particle (the force and torque derivatives are unavailable: see the header); the translational block is G - z.
  void newton_correction(const Unknowns& z, const Unknowns& g, Unknowns& dz) const {
    const ParticlesState& x = *x0_;
    dz.p = g.p - z.p;
    for (int i = 0; i < x.size(); ++i) {
      const Vec3 winv = constants_.inv_inertia.col(i);
      const Vec3 psi = h_ * winv.cwiseProduct(z.m.col(i));
      const Mat3 J =
          E_[at(i)].transpose() * so3::hat(Vec3(x.m.col(i))) * so3::dexp_left(psi) * (h_ * winv).asDiagonal();
      dz.m.col(i) = (Mat3::Identity() - J).partialPivLu().solve(Vec3(g.m.col(i) - z.m.col(i)));
    }
    c_->linear_solves += x.size();
  }

  // Iterates from z. On convergence z is the last point where G was evaluated and g_ = G(z).
  // Converged: |dz| <= tol max(1, |z|), or the iteration has stalled at its round-off floor: |dz| stopped decreasing
  // while already below kStallFactor tol max(1, |z|). The floor is eps times the force changes that rounding the
  // midpoint positions causes, so it grows with |q| (at |q| ~ 1e4 it is above 1e-14 for the toy model of the tests),
  // and a tolerance of 1e-14 alone would fail far from the origin although nothing is wrong.
  RunResult run(Unknowns& z, implicit::SolverKind kind) {
    RunResult r;
    double last_step = std::numeric_limits<double>::infinity();
    while (r.iterations < opts_.max_iter) {
      ++r.iterations;
      map(z, g_);
      if (!g_.finite()) return r;
      if (kind == implicit::SolverKind::newton) {
        newton_correction(z, g_, dz_);
      } else {
        dz_.p = g_.p - z.p;
        dz_.m = g_.m - z.m;
      }
      if (!dz_.finite()) return r;
      const double step = dz_.norm();
      const double tol = opts_.tol * scale(z);
      if (step <= tol || (step >= last_step && last_step <= kStallFactor * tol)) {
        r.converged = true;  // z stays the evaluated point
        return r;
      }
      last_step = step;
      z.p += dz_.p;
      z.m += dz_.m;
    }
    return r;
  }

  // The explicit Euler half step from the start state (one force evaluation).
  void predictor() {
    const ParticlesState& x = *x0_;
    forces_.evaluate(model_, x, *c_);
    pred_.p = x.p + h_ * forces_.F;
    for (int i = 0; i < x.size(); ++i) {
      const Vec3 m = x.m.col(i);
      pred_.m.col(i) = m + h_ * (m.cross(constants_.inv_inertia.col(i).cwiseProduct(m)) + forces_.tau.col(i));
    }
  }

  // The policy of implicit::solve (start, cross-check of a root found from "previous", plausibility test, fixed-point
  // fallback from the predictor), on the 6N unknowns.
  RunResult solve() {
    const bool from_predictor = opts_.start == implicit::StartKind::predictor;
    prev_.p = x0_->p;
    prev_.m = x0_->m;
    if (from_predictor || opts_.safeguard) predictor();
    z_ = from_predictor ? pred_ : prev_;
    RunResult s = run(z_, opts_.kind);
    bool fixed_point_from_predictor = opts_.kind == implicit::SolverKind::fixed_point && from_predictor;
    if (s.converged && opts_.safeguard && !from_predictor) {
      alt_ = pred_;
      const RunResult r = run(alt_, opts_.kind);
      s.iterations += r.iterations;
      if (r.converged && distance(alt_, z_) > 1e-8 * scale(alt_)) {
        ++stats_.root_rejections;
        z_ = alt_;
        fixed_point_from_predictor = opts_.kind == implicit::SolverKind::fixed_point;
      } else {
        map(z_, g_);  // the buffers hold the cross-check's last evaluation: re-evaluate at the root kept
      }
    }
    if (s.converged && (!opts_.safeguard || plausible())) return s;
    if (fixed_point_from_predictor) return s;
    if (s.converged)
      ++stats_.root_rejections;
    else
      ++stats_.fallbacks;
    z_ = pred_;
    const RunResult f = run(z_, implicit::SolverKind::fixed_point);
    return {s.iterations + f.iterations, f.converged};
  }

  // Spec 6 item 4: the physical root lies within O(dt^2) of the O(dt) predictor.
  bool plausible() const {
    return distance(z_, pred_) <= 10 * distance(pred_, prev_) + 1e-8 * scale(pred_);
  }

  // The forward half step from the midpoint state, with the forces of the last evaluation (at z_'s configuration).
  void finish(ParticlesState& x) {
    for (int i = 0; i < x.size(); ++i) {
      x.q.col(i) = mid_.q.col(i) + (h_ * constants_.inv_mass(i)) * g_.p.col(i);
      x.p.col(i) = g_.p.col(i) + h_ * forces_.F.col(i);
      const Mat3 E = so3::exp(Vec3(h_ * constants_.inv_inertia.col(i).cwiseProduct(g_.m.col(i))));
      x.Q[at(i)] = mid_.Q[at(i)] * E;
      x.m.col(i) = E.transpose() * (g_.m.col(i) + h_ * forces_.tau.col(i));
    }
    ++c_->rhs_evals;
    c_->exp_evals += x.size();
  }

  const RigidParticlesModel& model_;  // owned by the problem; outlives the stepper
  ParticleConstants constants_;
  implicit::SolverOptions opts_;
  implicit::SolverStats stats_;
  // The step in progress.
  const ParticlesState* x0_ = nullptr;
  double h_ = 0;
  OpCounters* c_ = nullptr;
  Unknowns z_, g_, dz_, alt_, pred_, prev_;
  ParticlesState mid_;
  std::vector<Mat3> E_;
  ForceBuffer forces_;
};

}  // namespace

std::unique_ptr<ParticlesStepper> make_imidm_particles_stepper(const RigidParticlesModel& model, const Json& params,
                                                               const std::string& method_id) {
  return std::make_unique<ImidmParticlesStepper>(model, implicit::solver_options_from(params, method_id));
}

}  // namespace gib::krysl
