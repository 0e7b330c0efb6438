#include "core/problem.hpp"

#include <cstdint>
#include <cstdio>

#include "core/errors.hpp"

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

std::string Problem::parameter_hash() const {
  const std::string s = parameters().dump();
  std::uint64_t h = 1469598103934665603ULL;
  for (unsigned char c : s) {
    h ^= c;
    h *= 1099511628211ULL;
  }
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(h));
  return buf;
}

Json RigidBodyProblem::parameters() const {
  Json p;
  p["inertia"] = vec_json(model_.inertia());
  p["R0"] = mat_json_row_major(initial_.R);
  p["Pi0"] = vec_json(initial_.Pi);
  p["torque_free"] = model_.torque_free();
  return p;
}

double RigidBodyProblem::time_scale() const {
  const double w = model_.angular_velocity(initial_.Pi).norm();
  return w > 0 ? 1.0 / w : 1.0;
}

std::vector<RigidBodyInvariant> RigidBodyProblem::invariants() const {
  const RigidBodyModel* m = &model_;
  std::vector<RigidBodyInvariant> out;
  out.push_back({Invariant::energy, "energy_rel_err", InvariantErrorKind::relative,
                 [m](const RigidBodyState& x) { return InvariantValue::Constant(1, m->energy(x)); }});
  if (model_.torque_free()) {
    out.push_back({Invariant::casimir, "casimir_err", InvariantErrorKind::absolute,
                   [](const RigidBodyState& x) { return InvariantValue::Constant(1, 0.5 * x.Pi.squaredNorm()); }});
    out.push_back({Invariant::spatial_momentum, "spatial_momentum_err", InvariantErrorKind::vector_norm,
                   [](const RigidBodyState& x) { return InvariantValue(x.R * x.Pi); }});
  }
  return out;
}

const ProblemInfo& find_problem(const std::string& id) {
  for (const auto& p : problem_registry())
    if (p.id == id) return p;
  throw InputError("unknown problem '" + id + "' (gibench list problems shows the registered ids)");
}

}  // namespace gib
