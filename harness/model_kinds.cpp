#include "harness/model_kinds.hpp"
#include "harness/rigid_body_probes.hpp"

#include <Eigen/SVD>
#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

#include "core/errors.hpp"
#include "core/user_input.hpp"
#include "harness/json_util.hpp"

namespace gib {

// ---------------------------------------------------------------------------------------------
// Rigid body

std::unique_ptr<Stepper<RigidBodyState>> RigidBodyKind::stepper(const MethodInfo& m, const RigidBodyProblem& p,
                                                                  const Json& params) {
  if (!m.rigid_body) throw InputError("method " + m.id + " does not support model kind rigid_body");
  return m.rigid_body(p.model(), params);
}

StateErrors RigidBodyKind::errors(const RigidBodyState& x, const RigidBodyState& ref) {
  StateErrors e;
  const double rot_geodesic = so3::rotation_angle<double>(ref.R.transpose() * x.R);
  const double rot_2norm = Eigen::JacobiSVD<Mat3>(x.R - ref.R).singularValues()(0);
  const double mom_err = (x.Pi - ref.Pi).norm();
  const double n = ref.Pi.norm();
  const double mom_rel_err = n > 0 ? mom_err / n : mom_err;
  e.value = {rot_geodesic, rot_2norm, mom_err, mom_rel_err, std::max(rot_2norm, mom_rel_err)};
  return e;
}

bool RigidBodyKind::finite(const RigidBodyState& x) { return x.R.allFinite() && x.Pi.allFinite(); }

// |Pi| against the momentum the initial energy scale allows, not against |Pi0|: a body released from rest
// (Pi0 = 0) must be free to fall.
std::string RigidBodyKind::divergence(const RigidBodyState& x, const RigidBodyProblem& p, double factor) {
  if (x.Pi.norm() > factor * p.momentum_scale())
    return "|Pi| grew beyond " + json_number(factor).dump() + " times the momentum scale " + json_number(p.momentum_scale()).dump();
  if (x.R.norm() > factor * std::sqrt(3.0)) return "|R| grew beyond " + json_number(factor).dump() + " times that of a rotation";
  return "";
}

double RigidBodyKind::manifold_residual(const RigidBodyState& x) { return so3::orthogonality_defect(x.R); }

double RigidBodyKind::turn(const RigidBodyState& before, const RigidBodyState& after) {
  return so3::rotation_angle<double>(before.R.transpose() * after.R);
}

double RigidBodyKind::energy(const RigidBodyProblem& p, const RigidBodyState& x) { return p.model().energy(x); }

double RigidBodyKind::distance(const RigidBodyState& a, const RigidBodyState& b) {
  return std::max((a.R - b.R).norm(), (a.Pi - b.Pi).norm() / std::max(b.Pi.norm(), 1e-300));
}

bool RigidBodyKind::bitwise_equal(const RigidBodyState& a, const RigidBodyState& b) {
  return std::memcmp(a.R.data(), b.R.data(), sizeof(double) * 9) == 0 &&
         std::memcmp(a.Pi.data(), b.Pi.data(), sizeof(double) * 3) == 0;
}

Json RigidBodyKind::state_json(const RigidBodyState& x) {
  Json r = Json::array(), p = Json::array();
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) r.push_back(json_number(x.R(i, j)));
  for (int i = 0; i < 3; ++i) p.push_back(json_number(x.Pi(i)));
  return {{"R", r}, {"Pi", p}};
}

RigidBodyKind::Observer::Observer(const RigidBodyProblem& p, const ObserveOptions& o)
    : p_(p), options_(o), pi_(o.series(kExtraSeries[0].name)), points_(p.initial_state(), o) {}

void RigidBodyKind::Observer::finish(const MethodInfo& m, const Json& params, const Cell& cell, bool) {
  if (options_.probes.empty()) return;
  const rigid_body_probes::Probes r = rigid_body_probes::probe(m, p_.model(), params, points_.points(), cell.h);
  Json notes = Json::array();
  for (const std::string& n : r.notes) notes.push_back(n);
  if (options_.probe("poisson")) {
    probe_metrics_[metrics::poisson_err.name] = json_number(r.poisson);
    probe_metrics_[metrics::poisson_printed_err.name] = json_number(r.poisson_printed);
  }
  if (options_.probe("reversibility")) probe_metrics_[metrics::reversibility_err.name] = json_number(r.reversibility);
  probe_metrics_[metrics::probe_notes.name] = notes;
}

void RigidBodyKind::Observer::write_metrics(Json& m) const {
  for (const auto& [k, v] : probe_metrics_.items()) m[k] = v;
}

void RigidBodyKind::Observer::record_series(const RigidBodyState& x, const StateErrors&, Json& series) const {
  if (pi_) series[metrics::Pi.name].push_back(Json::array({json_number(x.Pi(0)), json_number(x.Pi(1)), json_number(x.Pi(2))}));
}

// ---------------------------------------------------------------------------------------------
// Rigid particles

namespace {

double squared_state_norm(const ParticlesState& x) {
  double s = x.q.squaredNorm() + x.p.squaredNorm() + x.m.squaredNorm();
  for (const Mat3& Q : x.Q) s += Q.squaredNorm();
  return s;
}

Json columns_json(const Eigen::Matrix3Xd& a) {
  Json out = Json::array();
  for (Eigen::Index i = 0; i < a.cols(); ++i)
    out.push_back(Json::array({json_number(a(0, i)), json_number(a(1, i)), json_number(a(2, i))}));
  return out;
}

}  // namespace

std::unique_ptr<Stepper<ParticlesState>> ParticlesKind::stepper(const MethodInfo& m, const ParticlesProblem& p,
                                                                 const Json& params) {
  if (!m.particles) throw InputError("method " + m.id + " does not support model kind rigid_particles");
  return m.particles(p.model(), params);
}

StateErrors ParticlesKind::errors(const ParticlesState& x, const ParticlesState& ref) {
  double rot2 = 0;
  for (std::size_t i = 0; i < x.Q.size(); ++i) rot2 += (x.Q[i] - ref.Q[i]).squaredNorm();
  const double q2 = (x.q - ref.q).squaredNorm(), p2 = (x.p - ref.p).squaredNorm(), m2 = (x.m - ref.m).squaredNorm();
  StateErrors e;
  e.value = {std::sqrt(q2), std::sqrt(rot2), std::sqrt(p2), std::sqrt(m2), std::sqrt(q2 + rot2 + p2 + m2)};
  return e;
}

bool ParticlesKind::finite(const ParticlesState& x) {
  if (!x.q.allFinite() || !x.p.allFinite() || !x.m.allFinite()) return false;
  return std::all_of(x.Q.begin(), x.Q.end(), [](const Mat3& Q) { return Q.allFinite(); });
}

// Particles start at rest in Kjer's presets, so momenta have no initial size to compare with: kinetic energy
// beyond `factor` times the problem's energy scale, or a particle beyond `factor` times the initial extent,
// counts as diverged. Both scales are computed once by the problem (this runs every step).
std::string ParticlesKind::divergence(const ParticlesState& x, const ParticlesProblem& p, double factor) {
  if (p.model().kinetic_energy(x) > factor * p.energy_scale())
    return "kinetic energy grew beyond " + json_number(factor).dump() + " times the initial energy scale";
  if (x.q.colwise().norm().maxCoeff() > factor * p.extent())
    return "a particle moved beyond " + json_number(factor).dump() + " times the initial extent";
  return "";
}

double ParticlesKind::manifold_residual(const ParticlesState& x) {
  double r = 0;
  for (const Mat3& Q : x.Q) r = std::max(r, so3::orthogonality_defect(Q));
  return r;
}

double ParticlesKind::turn(const ParticlesState& before, const ParticlesState& after) {
  double a = 0;
  for (std::size_t i = 0; i < after.Q.size(); ++i)
    a = std::max(a, so3::rotation_angle<double>(before.Q[i].transpose() * after.Q[i]));
  return a;
}

double ParticlesKind::energy(const ParticlesProblem& p, const ParticlesState& x) { return p.model().energy(x); }

double ParticlesKind::error_scale(const ParticlesProblem& p) {
  return std::max(std::sqrt(squared_state_norm(p.initial_state())), 1.0);
}

double ParticlesKind::distance(const ParticlesState& a, const ParticlesState& b) {
  return errors(a, b).state_err() / std::max(std::sqrt(squared_state_norm(b)), 1.0);
}

bool ParticlesKind::bitwise_equal(const ParticlesState& a, const ParticlesState& b) {
  if (a.size() != b.size()) return false;
  const auto same = [](const Eigen::Matrix3Xd& u, const Eigen::Matrix3Xd& v) {
    return std::memcmp(u.data(), v.data(), sizeof(double) * static_cast<std::size_t>(u.size())) == 0;
  };
  if (!same(a.q, b.q) || !same(a.p, b.p) || !same(a.m, b.m)) return false;
  for (std::size_t i = 0; i < a.Q.size(); ++i)
    if (std::memcmp(a.Q[i].data(), b.Q[i].data(), sizeof(double) * 9) != 0) return false;
  return true;
}

Json ParticlesKind::state_json(const ParticlesState& x) {
  Json Q = Json::array();
  for (const Mat3& R : x.Q) {
    Json r = Json::array();
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) r.push_back(json_number(R(i, j)));
    Q.push_back(r);
  }
  return {{"q", columns_json(x.q)}, {"p", columns_json(x.p)}, {"m", columns_json(x.m)}, {"Q", Q}};
}

ParticlesKind::Observer::Observer(const ParticlesProblem& p, const ObserveOptions& o)
    : p_(p), configuration_(o.series(kExtraSeries[0].name)), orthogonality_(o.series(kExtraSeries[1].name)) {}

void ParticlesKind::Observer::record_series(const ParticlesState& x, const StateErrors&, Json& series) const {
  series[metrics::min_pair_distance.name].push_back(json_number(p_.model().min_pair_distance(x)));
  if (configuration_) {
    const Json s = state_json(x);
    series[metrics::q.name].push_back(s["q"]);
    series[metrics::Q.name].push_back(s["Q"]);
  }
  if (orthogonality_) {
    Json defects = Json::array();
    for (const Mat3& Q : x.Q) defects.push_back(json_number(so3::orthogonality_defect(Q)));
    series[metrics::orthogonality.name].push_back(defects);
  }
}

void ParticlesKind::Observer::write_metrics(Json& m) const {
  m[metrics::min_pair_distance_min.name] = json_number(min_distance_);
}

// ---------------------------------------------------------------------------------------------
// Newtonian systems

Json vector_json(const Eigen::VectorXd& v) {
  Json out = Json::array();
  for (Eigen::Index i = 0; i < v.size(); ++i) out.push_back(json_number(v(i)));
  return out;
}

namespace {

double squared_state_norm(const NewtonianState& x) { return x.q.squaredNorm() + x.v.squaredNorm(); }

}  // namespace

std::unique_ptr<Stepper<NewtonianState>> NewtonianKind::stepper(const MethodInfo& m, const NewtonianProblem& p,
                                                                 const Json& params) {
  if (!m.newtonian) throw InputError("method " + m.id + " does not support model kind newtonian");
  return m.newtonian(p.model(), params);
}

ClockedStepper<NewtonianState> NewtonianKind::clocked_stepper(const MethodInfo& m, const NewtonianProblem& p,
                                                              const Json& params, ModelClock& clock) {
  if (!m.newtonian) throw InputError("method " + m.id + " does not support model kind newtonian");
  auto model = std::make_shared<const ClockedNewtonianModel>(p.model(), clock);
  ClockedStepper<NewtonianState> out;
  out.stepper = m.newtonian(*model, params);
  out.model = std::move(model);
  return out;
}

StateErrors NewtonianKind::errors(const NewtonianProblem& p, const NewtonianState& x, const NewtonianState& ref) {
  const Eigen::VectorXd dq = x.q - ref.q;
  // A problem without a tip (the DNA chain) has no tip error: NaN, written as null, where 0 would read as an exact
  // tip.
  double tip2 = p.tip().empty() ? std::numeric_limits<double>::quiet_NaN() : 0.0;
  for (int i : p.tip()) tip2 += dq(i) * dq(i);
  const double q2 = dq.squaredNorm(), v2 = (x.v - ref.v).squaredNorm();
  StateErrors e;
  e.value = {std::sqrt(q2), std::sqrt(v2), std::sqrt(tip2), dq.cwiseAbs().maxCoeff(), std::sqrt(q2 + v2)};
  return e;
}

const NewtonianReference* NewtonianKind::reference(const NewtonianProblem& p, const MethodInfo& m) {
  return m.enforces_constraints ? p.constrained_reference() : p.reference();
}

bool NewtonianKind::finite(const NewtonianState& x) { return x.q.allFinite() && x.v.allFinite(); }

std::string NewtonianKind::divergence(const NewtonianState& x, const NewtonianProblem& p, double factor) {
  if (p.model().kinetic_energy(x.v) > factor * p.energy_scale())
    return "kinetic energy grew beyond " + json_number(factor).dump() + " times the initial energy scale";
  if (x.q.cwiseAbs().maxCoeff() > factor * p.extent())
    return "a coordinate grew beyond " + json_number(factor).dump() + " times the initial extent";
  return "";
}

double NewtonianKind::manifold_residual(const NewtonianProblem& p, const NewtonianState& x) {
  const ConstraintSet* c = p.model().constraint_set();
  if (c == nullptr) return 0.0;
  Eigen::VectorXd g;
  c->values(x.q, g);
  return g.norm();
}

double NewtonianKind::energy(const NewtonianProblem& p, const NewtonianState& x) { return p.model().energy(x); }

double NewtonianKind::distance(const NewtonianState& a, const NewtonianState& b) {
  return std::sqrt((a.q - b.q).squaredNorm() + (a.v - b.v).squaredNorm()) / std::max(std::sqrt(squared_state_norm(b)), 1.0);
}

bool NewtonianKind::bitwise_equal(const NewtonianState& a, const NewtonianState& b) {
  if (a.q.size() != b.q.size() || a.v.size() != b.v.size()) return false;
  const auto bytes = [](const Eigen::VectorXd& v) { return sizeof(double) * static_cast<std::size_t>(v.size()); };
  return std::memcmp(a.q.data(), b.q.data(), bytes(a.q)) == 0 && std::memcmp(a.v.data(), b.v.data(), bytes(a.v)) == 0;
}

Json NewtonianKind::state_json(const NewtonianState& x) { return {{"q", vector_json(x.q)}, {"v", vector_json(x.v)}}; }

NewtonianKind::Observer::Observer(const NewtonianProblem& p, const ObserveOptions& o)
    : p_(p), errors_(o.series_state_err), configuration_(o.series(kExtraSeries[0].name)) {
  // Names were checked with the cell (check_series_options); an unknown one is skipped here, not a second error.
  for (const std::string& name : o.distributions)
    for (const auto& d : p.distributions())
      if (d.name == name)
        histograms_.push_back({&d, std::vector<std::int64_t>(static_cast<std::size_t>(std::llround((d.hi - d.lo) / d.bin)), 0)});
}

std::vector<std::string> NewtonianKind::distribution_names(const NewtonianProblem& p) {
  std::vector<std::string> out;
  for (const auto& d : p.distributions()) out.push_back(d.name);
  return out;
}

void NewtonianKind::Observer::step_sample(const NewtonianState& x, bool in_window) {
  if (!in_window) return;
  for (Histogram& h : histograms_) {
    scratch_.clear();
    h.d->values(x, scratch_);
    ++h.states;
    const auto bins = static_cast<std::int64_t>(h.counts.size());
    for (double v : scratch_) {
      // floor((v - lo) / bin): a value on an edge goes to the bin above it; NaN counts as overflow.
      const double pos = std::floor((v - h.d->lo) / h.d->bin);
      if (pos < 0)
        ++h.underflow;
      else if (!(pos < static_cast<double>(bins)))
        ++h.overflow;
      else
        ++h.counts[static_cast<std::size_t>(pos)];
    }
  }
}

void NewtonianKind::Observer::write_row(Json& row) const {
  if (histograms_.empty()) return;
  Json out = Json::object();
  for (const Histogram& h : histograms_) {
    std::int64_t samples = h.underflow + h.overflow;
    for (auto c : h.counts) samples += c;
    out[h.d->name] = {{"lo", h.d->lo},           {"hi", h.d->hi},         {"bin", h.d->bin},
                      {"radial", h.d->radial},   {"counts", h.counts},    {"underflow", h.underflow},
                      {"overflow", h.overflow},  {"samples", samples},    {"states", h.states}};
  }
  row["distributions"] = out;
}

void NewtonianKind::Observer::record_series(const NewtonianState& x, const StateErrors& err, Json& series) const {
  // state_err itself is a generic series; its components are this kind's.
  if (errors_)
    for (std::size_t i = 0; i + 1 < StateErrors::kSize; ++i) series[kErrorNames[i]].push_back(json_number(err.value[i]));
  if (configuration_) series[metrics::q.name].push_back(vector_json(x.q));
}

double NewtonianKind::error_scale(const NewtonianProblem& p) {
  return std::max(std::sqrt(squared_state_norm(p.initial_state())), 1.0);
}

// ---------------------------------------------------------------------------------------------

namespace {

template <class Kind> Json reference_summary_of(const typename Kind::ProblemType& p, double T) {
  const auto* ref = p.reference();
  if (ref == nullptr) return nullptr;
  return {{"kind", ref->kind()}, {"error_estimate", json_number(ref->error_estimate(T))}};
}

template <class Kind> Json reference_states_of(const typename Kind::ProblemType& p, const std::vector<double>& times) {
  const auto* ref = p.reference();
  if (ref == nullptr) throw InputError("problem " + p.id() + " has no reference solution");
  Json states = Json::array();
  for (double t : times) {
    Json s = Kind::state_json(ref->state(t));
    s["t"] = t;
    s["error_estimate"] = json_number(ref->error_estimate(t));
    states.push_back(s);
  }
  return states;
}

}  // namespace

Json reference_summary(const Problem& p, double T) {
  return visit_kind(p, [&](auto kind, const auto& typed) {
    return reference_summary_of<typename decltype(kind)::type>(typed, T);
  });
}

Json reference_states(const Problem& p, const std::vector<double>& times) {
  return visit_kind(p, [&](auto kind, const auto& typed) {
    return reference_states_of<typename decltype(kind)::type>(typed, times);
  });
}

void probe_stepper(const MethodInfo& m, const Problem& p, const Json& params) {
  visit_kind(p, [&](auto kind, const auto& typed) { (void)decltype(kind)::type::stepper(m, typed, params); });
}

std::vector<std::string> metric_stems(const Problem& p) {
  return visit_kind(p, [](auto kind, const auto& typed) {
    using Kind = typename decltype(kind)::type;
    std::vector<std::string> stems(Kind::kErrorNames.begin(), Kind::kErrorNames.end());
    for (const auto& inv : typed.invariants())
      if (std::find(stems.begin(), stems.end(), inv.metric) == stems.end()) stems.push_back(inv.metric);
    return stems;
  });
}

bool is_reference_error_stem(const std::string& stem) {
  bool found = false;
  for_each_kind([&](auto kind) {
    const auto& names = decltype(kind)::type::kErrorNames;
    found = found || std::find(names.begin(), names.end(), stem) != names.end();
  });
  return found;
}

std::vector<std::string> summary_metrics(const Problem& p) {
  return visit_kind(p, [](auto kind, const auto& typed) {
    using Kind = typename decltype(kind)::type;
    std::vector<std::string> out = {metrics::key(metrics::state_err, metrics::kFinal)};
    for (std::size_t i = 0; i + 1 < Kind::Errors::kSize; ++i) out.push_back(std::string(Kind::kErrorNames[i]) + metrics::kFinal);
    for (const auto& inv : typed.invariants()) out.push_back(inv.metric + metrics::kMax);
    out.push_back(metrics::key(metrics::manifold_residual, metrics::kMax));
    return out;
  });
}

double initial_angular_speed(const Problem& p) {
  return visit_kind(p, [](auto kind, const auto& typed) { return decltype(kind)::type::initial_angular_speed(typed); });
}

void check_series_options(const Problem& p, const ObserveOptions& o) {
  visit_kind(p, [&](auto kind, const auto& typed) {
    using Kind = typename decltype(kind)::type;
    std::vector<std::string> valid;
    for (const ExtraSeries& s : Kind::kExtraSeries) valid.emplace_back(s.name);
    for (const std::string& name : o.series_extra)
      if (std::find(valid.begin(), valid.end(), name) == valid.end())
        throw InputError(unknown_id_message("series", name, valid,
                                            " for problem " + p.id() + " (model kind " + to_string(p.kind()) + ")"));
    std::vector<std::string> probes;
    for (const ExtraSeries& s : Kind::kProbes) probes.emplace_back(s.name);
    if (probes.empty() && !o.probes.empty())
      throw InputError("observe.probes: problem " + p.id() + " (model kind " + to_string(p.kind()) +
                       ") has no structure probes");
    for (const std::string& name : o.probes)
      if (std::find(probes.begin(), probes.end(), name) == probes.end())
        throw InputError(unknown_id_message("probe", name, probes,
                                            " for problem " + p.id() + " (model kind " + to_string(p.kind()) + ")"));
    const std::vector<std::string> distributions = Kind::distribution_names(typed);
    if (distributions.empty() && !o.distributions.empty())
      throw InputError("observe.distributions: problem " + p.id() + " has no distributions to sample");
    for (const std::string& name : o.distributions)
      if (std::find(distributions.begin(), distributions.end(), name) == distributions.end())
        throw InputError(unknown_id_message("distribution", name, distributions, " for problem " + p.id()));
  });
}

std::string registry_mismatch(const Problem& p, const ProblemInfo& info) {
  if (p.kind() != info.kind)
    return std::string("its model kind is ") + to_string(p.kind()) + ", the registry says " + to_string(info.kind);
  return visit_kind(p, [&](auto kind, const auto& typed) -> std::string {
    using Kind = typename decltype(kind)::type;
    if (info.torque_free && !Kind::torque_free(typed)) return "it has a potential; the registry says torque-free";
    if (info.constrained != Kind::constrained(typed))
      return info.constrained ? "it has no constraints; the registry says constrained" : "it has constraints the registry does not declare";
    if (const unsigned s = Kind::structure(typed); s != info.structure)
      return "it has " + (s != 0 ? structure_names(s) : std::string("no declared structure")) + "; the registry says " +
             (info.structure != 0 ? structure_names(info.structure) : std::string("none"));
    return "";
  });
}

}  // namespace gib
