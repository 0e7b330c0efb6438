#include "core/problem.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <stdexcept>

#include "core/errors.hpp"
#include "core/hash.hpp"
#include "core/metrics.hpp"
#include "core/user_input.hpp"

namespace gib {

namespace {
Json vec_json(const Eigen::Ref<const Eigen::VectorXd>& v) {
  Json a = Json::array();
  for (Eigen::Index i = 0; i < v.size(); ++i) a.push_back(v(i));
  return a;
}
Json mat_json_row_major(const Mat3& m) {
  Json a = Json::array();
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) a.push_back(m(i, j));
  return a;
}
}  // namespace

// The offset basis lost a digit when this hash was introduced (FNV's is 14695981039346656037); it is kept,
// since every committed row's param_hash depends on it.
std::string Problem::parameter_hash() const { return fnv1a_hex(parameters().dump(), 1469598103934665603ULL); }

Json RigidBodyProblem::parameters() const {
  Json p;
  p["inertia"] = vec_json(model_.inertia());
  p["R0"] = mat_json_row_major(initial_.R);
  p["Pi0"] = vec_json(initial_.Pi);
  p["torque_free"] = model_.torque_free();
  return p;
}

void RigidBodyProblem::compute_scales() {
  const double potential = std::abs(model_.potential_energy(initial_.R)) + model_.body_torque(initial_.R).norm();
  energy_scale_ = std::max(std::abs(model_.energy(initial_)) + model_.kinetic_energy(initial_.Pi) + potential, 1e-300);
  momentum_scale_ = std::max(initial_.Pi.norm(), std::sqrt(2 * model_.inertia().maxCoeff() * energy_scale_));
}

double RigidBodyProblem::time_scale() const {
  const double w = model_.angular_velocity(initial_.Pi).norm();
  return w > 0 ? 1.0 / w : 1.0;
}

std::vector<RigidBodyInvariant> RigidBodyProblem::invariants() const {
  const RigidBodyModel* m = &model_;
  std::vector<RigidBodyInvariant> out;
  out.push_back({Invariant::energy, metrics::energy_rel_err.name, InvariantErrorKind::relative,
                 [m](const RigidBodyState& x) { return InvariantValue::Constant(1, m->energy(x)); }});
  if (model_.torque_free()) {
    out.push_back({Invariant::casimir, metrics::casimir_err.name, InvariantErrorKind::absolute,
                   [](const RigidBodyState& x) { return InvariantValue::Constant(1, 0.5 * x.Pi.squaredNorm()); }});
    out.push_back({Invariant::spatial_momentum, metrics::spatial_momentum_err.name, InvariantErrorKind::vector_norm,
                   [](const RigidBodyState& x) { return InvariantValue(x.R * x.Pi); }});
  }
  return out;
}

ParticlesProblem::ParticlesProblem(std::string id, std::string preset, std::string ic,
                                   std::shared_ptr<const RigidParticlesModel> model, ParticlesState initial,
                                   Json parameters, double time_scale, std::shared_ptr<const ParticlesReference> reference)
    : Problem(std::move(id), std::move(preset), std::move(ic)),
      model_(std::move(model)),
      initial_(std::move(initial)),
      parameters_(std::move(parameters)),
      time_scale_(time_scale),
      reference_(std::move(reference)) {
  if (model_ == nullptr || initial_.size() != model_->size() || static_cast<int>(initial_.Q.size()) != initial_.size())
    throw std::invalid_argument("ParticlesProblem: model and initial state disagree on the number of particles");
  energy_scale_ = std::abs(model_->energy(initial_)) + model_->kinetic_energy(initial_) + model_->size();
  extent_ = initial_.q.colwise().norm().maxCoeff() + 1.0;
}

Json ParticlesProblem::parameters() const {
  Json p = parameters_;
  Json q = Json::array(), pp = Json::array(), m = Json::array(), Q = Json::array();
  for (int i = 0; i < initial_.size(); ++i) {
    q.push_back(vec_json(initial_.q.col(i)));
    pp.push_back(vec_json(initial_.p.col(i)));
    m.push_back(vec_json(initial_.m.col(i)));
    Q.push_back(mat_json_row_major(initial_.Q[static_cast<std::size_t>(i)]));
  }
  p["q0"] = q;
  p["p0"] = pp;
  p["m0"] = m;
  p["Q0"] = Q;
  return p;
}

std::vector<ParticlesInvariant> ParticlesProblem::invariants() const {
  const RigidParticlesModel* model = model_.get();
  // Momentum scale for round-off judgements: sqrt(2 M E), E = energy_scale(), M the total mass.
  double total_mass = 0;
  for (int i = 0; i < model->size(); ++i) total_mass += model->mass(i);
  const double momentum_scale = std::sqrt(2 * total_mass * energy_scale_);
  std::vector<ParticlesInvariant> out;
  out.push_back({Invariant::energy, metrics::energy_rel_err.name, InvariantErrorKind::relative,
                 [model](const ParticlesState& x) { return InvariantValue::Constant(1, model->energy(x)); }});
  out.push_back({Invariant::linear_momentum, metrics::linear_momentum_err.name, InvariantErrorKind::vector_norm,
                 [](const ParticlesState& x) { return InvariantValue(x.p.rowwise().sum()); }, momentum_scale});
  out.push_back({Invariant::angular_momentum, metrics::angular_momentum_err.name, InvariantErrorKind::vector_norm,
                 [](const ParticlesState& x) {
                   Vec3 L = Vec3::Zero();
                   for (int i = 0; i < x.size(); ++i)
                     L += x.q.col(i).cross(x.p.col(i)) + x.Q[static_cast<std::size_t>(i)] * x.m.col(i);
                   return InvariantValue(L);
                 },
                 momentum_scale * extent_});
  return out;
}

// ---------------------------------------------------------------------------------------------

NewtonianProblem::NewtonianProblem(std::string id, std::string preset, std::string ic,
                                   std::shared_ptr<const NewtonianModel> model, NewtonianState initial, Json parameters,
                                   double time_scale, std::shared_ptr<const NewtonianReference> reference, Extras extras)
    : Problem(std::move(id), std::move(preset), std::move(ic)),
      model_(std::move(model)),
      initial_(std::move(initial)),
      parameters_(std::move(parameters)),
      time_scale_(time_scale),
      reference_(std::move(reference)),
      extras_(std::move(extras)) {
  if (model_ == nullptr || initial_.q.size() != model_->dim() || initial_.v.size() != model_->dim())
    throw std::invalid_argument("NewtonianProblem: model and initial state disagree on the dimension");
  for (int i : extras_.tip)
    if (i < 0 || i >= model_->dim()) throw std::invalid_argument("NewtonianProblem: tip index out of range");
  extent_ = initial_.q.cwiseAbs().maxCoeff() + 1.0;
  Eigen::VectorXd grad;
  model_->gradient(initial_.q, grad);
  energy_scale_ = std::max(std::abs(model_->energy(initial_)) + model_->kinetic_energy(initial_.v) +
                               std::abs(model_->potential(initial_.q)) + grad.norm() * extent_,
                           1e-300);
}

Json NewtonianProblem::parameters() const {
  Json p = parameters_;
  p["q0"] = vec_json(initial_.q);
  p["v0"] = vec_json(initial_.v);
  return p;
}

std::vector<NewtonianInvariant> NewtonianProblem::invariants() const {
  const NewtonianModel* model = model_.get();
  std::vector<NewtonianInvariant> out;
  out.push_back({Invariant::energy, metrics::energy_rel_err.name, InvariantErrorKind::relative,
                 [model](const NewtonianState& x) { return InvariantValue::Constant(1, model->energy(x)); }});
  out.insert(out.end(), extras_.invariants.begin(), extras_.invariants.end());
  return out;
}

std::string incompatibility(const MethodInfo& m, const ProblemInfo& p) {
  const std::string who = "method " + m.id;
  if (!m.supports(p.kind))
    return who + " does not support model kind " + to_string(p.kind) + " of problem " + p.id;
  if (m.torque_free_only && !p.torque_free) return who + " is for torque-free bodies only; problem " + p.id + " has a potential";
  if (m.enforces_constraints && !p.constrained)
    return who + " enforces holonomic constraints; problem " + p.id + " has none";
  if (m.needs_penalty && p.kind == ModelKind::newtonian && !p.constrained)
    return who + " needs a penalised model on Newtonian problems; problem " + p.id + " has no constraints";
  if (const unsigned missing = m.needs_structure & ~p.structure; missing != 0)
    return who + " needs " + structure_names(missing) + "; problem " + p.id + " does not have it";
  return "";
}

const ProblemInfo& find_problem(const std::string& id) {
  std::vector<std::string> valid;
  for (const auto& p : problem_registry()) {
    if (p.id == id) return p;
    valid.push_back(p.id);
  }
  throw InputError(unknown_id_message("problem", id, valid));
}

}  // namespace gib
