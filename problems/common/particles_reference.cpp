#include "problems/common/particles_reference.hpp"

#include "problems/common/rkf78_controlled.hpp"

#include <algorithm>
#include <boost/numeric/odeint/integrate/integrate_adaptive.hpp>
#include <boost/numeric/odeint/stepper/bulirsch_stoer.hpp>
#include <cmath>
#include <limits>
#include <map>
#include <mutex>
#include <stdexcept>
#include <string>

namespace gib {
namespace {

namespace odeint = boost::numeric::odeint;
using LD = long double;
using Vec3L = so3::Vec3T<LD>;
using Mat3L = so3::Mat3T<LD>;
using Matrix3XL = ParticlesForcesLD::Matrix3XL;
using Flat = std::vector<LD>;

constexpr LD kTolerance = 1e-17L;
constexpr double kErrorFloor = 1e-15;
constexpr std::size_t kMaxCheckpoints = 10000000;
constexpr std::size_t kMaxMemo = 20000;
constexpr int kQuat = 13;    // per particle: q(3) p(3) quaternion(4) m(3)
constexpr int kMatrix = 18;  // per particle: q(3) p(3) R row-major(9) m(3)

struct Dynamics {
  std::vector<LD> inv_mass;
  std::vector<Vec3L> inv_inertia;
  ParticlesForcesLD forces;

  int size() const { return static_cast<int>(inv_mass.size()); }

  static Mat3L rotation_of_quaternion(const LD* w) {
    const Eigen::Matrix<LD, 4, 1> q(w[0], w[1], w[2], w[3]);
    return so3::matrix_from_quaternion<LD>(q) / q.squaredNorm();
  }
  static Mat3L rotation_of_matrix(const LD* r) {
    Mat3L R;
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) R(i, j) = r[3 * i + j];
    return R;
  }

  // Shared by both embeddings: gather q and Q, evaluate F and tau.
  template <int Stride, class Rotation>
  void evaluate(const Flat& x, const Rotation& rotation, Matrix3XL& F, Matrix3XL& tau) const {
    const int n = size();
    Matrix3XL q(3, n);
    std::vector<Mat3L> Q(static_cast<std::size_t>(n));
    for (int i = 0; i < n; ++i) {
      const LD* b = &x[static_cast<std::size_t>(Stride * i)];
      q.col(i) = Vec3L(b[0], b[1], b[2]);
      Q[static_cast<std::size_t>(i)] = rotation(b + 6);
    }
    F.resize(3, n);
    tau.resize(3, n);
    forces.eval(q, Q, F, tau);
  }

  // Translation and momentum rows common to both layouts; m sits at offset `m_at` of the particle block.
  void translation_and_momentum(const LD* b, LD* d, int i, int m_at, const Matrix3XL& F, const Matrix3XL& tau,
                                Vec3L& omega) const {
    const auto ui = static_cast<std::size_t>(i);
    for (int k = 0; k < 3; ++k) d[k] = b[3 + k] * inv_mass[ui];
    for (int k = 0; k < 3; ++k) d[3 + k] = F(k, i);
    const Vec3L m(b[m_at], b[m_at + 1], b[m_at + 2]);
    omega = inv_inertia[ui].cwiseProduct(m);
    const Vec3L dm = m.cross(omega) + tau.col(i);
    for (int k = 0; k < 3; ++k) d[m_at + k] = dm(k);
  }

  void quaternion_rhs(const Flat& x, Flat& dx) const {
    Matrix3XL F, tau;
    evaluate<kQuat>(x, rotation_of_quaternion, F, tau);
    for (int i = 0; i < size(); ++i) {
      const LD* b = &x[static_cast<std::size_t>(kQuat * i)];
      LD* d = &dx[static_cast<std::size_t>(kQuat * i)];
      Vec3L w;
      translation_and_momentum(b, d, i, 10, F, tau, w);
      const LD* q = b + 6;  // q' = q (x) (0, omega) / 2
      d[6] = -(q[1] * w(0) + q[2] * w(1) + q[3] * w(2)) / 2;
      d[7] = (q[0] * w(0) + q[2] * w(2) - q[3] * w(1)) / 2;
      d[8] = (q[0] * w(1) + q[3] * w(0) - q[1] * w(2)) / 2;
      d[9] = (q[0] * w(2) + q[1] * w(1) - q[2] * w(0)) / 2;
    }
  }

  void matrix_rhs(const Flat& x, Flat& dx) const {
    Matrix3XL F, tau;
    evaluate<kMatrix>(x, rotation_of_matrix, F, tau);
    for (int i = 0; i < size(); ++i) {
      const LD* b = &x[static_cast<std::size_t>(kMatrix * i)];
      LD* d = &dx[static_cast<std::size_t>(kMatrix * i)];
      Vec3L w;
      translation_and_momentum(b, d, i, 15, F, tau, w);
      for (int r = 0; r < 3; ++r) {  // row r of R hat(omega) = (row r) x omega
        const LD a = b[6 + 3 * r], c1 = b[7 + 3 * r], c2 = b[8 + 3 * r];
        d[6 + 3 * r] = c1 * w(2) - c2 * w(1);
        d[7 + 3 * r] = c2 * w(0) - a * w(2);
        d[8 + 3 * r] = a * w(1) - c1 * w(0);
      }
    }
  }
};

Flat pack_quaternion(const ParticlesState& x) {
  Flat out(static_cast<std::size_t>(kQuat * x.size()));
  for (int i = 0; i < x.size(); ++i) {
    LD* b = &out[static_cast<std::size_t>(kQuat * i)];
    const auto q = so3::quaternion_from_matrix<LD>(x.Q[static_cast<std::size_t>(i)].cast<LD>());
    for (int k = 0; k < 3; ++k) {
      b[k] = x.q(k, i);
      b[3 + k] = x.p(k, i);
      b[10 + k] = x.m(k, i);
    }
    for (int k = 0; k < 4; ++k) b[6 + k] = q(k);
  }
  return out;
}

Flat pack_matrix(const ParticlesState& x) {
  Flat out(static_cast<std::size_t>(kMatrix * x.size()));
  for (int i = 0; i < x.size(); ++i) {
    LD* b = &out[static_cast<std::size_t>(kMatrix * i)];
    for (int k = 0; k < 3; ++k) {
      b[k] = x.q(k, i);
      b[3 + k] = x.p(k, i);
      b[15 + k] = x.m(k, i);
    }
    for (int r = 0; r < 3; ++r)
      for (int c = 0; c < 3; ++c) b[6 + 3 * r + c] = x.Q[static_cast<std::size_t>(i)](r, c);
  }
  return out;
}

// Both layouts unpacked to long double blocks (q, Q, p, m) for comparison and output.
struct StateLD {
  Matrix3XL q, p, m;
  std::vector<Mat3L> Q;
};

template <int Stride, int MAt, class Rotation> StateLD unpack(const Flat& x, int n, const Rotation& rotation) {
  StateLD s{Matrix3XL(3, n), Matrix3XL(3, n), Matrix3XL(3, n), std::vector<Mat3L>(static_cast<std::size_t>(n))};
  for (int i = 0; i < n; ++i) {
    const LD* b = &x[static_cast<std::size_t>(Stride * i)];
    s.q.col(i) = Vec3L(b[0], b[1], b[2]);
    s.p.col(i) = Vec3L(b[3], b[4], b[5]);
    s.m.col(i) = Vec3L(b[MAt], b[MAt + 1], b[MAt + 2]);
    s.Q[static_cast<std::size_t>(i)] = rotation(b + 6);
  }
  return s;
}

StateLD unpack_quaternion(const Flat& x, int n) { return unpack<kQuat, 10>(x, n, Dynamics::rotation_of_quaternion); }
StateLD unpack_matrix(const Flat& x, int n) { return unpack<kMatrix, 15>(x, n, Dynamics::rotation_of_matrix); }

LD difference(const StateLD& a, const StateLD& b) {
  LD s = (a.q - b.q).squaredNorm() + (a.p - b.p).squaredNorm() + (a.m - b.m).squaredNorm();
  for (std::size_t i = 0; i < a.Q.size(); ++i) s += (a.Q[i] - b.Q[i]).squaredNorm();
  return std::sqrt(s);
}

ParticlesState to_double(const StateLD& s) {
  ParticlesState x;
  x.q = s.q.cast<double>();
  x.p = s.p.cast<double>();
  x.m = s.m.cast<double>();
  for (const Mat3L& Q : s.Q) x.Q.push_back(Q.cast<double>());
  return x;
}

struct Checkpoint {
  Flat primary, secondary;
  LD difference_max = 0;
};

}  // namespace

struct ParticlesNumericalReference::Impl {
  Impl(ParticlesReferenceSetup s);

  ParticlesState x0;
  LD interval;
  Dynamics dynamics;
  std::vector<Checkpoint> checkpoints;
  std::map<double, std::pair<ParticlesState, LD>> memo;  // t -> (state, difference at t)
  std::mutex mutex;

  std::size_t checkpoint_index(double t) const;
  const Checkpoint& checkpoint(std::size_t k);
  void advance_primary(Flat& x, LD from, LD to) const;
  void advance_secondary(Flat& x, LD from, LD to) const;
  const std::pair<ParticlesState, LD>& at(double t);
};

ParticlesNumericalReference::Impl::Impl(ParticlesReferenceSetup s) : x0(s.x0), interval(s.checkpoint_interval) {
  if (!(s.checkpoint_interval > 0) || !std::isfinite(s.checkpoint_interval))
    throw std::invalid_argument("particles reference: checkpoint interval must be positive");
  const int n = x0.size();
  if (static_cast<int>(s.mass.size()) != n || static_cast<int>(s.inertia.size()) != n || !s.forces.eval)
    throw std::invalid_argument("particles reference: masses, inertia and forces must cover every particle");
  for (int i = 0; i < n; ++i) {
    dynamics.inv_mass.push_back(1.0L / s.mass[static_cast<std::size_t>(i)]);
    dynamics.inv_inertia.push_back(s.inertia[static_cast<std::size_t>(i)].cast<LD>().cwiseInverse());
  }
  dynamics.forces = std::move(s.forces);
  checkpoints.push_back({pack_quaternion(x0), pack_matrix(x0), 0});
}

std::size_t ParticlesNumericalReference::Impl::checkpoint_index(double t) const {
  if (!(t >= 0) || !std::isfinite(t)) throw std::domain_error("particles reference: t must be finite and >= 0");
  const LD k = std::floor(LD(t) / interval);
  if (k > LD(kMaxCheckpoints)) throw std::domain_error("particles reference: t = " + std::to_string(t) + " is too far");
  return static_cast<std::size_t>(k);
}

const Checkpoint& ParticlesNumericalReference::Impl::checkpoint(std::size_t k) {
  while (checkpoints.size() <= k) {
    Checkpoint next = checkpoints.back();
    const LD from = LD(checkpoints.size() - 1) * interval, to = LD(checkpoints.size()) * interval;
    advance_primary(next.primary, from, to);
    advance_secondary(next.secondary, from, to);
    const int n = x0.size();
    next.difference_max =
        std::max(next.difference_max, difference(unpack_quaternion(next.primary, n), unpack_matrix(next.secondary, n)));
    checkpoints.push_back(std::move(next));
  }
  return checkpoints[k];
}

// A fresh step-size control per call (problems/common/rkf78_controlled.hpp), so the result depends only on
// (x, from, to).
void ParticlesNumericalReference::Impl::advance_primary(Flat& x, LD from, LD to) const {
  const auto system = [this](const Flat& y, Flat& dy, LD) { dynamics.quaternion_rhs(y, dy); };
  rkf78_controlled(system, x, from, to, interval / 64, kTolerance, "particles reference");
}

void ParticlesNumericalReference::Impl::advance_secondary(Flat& x, LD from, LD to) const {
  if (!(to > from)) return;
  odeint::bulirsch_stoer<Flat, LD, Flat, LD> stepper(kTolerance, kTolerance);
  const auto system = [this](const Flat& y, Flat& dy, LD) { dynamics.matrix_rhs(y, dy); };
  odeint::integrate_adaptive(stepper, system, x, from, to, std::min(to - from, interval / 64));
}

const std::pair<ParticlesState, LD>& ParticlesNumericalReference::Impl::at(double t) {
  if (auto it = memo.find(t); it != memo.end()) return it->second;
  const std::size_t k = checkpoint_index(t);
  const Checkpoint& c = checkpoint(k);
  Flat primary = c.primary, secondary = c.secondary;
  const LD base_max = c.difference_max;
  advance_primary(primary, LD(k) * interval, LD(t));
  advance_secondary(secondary, LD(k) * interval, LD(t));
  const int n = x0.size();
  const StateLD a = unpack_quaternion(primary, n);
  const LD diff = std::max(base_max, difference(a, unpack_matrix(secondary, n)));
  if (memo.size() >= kMaxMemo) memo.clear();
  return memo.emplace(t, std::make_pair(t == 0 ? x0 : to_double(a), diff)).first->second;
}

ParticlesNumericalReference::ParticlesNumericalReference(ParticlesReferenceSetup setup)
    : impl_(std::make_unique<Impl>(std::move(setup))) {}

ParticlesNumericalReference::~ParticlesNumericalReference() = default;

ParticlesState ParticlesNumericalReference::state(double t) const {
  std::lock_guard<std::mutex> lock(impl_->mutex);
  return impl_->at(t).first;
}

double ParticlesNumericalReference::error_estimate(double t) const {
  std::lock_guard<std::mutex> lock(impl_->mutex);
  return std::max(static_cast<double>(impl_->at(t).second), kErrorFloor);
}

}  // namespace gib
