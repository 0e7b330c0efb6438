// Boost.Odeint on the embedded rigid-particle ODE (see the header).
//
// The state is a std::vector<double> of 18 N entries (odeint's range algebra); odeint sizes its stage buffers on the
// first step and keeps them, so later steps allocate nothing. The system functor unpacks the embedded state into a
// ParticlesState owned by the stepper (for the model's force call) and packs the derivative back.
#include "methods/classical/odeint_particles.hpp"

#include <boost/numeric/odeint/stepper/euler.hpp>
#include <boost/numeric/odeint/stepper/runge_kutta4.hpp>
#include <boost/numeric/odeint/stepper/runge_kutta_dopri5.hpp>
#include <boost/numeric/odeint/stepper/runge_kutta_fehlberg78.hpp>
#include <cstring>
#include <vector>

#include "methods/classical/odeint_loop.hpp"
#include "methods/particle_common.hpp"

namespace gib::classical {
namespace {

using particles::at;
using particles::ForceBuffer;
using particles::ParticleConstants;

namespace odeint = boost::numeric::odeint;

using EmbeddedState = std::vector<double>;
constexpr std::size_t kPerParticle = 18;  // q (3), Q row-major (9), p (3), m (3)

std::size_t offset(int i) { return kPerParticle * at(i); }

void load(const ParticlesState& x, EmbeddedState& y) {
  y.resize(kPerParticle * at(x.size()));
  for (int i = 0; i < x.size(); ++i) {
    double* b = y.data() + offset(i);
    const Mat3& Q = x.Q[at(i)];
    for (int r = 0; r < 3; ++r) {
      b[r] = x.q(r, i);
      for (int s = 0; s < 3; ++s) b[3 + 3 * r + s] = Q(r, s);
      b[12 + r] = x.p(r, i);
      b[15 + r] = x.m(r, i);
    }
  }
}

void store(const EmbeddedState& y, ParticlesState& x) {
  for (int i = 0; i < x.size(); ++i) {
    const double* b = y.data() + offset(i);
    Mat3& Q = x.Q[at(i)];
    for (int r = 0; r < 3; ++r) {
      x.q(r, i) = b[r];
      for (int s = 0; s < 3; ++s) Q(r, s) = b[3 + 3 * r + s];
      x.p(r, i) = b[12 + r];
      x.m(r, i) = b[15 + r];
    }
  }
}

// Is x, bit for bit, the state the stepper wrote from y (NaN-safe)?
bool holds(const ParticlesState& x, const EmbeddedState& y) {
  if (y.size() != kPerParticle * at(x.size())) return false;
  for (int i = 0; i < x.size(); ++i) {
    const double* b = y.data() + offset(i);
    const Mat3 Q = x.Q[at(i)].transpose();  // column-major storage of Q^T = Q row-major
    if (std::memcmp(b, x.q.col(i).data(), 3 * sizeof(double)) != 0 ||
        std::memcmp(b + 3, Q.data(), 9 * sizeof(double)) != 0 ||
        std::memcmp(b + 12, x.p.col(i).data(), 3 * sizeof(double)) != 0 ||
        std::memcmp(b + 15, x.m.col(i).data(), 3 * sizeof(double)) != 0)
      return false;
  }
  return true;
}

// What the system functor works in: the model, its constants, and the buffers of one evaluation.
struct Workspace {
  const RigidParticlesModel* model;
  ParticleConstants constants;
  ParticlesState stage;
  ForceBuffer forces;
};

struct System {
  Workspace* w;
  OpCounters* counters;

  void operator()(const EmbeddedState& y, EmbeddedState& dy, double /*t*/) const {
    ++counters->rhs_evals;
    store(y, w->stage);
    w->forces.evaluate(*w->model, w->stage, *counters);
    for (int i = 0; i < w->stage.size(); ++i) {
      const double* b = y.data() + offset(i);
      double* d = dy.data() + offset(i);
      const Vec3 m(b[15], b[16], b[17]);
      const Vec3 omega = w->constants.inv_inertia.col(i).cwiseProduct(m);
      const Vec3 md = m.cross(omega) + w->forces.tau.col(i);
      for (int r = 0; r < 3; ++r) {
        d[r] = b[12 + r] * w->constants.inv_mass(i);
        // Row r of Q hat(omega) is (row r of Q) x omega.
        const Vec3 row(b[3 + 3 * r], b[4 + 3 * r], b[5 + 3 * r]);
        const Vec3 drow = row.cross(omega);
        for (int s = 0; s < 3; ++s) d[3 + 3 * r + s] = drow(s);
        d[12 + r] = w->forces.F(r, i);
        d[15 + r] = md(r);
      }
    }
  }
};

template <template <class> class OdeStepperT>
class OdeintParticlesStepper final : public ParticlesStepper {
 public:
  explicit OdeintParticlesStepper(const RigidParticlesModel& model) : w_{&model, ParticleConstants(model), {}, {}} {}

  StepStatus step(ParticlesState& x, double h, OpCounters& c) override { return advance(x, h, 1, c).status; }

  // The embedded state is unpacked into x once per call, not once per step.
  Advanced advance(ParticlesState& x, double h, std::int64_t n, OpCounters& c) override {
    if (n <= 0) return {StepStatus::ok, 0};
    if (!initialised_ || !holds(x, y_)) {
      load(x, y_);
      particles::shape(w_.stage, x.size());
      reset_odeint(stepper_);
      initialised_ = true;
      t_ = 0.0;
    }
    const System system{&w_, &c};
    t_ = odeint_n_steps(stepper_, system, y_, t_, h, n);
    store(y_, x);
    return {StepStatus::ok, n};
  }

  void reset() override {
    initialised_ = false;
    reset_odeint(stepper_);
  }

 private:
  Workspace w_;
  OdeStepperT<EmbeddedState> stepper_;
  EmbeddedState y_;
  double t_ = 0.0;  // autonomous system; tracked only so odeint sees a consistent time
  bool initialised_ = false;
};

template <class S> using EulerT = odeint::euler<S>;
template <class S> using Rk4T = odeint::runge_kutta4<S>;
template <class S> using Dopri5T = odeint::runge_kutta_dopri5<S>;
template <class S> using Rkf78T = odeint::runge_kutta_fehlberg78<S>;

}  // namespace

std::unique_ptr<ParticlesStepper> make_odeint_particles_stepper(Scheme scheme, const RigidParticlesModel& model) {
  switch (scheme) {
    case Scheme::euler: return std::make_unique<OdeintParticlesStepper<EulerT>>(model);
    case Scheme::rk4: return std::make_unique<OdeintParticlesStepper<Rk4T>>(model);
    case Scheme::dopri5: return std::make_unique<OdeintParticlesStepper<Dopri5T>>(model);
    case Scheme::rkf78: return std::make_unique<OdeintParticlesStepper<Rkf78T>>(model);
  }
  return nullptr;
}

}  // namespace gib::classical
