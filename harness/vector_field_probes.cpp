#include "harness/vector_field_probes.hpp"

#include <Eigen/LU>
#include <algorithm>
#include <boost/math/tools/minima.hpp>
#include <cmath>
#include <cstdint>
#include <limits>
#include <memory>

namespace gib::probes {
namespace {

std::unique_ptr<VectorFieldStepper> fresh_stepper(const MethodInfo& m, const VectorFieldModel& model, const Json& params) {
  auto s = m.vector_field(model, params);
  s->reset();
  return s;
}

// One step of a fresh stepper (a multistep method starts as it starts a run); false when it fails or leaves the
// finite numbers.
bool one_step(const MethodInfo& m, const VectorFieldModel& model, const Json& params, Eigen::VectorXd& x, double h) {
  VectorFieldState s{x};
  OpCounters c;
  const bool ok = fresh_stepper(m, model, params)->step(s, h, c) == StepStatus::ok && s.x.allFinite();
  x = s.x;
  return ok;
}

// Central differences of psi_h with steps eps and eps/2, combined by Richardson extrapolation: the O(eps^2)
// truncation cancels, leaving O(eps^4) ~ 1e-12 and round-off ~ 1e-16 / eps ~ 1e-13 (relative) at eps = 1e-3.
bool central_differences(const MethodInfo& m, const VectorFieldModel& model, const Json& params, const Eigen::VectorXd& x,
                         double h, Eigen::MatrixXd& D) {
  const Eigen::Index n = x.size();
  const auto columns = [&](double eps_rel, Eigen::MatrixXd& out) {
    out.resize(n, n);
    for (Eigen::Index j = 0; j < n; ++j) {
      const double e = eps_rel * std::max(1.0, std::abs(x(j)));
      Eigen::VectorXd plus = x, minus = x;
      plus(j) += e;
      minus(j) -= e;
      if (!one_step(m, model, params, plus, h) || !one_step(m, model, params, minus, h)) return false;
      out.col(j) = (plus - minus) / (2 * e);
    }
    return true;
  };
  Eigen::MatrixXd coarse, fine;
  if (!columns(1e-3, coarse) || !columns(0.5e-3, fine)) return false;
  D = (4 * fine - coarse) / 3;
  return true;
}

Eigen::MatrixXd canonical_j(int d) {
  Eigen::MatrixXd J = Eigen::MatrixXd::Zero(2 * d, 2 * d);
  J.topRightCorner(d, d).setIdentity();
  J.bottomLeftCorner(d, d) = -Eigen::MatrixXd::Identity(d, d);
  return J;
}

void keep_max(double& acc, double v) { acc = std::isnan(acc) ? v : std::max(acc, v); }

// The Poisson tensor M9 holds a step to: the skew-gradient S of a model that declares it Poisson, else the canonical
// J of a separable Hamiltonian (the special case, constant J), else none (S stays empty).
void poisson_tensor(const VectorFieldModel& model, const Eigen::VectorXd& x, Eigen::MatrixXd& S) {
  if ((model.structure() & kPoissonTensor) != 0) {
    model.skew_gradient()->matrix(x, S);
  } else if (const SeparableHamiltonian* H = model.separable_hamiltonian(); H != nullptr) {
    S = canonical_j(H->degrees_of_freedom());
  } else {
    S.resize(0, 0);
  }
}

}  // namespace

const char* to_string(TangentSource s) {
  return s == TangentSource::exact ? "the method's exact tangent map" : "Richardson-extrapolated central differences";
}

Tangent tangent(const MethodInfo& m, const VectorFieldModel& model, const Json& params, const Eigen::VectorXd& x, double h) {
  Tangent t;
  auto stepper = fresh_stepper(m, model, params);
  if (auto* exact = dynamic_cast<TangentMap*>(stepper.get())) {
    VectorFieldState s{x};
    OpCounters c;
    t.ok = exact->step_with_tangent(s, h, t.D, c) == StepStatus::ok && s.x.allFinite() && t.D.allFinite();
    t.image = s.x;
    return t;
  }
  t.source = TangentSource::central_differences;
  t.image = x;
  t.ok = one_step(m, model, params, t.image, h) && central_differences(m, model, params, x, h, t.D);
  return t;
}

PointProbes probe_points(const MethodInfo& m, const VectorFieldModel& model, const Json& params,
                         const std::vector<Eigen::VectorXd>& points, double h, const std::vector<std::string>& which) {
  PointProbes r;
  const auto wants = [&](const char* name) { return std::find(which.begin(), which.end(), name) != which.end(); };
  const Eigen::MatrixXd* R = model.reversing_involution();
  const SeparableHamiltonian* H = model.separable_hamiltonian();
  if (wants("reversibility") && R == nullptr) r.notes.emplace_back("reversibility: the model has no reversing involution");
  if (wants("symplecticity") && H == nullptr) r.notes.emplace_back("symplecticity: the model is not a separable Hamiltonian system");
  const bool poisson = wants("poisson") && ((model.structure() & kPoissonTensor) != 0 || H != nullptr);
  if (wants("poisson") && !poisson)
    r.notes.emplace_back("poisson: the model declares no Poisson tensor (kPoissonTensor) and is not canonical");
  bool symmetry_missing = false, failed = false;
  for (const Eigen::VectorXd& x : points) {
    if (wants("adjoint")) {
      // One stepper takes both steps, as the battery's symmetry check does: psi_-h from where psi_h left it.
      auto s = fresh_stepper(m, model, params);
      VectorFieldState y{x};
      OpCounters c;
      const bool ok = s->step(y, h, c) == StepStatus::ok && s->step(y, -h, c) == StepStatus::ok && y.x.allFinite();
      if (ok) keep_max(r.adjoint, (y.x - x).norm()); else failed = true;
    }
    if (wants("reversibility") && R != nullptr) {
      Eigen::VectorXd y = x;
      bool ok = one_step(m, model, params, y, h);
      y = *R * y;
      ok = ok && one_step(m, model, params, y, h);
      y = *R * y;
      if (ok) keep_max(r.reversibility, (y - x).norm()); else failed = true;
    }
    if (wants("symmetry")) {
      Eigen::VectorXd hx, a = x, b;
      if (!model.symmetry(x, hx)) {
        symmetry_missing = true;
      } else {
        // h(psi(x)) against psi(h(x))
        const bool ok = one_step(m, model, params, a, h) && model.symmetry(a, b);
        Eigen::VectorXd c = hx;
        if (ok && one_step(m, model, params, c, h)) keep_max(r.symmetry, (b - c).norm()); else failed = true;
      }
    }
    if (wants("volume") || (wants("symplecticity") && H != nullptr) || poisson) {
      const Tangent t = tangent(m, model, params, x, h);
      r.tangent_source = t.source;
      if (!t.ok) {
        failed = true;
        continue;
      }
      if (wants("volume")) keep_max(r.volume, std::abs(t.D.determinant() - 1.0));
      if (wants("symplecticity") && H != nullptr && 2 * H->degrees_of_freedom() == t.D.rows()) {
        const Eigen::MatrixXd J = canonical_j(H->degrees_of_freedom());
        keep_max(r.symplecticity, (t.D.transpose() * J * t.D - J).norm());
      }
      if (poisson) {
        Eigen::MatrixXd S, S_image;
        poisson_tensor(model, x, S);
        poisson_tensor(model, t.image, S_image);
        if (S.rows() == t.D.rows()) keep_max(r.poisson, (t.D * S * t.D.transpose() - S_image).norm());
      }
    }
  }
  if (symmetry_missing) r.notes.emplace_back("symmetry: the model has no symmetry");
  if (failed) r.notes.emplace_back("a probe's step failed or left the finite numbers at some point; its value is over the others");
  return r;
}

Lyapunov lyapunov_exponent(const MethodInfo& m, const VectorFieldModel& model, const Json& params,
                           const Eigen::VectorXd& x0, double h, std::int64_t N) {
  Lyapunov r;
  if (N <= 0) return r;
  auto stepper = fresh_stepper(m, model, params);
  auto* exact = dynamic_cast<TangentMap*>(stepper.get());
  r.source = exact != nullptr ? TangentSource::exact : TangentSource::central_differences;
  // A fixed direction with every component: no coordinate-aligned accident can hide the growing direction.
  Eigen::VectorXd v = Eigen::VectorXd::LinSpaced(x0.size(), 1.0, 2.0).normalized();
  VectorFieldState s{x0};
  Eigen::MatrixXd D;
  OpCounters c;
  double sum = 0;
  for (std::int64_t k = 0; k < N; ++k) {
    bool ok = true;
    if (exact != nullptr) {
      ok = exact->step_with_tangent(s, h, D, c) == StepStatus::ok;
    } else {
      // The run's own stepper advances the state (a multistep method keeps its history); the tangent of a single
      // step at the current point comes from fresh steppers.
      ok = central_differences(m, model, params, s.x, h, D) && stepper->step(s, h, c) == StepStatus::ok;
    }
    if (!ok || !s.x.allFinite() || !D.allFinite()) {
      r.note = "step " + std::to_string(k + 1) + " failed or left the finite numbers";
      return r;
    }
    v = D * v;
    const double growth = v.norm();
    sum += std::log(growth);
    v /= growth;
  }
  const double T = h * static_cast<double>(N);
  r.exponent = sum / T;
  r.resolution = std::log(static_cast<double>(N)) / T;
  return r;
}

PhaseSplit phase_split(const VectorFieldReference& ref, const Eigen::VectorXd& x, double t, double bound) {
  PhaseSplit r;
  if (!(bound >= 0) || !(bound <= t) || !x.allFinite()) return r;
  const auto distance2 = [&](double s) { return (x - ref.state(t + s).x).squaredNorm(); };
  constexpr int kScan = 64;
  const auto shift_at = [&](int i) { return -bound + 2 * bound * static_cast<double>(i) / kScan; };
  int best = 0;
  double best_d2 = INFINITY;
  for (int i = 0; i <= kScan; ++i) {
    const double d2 = distance2(shift_at(i));
    if (d2 < best_d2) {
      best_d2 = d2;
      best = i;
    }
  }
  // Brent's method within the neighbours of the best scanned shift; it keeps the scan's value if it does no better.
  std::uintmax_t iterations = 200;
  const auto [s, d2] = boost::math::tools::brent_find_minima(distance2, shift_at(std::max(best - 1, 0)),
                                                             shift_at(std::min(best + 1, kScan)),
                                                             std::numeric_limits<double>::digits / 2, iterations);
  r.shift = d2 < best_d2 ? s : shift_at(best);
  r.shape = std::sqrt(std::min(d2, best_d2));
  // Within a hundredth of a scan interval of an end: the minimum may lie beyond the window.
  r.at_bound = std::abs(std::abs(r.shift) - bound) <= 2 * bound / kScan / 100;
  return r;
}

}  // namespace gib::probes
