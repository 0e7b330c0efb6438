// RKMK on N rigid particles (see the header for the kernel and its sources).
#include "methods/rkmk/rkmk_particles.hpp"

#include <array>

#include "core/errors.hpp"
#include "core/tso3.hpp"
#include "methods/particle_common.hpp"

namespace gib::rkmk {
namespace {

using particles::at;
using particles::ForceBuffer;
using particles::ParticleConstants;

using Alg = tso3::Algebra<double>;
using Elem = tso3::Element<double>;

// One algebra element per particle: the translation block (q, p) and the T*SO(3) block (Q, m).
struct Increments {
  Eigen::Matrix3Xd q, Q, p, m;
  void shape_for(int n) {
    particles::shape(q, n);
    particles::shape(Q, n);
    particles::shape(p, n);
    particles::shape(m, n);
  }
  void set_zero() {
    q.setZero();
    Q.setZero();
    p.setZero();
    m.setZero();
  }
  // this += s * k, the same arithmetic per component as tso3::Algebra's operators.
  void add_scaled(double s, const Increments& k) {
    q += s * k.q;
    Q += s * k.Q;
    p += s * k.p;
    m += s * k.m;
  }
  Alg rotation(int i) const { return {Q.col(i), m.col(i)}; }
};

class RkmkParticlesStepper final : public ParticlesStepper {
 public:
  RkmkParticlesStepper(const RigidParticlesModel& model, rkmk::Tableau t, int truncation, bool flipped_sign)
      : model_(model),
        constants_(model),
        t_(std::move(t)),
        truncation_(truncation),
        // The consistent series for y exp(sigma) is the right_multiply one; the ablation takes the other side's.
        series_side_(flipped_sign ? so3::ActionSide::left_multiply : so3::ActionSide::right_multiply) {}

  StepStatus step(ParticlesState& x, double h, OpCounters& c) override {
    shape_for(x.size());
    const int s = t_.stages();
    for (int r = 0; r < s; ++r) {
      const bool moved = stage_increment(r, h);
      if (moved) stage_state(x, c);
      const ParticlesState& y = moved ? stage_ : x;
      ++c.rhs_evals;
      forces_.evaluate(model_, y, c);
      stage_derivative(y, moved, k_[static_cast<std::size_t>(r)]);
    }
    update(x, h, c);
    return StepStatus::ok;
  }

 private:
  void shape_for(int n) {
    if (u_.q.cols() == n) return;
    u_.shape_for(n);
    for (int r = 0; r < t_.stages(); ++r) k_[static_cast<std::size_t>(r)].shape_for(n);
    particles::shape(stage_, n);
  }

  // U = h sum_j a_rj K_j over the nonzero coefficients; false when there are none (U = 0, the stage state is y_n).
  bool stage_increment(int r, double h) {
    u_.set_zero();
    bool moved = false;
    for (int j = 0; j < r; ++j) {
      const double a = t_.a[static_cast<std::size_t>(r)][static_cast<std::size_t>(j)];
      if (a == 0.0) continue;
      u_.add_scaled(h * a, k_[static_cast<std::size_t>(j)]);
      moved = true;
    }
    return moved;
  }

  // y_n exp(U), particle by particle: one Rodrigues evaluation each.
  void stage_state(const ParticlesState& x, OpCounters& c) {
    stage_.q = x.q + u_.q;
    stage_.p = x.p + u_.p;
    for (int i = 0; i < x.size(); ++i) {
      const Elem yi = tso3::act(Elem{x.Q[at(i)], x.m.col(i)}, u_.rotation(i), so3::ActionSide::right_multiply);
      stage_.Q[at(i)] = yi.R;
      stage_.m.col(i) = yi.mu;
    }
    c.exp_evals += x.size();
  }

  // K = dexp^{-1}_U (p/M, I^-1 m, F, tau); at U = 0 the series is the identity and is skipped, as in methods/rkmk/.
  void stage_derivative(const ParticlesState& y, bool moved, Increments& k) const {
    for (int i = 0; i < y.size(); ++i) {
      k.q.col(i) = y.p.col(i) * constants_.inv_mass(i);
      k.p.col(i) = forces_.F.col(i);
      const Alg v{constants_.inv_inertia.col(i).cwiseProduct(y.m.col(i)), forces_.tau.col(i)};
      const Alg ki = moved ? tso3::dexp_inv_series(u_.rotation(i), v, truncation_, series_side_) : v;
      k.Q.col(i) = ki.xi;
      k.m.col(i) = ki.zeta;
    }
  }

  // Sigma = h sum_r b_r K_r; y_{n+1} = y_n exp(Sigma).
  void update(ParticlesState& x, double h, OpCounters& c) {
    u_.set_zero();
    for (int r = 0; r < t_.stages(); ++r) {
      const double b = t_.b[static_cast<std::size_t>(r)];
      if (b != 0.0) u_.add_scaled(h * b, k_[static_cast<std::size_t>(r)]);
    }
    x.q += u_.q;
    x.p += u_.p;
    for (int i = 0; i < x.size(); ++i) {
      const Elem next = tso3::act(Elem{x.Q[at(i)], x.m.col(i)}, u_.rotation(i), so3::ActionSide::right_multiply);
      x.Q[at(i)] = next.R;
      x.m.col(i) = next.mu;
    }
    c.exp_evals += x.size();
  }

  const RigidParticlesModel& model_;  // owned by the problem; outlives the stepper
  ParticleConstants constants_;
  rkmk::Tableau t_;
  int truncation_;
  so3::ActionSide series_side_;
  std::array<Increments, kMaxRkmkStages> k_;
  Increments u_;
  ParticlesState stage_;
  ForceBuffer forces_;
};

}  // namespace

std::unique_ptr<ParticlesStepper> make_particles_stepper(const RigidParticlesModel& model, const Tableau& tableau,
                                                         int truncation, bool flipped_sign) {
  if (tableau.stages() > kMaxRkmkStages) throw InputError("rkmk tableau has too many stages for rigid particles");
  return std::make_unique<RkmkParticlesStepper>(model, tableau, truncation, flipped_sign);
}

}  // namespace gib::rkmk
