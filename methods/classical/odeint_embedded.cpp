// Classical Runge-Kutta through Boost.Odeint on the embedded rigid-body ODE (see the header).
//
// Design notes
//   * The embedded state (12 matrix entries or 4 quaternion components, then Pi) lives inside the stepper
//     between steps. Re-extracting a quaternion from R every step would be a hidden renormalisation, so
//     the stepper only re-initialises from the caller's state when that state is not bit-for-bit the one
//     it wrote back last time (first step, after reset(), or when the caller edits the state).
//   * Dormand-Prince is FSAL: odeint keeps the derivative at the end of the last step and reuses it as the
//     first stage of the next one. That derivative belongs to the internal state, so it is dropped (the odeint
//     stepper is reset) whenever the internal state is re-initialised. The first step after a
//     (re-)initialisation therefore costs 7 evaluations and every further step 6; all of them are counted
//     because the counting happens inside the system functor odeint calls.
//   * Each stepper is used through integrate_n_steps (odeint_loop.hpp), i.e. do_step(system, x, t, dt) with a
//     fixed dt. For runge_kutta_dopri5 and runge_kutta_fehlberg78 that propagates the higher-order solution
//     (orders 5 and 8; the embedded lower-order solution only enters the error estimate, never requested here).
//   * std::array states use odeint's array_algebra and by-value state wrappers: no heap allocation per step.
#include "methods/classical/odeint_embedded.hpp"

#include <array>
#include <boost/numeric/odeint/stepper/euler.hpp>
#include <boost/numeric/odeint/stepper/runge_kutta4.hpp>
#include <boost/numeric/odeint/stepper/runge_kutta_dopri5.hpp>
#include <boost/numeric/odeint/stepper/runge_kutta_fehlberg78.hpp>
#include <cstring>
#include <memory>
#include <nlohmann/json.hpp>

#include <utility>
#include <vector>

#include "methods/classical/odeint_loop.hpp"
#include "methods/classical/odeint_particles.hpp"

namespace gib::classical {
namespace {

namespace odeint = boost::numeric::odeint;

using MatrixState = std::array<double, 12>;     // R row-major, then Pi
using QuaternionState = std::array<double, 7>;  // q = (w, x, y, z), then Pi

// What the system functors count, in the advance() call's own frame rather than through the caller's OpCounters.
struct Tally {
  std::int64_t rhs_evals = 0, force_evals = 0;
};

// The right-hand sides below are written on scalars, with the operations of RigidBodyModel::angular_velocity and
// Eigen's cross and dot in their order (the same bits; bench_floor.cpp checks the quaternion one against a plain
// Odeint loop). Built from Eigen vectors, the state's entries were loaded two at a time right after Odeint's stage
// arithmetic had stored them one at a time, a failed store-to-load forwarding (perf annotate): with everything else
// as below, the RK4 step cost 2.1x plain Odeint's instead of 1.1x (bench/overhead.py).

// Pidot = Pi x omega + T(R) into out[0..2]; attitude() builds R, only under torque. Whether there is a torque is a
// template argument chosen once per advance() call, so the torque-free loop carries no test of the potential.
template <bool Torque, class Attitude>
[[gnu::always_inline]] inline void momentum_rate(double p0, double p1, double p2, double w0, double w1, double w2,
                                                 const RigidBodyPotential* potential, Tally& tally, double* out,
                                                 Attitude attitude) {
  double d0 = p1 * w2 - p2 * w1, d1 = p2 * w0 - p0 * w2, d2 = p0 * w1 - p1 * w0;
  if constexpr (Torque) {
    ++tally.force_evals;
    const Vec3 T = potential->body_torque(attitude());
    d0 += T(0);
    d1 += T(1);
    d2 += T(2);
  }
  out[0] = d0;
  out[1] = d1;
  out[2] = d2;
}

// Right-hand side of the matrix embedding. Row i of R hat(omega) is r_i x omega.
template <bool Torque> struct MatrixSystem {
  Vec3 inv_inertia;
  const RigidBodyPotential* potential;
  Tally* counters;

  [[gnu::always_inline]] void operator()(const MatrixState& y, MatrixState& dy, double /*t*/) const {
    ++counters->rhs_evals;
    const double p0 = y[9], p1 = y[10], p2 = y[11];
    const double w0 = inv_inertia(0) * p0, w1 = inv_inertia(1) * p1, w2 = inv_inertia(2) * p2;
    for (int i = 0; i < 3; ++i) {
      const double r0 = y[3 * i], r1 = y[3 * i + 1], r2 = y[3 * i + 2];
      dy[3 * i] = r1 * w2 - r2 * w1;
      dy[3 * i + 1] = r2 * w0 - r0 * w2;
      dy[3 * i + 2] = r0 * w1 - r1 * w0;
    }
    momentum_rate<Torque>(p0, p1, p2, w0, w1, w2, potential, *counters, dy.data() + 9, [&y] {
      Mat3 R;
      R << y[0], y[1], y[2], y[3], y[4], y[5], y[6], y[7], y[8];
      return R;
    });
  }
};

// Right-hand side of the quaternion embedding: qdot = q (x) (0, omega) / 2 (body angular velocity),
// Pidot = Pi x omega + T(R(q)) with the homogeneous R(q) of so3.hpp (no normalisation of q).
template <bool Torque> struct QuaternionSystem {
  Vec3 inv_inertia;
  const RigidBodyPotential* potential;
  Tally* counters;

  [[gnu::always_inline]] void operator()(const QuaternionState& y, QuaternionState& dy, double /*t*/) const {
    ++counters->rhs_evals;
    const double p0 = y[4], p1 = y[5], p2 = y[6];
    const double w0 = inv_inertia(0) * p0, w1 = inv_inertia(1) * p1, w2 = inv_inertia(2) * p2;
    const double qw = y[0], qx = y[1], qy = y[2], qz = y[3];
    dy[0] = -0.5 * (qx * w0 + qy * w1 + qz * w2);  // -v . omega / 2
    dy[1] = 0.5 * (qw * w0 + (qy * w2 - qz * w1));  // (w omega + v x omega) / 2
    dy[2] = 0.5 * (qw * w1 + (qz * w0 - qx * w2));
    dy[3] = 0.5 * (qw * w2 + (qx * w1 - qy * w0));
    momentum_rate<Torque>(p0, p1, p2, w0, w1, w2, potential, *counters, dy.data() + 4,
                  [=] { return so3::matrix_from_quaternion(Eigen::Vector4d(qw, qx, qy, qz)); });
  }
};

struct MatrixEmbedding {
  using state_type = MatrixState;
  template <bool Torque> using system_type = MatrixSystem<Torque>;
  static void load(const RigidBodyState& x, state_type& y) {
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) y[3 * i + j] = x.R(i, j);
    y[9] = x.Pi(0);
    y[10] = x.Pi(1);
    y[11] = x.Pi(2);
  }
  static void store(const state_type& y, RigidBodyState& x) {
    x.R << y[0], y[1], y[2], y[3], y[4], y[5], y[6], y[7], y[8];
    x.Pi = Vec3(y[9], y[10], y[11]);
  }
};

struct QuaternionEmbedding {
  using state_type = QuaternionState;
  template <bool Torque> using system_type = QuaternionSystem<Torque>;
  static void load(const RigidBodyState& x, state_type& y) {
    const Eigen::Vector4d q = so3::quaternion_from_matrix(x.R);
    for (int i = 0; i < 4; ++i) y[i] = q(i);
    y[4] = x.Pi(0);
    y[5] = x.Pi(1);
    y[6] = x.Pi(2);
  }
  static void store(const state_type& y, RigidBodyState& x) {
    x.R = so3::matrix_from_quaternion(Eigen::Vector4d(y[0], y[1], y[2], y[3]));
    x.Pi = Vec3(y[4], y[5], y[6]);
  }
};


template <class Embedding, template <class> class OdeStepperT>
class OdeintStepper final : public RigidBodyStepper {
  using state_type = typename Embedding::state_type;
  using ode_stepper_type = OdeStepperT<state_type>;

 public:
  explicit OdeintStepper(const RigidBodyModel& model) : model_(model) {}
  OdeintStepper(const RigidBodyModel& model, ode_stepper_type stepper) : model_(model), stepper_(std::move(stepper)) {}

  StepStatus step(RigidBodyState& x, double h, OpCounters& c) override { return advance(x, h, 1, c).status; }

  // The embedded state is converted from and to (R, Pi) once per call, not once per step. The loop runs on a local
  // copy of the state and local counts, Odeint on its own copy of the stepper (odeint_loop.hpp), all inlined
  // (flatten), so that the compiler can keep Odeint's stage temporaries out of memory as it does in a plain Odeint
  // loop; on the members of this heap object it could not (1.6x plain Odeint's time per RK4 step).
  [[gnu::flatten]] Advanced advance(RigidBodyState& x, double h, std::int64_t n, OpCounters& c) override {
    if (n <= 0) return {StepStatus::ok, 0};
    if (!initialised_ || !same_bits(x, last_)) {
      Embedding::load(x, y_);
      reset_odeint(stepper_);
      initialised_ = true;
      t_ = 0.0;
    }
    Tally tally;
    if (model_.potential() != nullptr)
      run<true>(h, n, tally);
    else
      run<false>(h, n, tally);
    c.rhs_evals += tally.rhs_evals;
    c.force_evals += tally.force_evals;
    Embedding::store(y_, x);
    last_ = x;
    return {StepStatus::ok, n};
  }

  void reset() override {
    initialised_ = false;
    reset_odeint(stepper_);
  }

 private:
  // The loop (odeint_loop.hpp) runs on a local copy of the state, as the plain peer of bench_floor.cpp does.
  // With a hand-written do_step loop (t += h) and the stepper passed by reference, GCC 12 spilled more stage
  // temporaries (perf annotate: 130 stack loads per RK4 step against the peer's 92): a step cost 1.16-1.19x the
  // peer's; with integrate_n_steps and the stepper by reference, 1.13-1.15x; as below, 1.05-1.07x
  // (bench/overhead.py).
  template <bool Torque> void run(double h, std::int64_t n, Tally& tally) {
    const typename Embedding::template system_type<Torque> system{model_.inverse_inertia(), model_.potential(),
                                                                  &tally};
    state_type y = y_;
    t_ = odeint_n_steps(stepper_, system, y, t_, h, n);
    y_ = y;
  }

  const RigidBodyModel& model_;
  ode_stepper_type stepper_;
  state_type y_{};
  RigidBodyState last_;
  double t_ = 0.0;  // the system is autonomous; tracked only so odeint sees a consistent time
  bool initialised_ = false;
};

// An explicit Runge-Kutta step with the tableau as run-time data (method files, family classical_rk): an Odeint
// stepper by its interface (stepper_tag, do_step), so that it runs in the same loop as Odeint's own RK4.
//   k_i = f(y + dt sum_{j<i} a_ij k_j),   y <- y + dt sum_i b_i k_i;   a zero coefficient is skipped.
template <class S> class TableauStepperT {
 public:
  using state_type = S;
  using deriv_type = S;
  using value_type = double;
  using time_type = double;
  using order_type = unsigned short;
  using stepper_category = odeint::stepper_tag;

  TableauStepperT() = default;
  explicit TableauStepperT(std::shared_ptr<const rkmk::DoubleTableau> t) : t_(std::move(t)), k_(t_->stages()) {}

  template <class System> void do_step(System system, S& y, double t, double dt) {
    const rkmk::DoubleTableau& tab = *t_;
    for (std::size_t i = 0; i < k_.size(); ++i) {
      S stage = y;
      for (std::size_t j = 0; j < i; ++j) {
        if (tab.a[i][j] == 0) continue;
        const double w = dt * tab.a[i][j];
        for (std::size_t e = 0; e < stage.size(); ++e) stage[e] += w * k_[j][e];
      }
      system(stage, k_[i], t);  // autonomous: the stage time is not needed
    }
    for (std::size_t i = 0; i < k_.size(); ++i) {
      if (tab.b[i] == 0) continue;
      const double w = dt * tab.b[i];
      for (std::size_t e = 0; e < y.size(); ++e) y[e] += w * k_[i][e];
    }
  }

 private:
  std::shared_ptr<const rkmk::DoubleTableau> t_;
  std::vector<S> k_;  // the stages' derivatives
};

// Each odeint stepper with its default value/deriv/time/algebra types for a std::array state.
template <class S> using EulerT = odeint::euler<S>;
template <class S> using Rk4T = odeint::runge_kutta4<S>;
template <class S> using Dopri5T = odeint::runge_kutta_dopri5<S>;
template <class S> using Rkf78T = odeint::runge_kutta_fehlberg78<S>;

template <class Embedding>
std::unique_ptr<RigidBodyStepper> make_stepper(Scheme scheme, const RigidBodyModel& model) {
  switch (scheme) {
    case Scheme::euler: return std::make_unique<OdeintStepper<Embedding, EulerT>>(model);
    case Scheme::rk4: return std::make_unique<OdeintStepper<Embedding, Rk4T>>(model);
    case Scheme::dopri5: return std::make_unique<OdeintStepper<Embedding, Dopri5T>>(model);
    case Scheme::rkf78: return std::make_unique<OdeintStepper<Embedding, Rkf78T>>(model);
  }
  return nullptr;
}

struct SchemeInfo {
  const char* name;
  int order;
  const char* origin;
};

SchemeInfo scheme_info(Scheme s) {
  switch (s) {
    case Scheme::euler: return {"Euler", 1, "explicit Euler (Euler 1768)"};
    case Scheme::rk4: return {"RK4", 4, "classical Runge-Kutta (Kutta 1901)"};
    case Scheme::dopri5:
      return {"Dormand-Prince 5", 5, "Dormand & Prince 1980, 5th-order solution, fixed step"};
    case Scheme::rkf78:
      return {"RKF78", 8, "Runge-Kutta-Fehlberg 7(8) (Fehlberg 1968), 8th-order solution, fixed step"};
  }
  return {"?", 0, "?"};
}

}  // namespace

MethodInfo embedded_tableau_method(std::string id, std::string display_name, std::string citation,
                                   const rkmk::Tableau& tableau, Embedding embedding) {
  MethodInfo m;
  m.id = std::move(id);
  m.display_name = std::move(display_name);
  m.citation = std::move(citation) + (embedding == Embedding::quaternion
                                          ? "; embedded ODE in the unit quaternion and Pi, no renormalisation"
                                          : "; embedded ODE in the nine entries of R and Pi, no re-orthogonalisation");
  m.family = "classical";
  m.claims.order = tableau.order;
  m.default_params = Json::object();
  auto t = std::make_shared<const rkmk::DoubleTableau>(rkmk::in_double(tableau));
  m.rigid_body = [t, embedding](const RigidBodyModel& model, const Json& /*params*/) -> std::unique_ptr<RigidBodyStepper> {
    if (embedding == Embedding::quaternion)
      return std::make_unique<OdeintStepper<QuaternionEmbedding, TableauStepperT>>(model, TableauStepperT<QuaternionState>(t));
    return std::make_unique<OdeintStepper<MatrixEmbedding, TableauStepperT>>(model, TableauStepperT<MatrixState>(t));
  };
  return m;
}

MethodInfo odeint_method(std::string id, Scheme scheme, Embedding embedding) {
  const SchemeInfo s = scheme_info(scheme);
  const bool quat = embedding == Embedding::quaternion;
  MethodInfo m;
  m.id = std::move(id);
  m.display_name = std::string("odeint ") + s.name + (quat ? " (quaternion)" : " (matrix)");
  m.citation = std::string("Boost.Odeint (Ahnert & Mulansky 2011); ") + s.origin + "; embedded ODE in " +
               (quat ? "the unit quaternion" : "the nine entries of R") + " and Pi, no renormalisation";
  m.family = "classical";
  m.claims.order = s.order;
  m.claims.implicit = false;
  m.claims.symmetric = false;
  m.claims.symplectic = false;
  m.claims.stays_on_group = false;
  m.default_params = Json::object();
  m.rigid_body = [scheme, quat](const RigidBodyModel& model, const Json& /*params*/) {
    return quat ? make_stepper<QuaternionEmbedding>(scheme, model) : make_stepper<MatrixEmbedding>(scheme, model);
  };
  // Rigid particles: the matrix embedding of every orientation (odeint_particles.hpp). The p-update
  // is linear in the forces, so sum p_i is kept whenever the pair forces cancel; nothing else is claimed.
  if (!quat) {
    m.claims.invariants = {{Invariant::linear_momentum, Preservation::exact, Applies::always}};
    m.particles = [scheme](const RigidParticlesModel& model, const Json& /*params*/) {
      return make_odeint_particles_stepper(scheme, model);
    };
  }
  return m;
}

}  // namespace gib::classical
