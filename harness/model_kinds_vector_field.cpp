// The general-vector-field kind's traits (harness/model_kinds.hpp VectorFieldKind).
#include <cmath>
#include <cstring>

#include "core/errors.hpp"
#include "harness/json_util.hpp"
#include "harness/model_kinds.hpp"

namespace gib {

std::unique_ptr<Stepper<VectorFieldState>> VectorFieldKind::stepper(const MethodInfo& m, const VectorFieldProblem& p,
                                                                     const Json& params) {
  if (!m.vector_field) throw InputError("method " + m.id + " does not support model kind vector_field");
  return m.vector_field(p.model(), params);
}

VectorFieldKind::Errors VectorFieldKind::errors(const VectorFieldProblem&, const VectorFieldState& s,
                                                const VectorFieldState& ref) {
  const Eigen::VectorXd d = s.x - ref.x;
  Errors e;
  e.value = {d.cwiseAbs().maxCoeff(), d.norm()};
  return e;
}

std::string VectorFieldKind::divergence(const VectorFieldState& s, const VectorFieldProblem& p, double factor) {
  if (s.x.cwiseAbs().maxCoeff() > factor * p.extent())
    return "a coordinate grew beyond " + json_number(factor).dump() + " times the initial extent";
  return "";
}

double VectorFieldKind::distance(const VectorFieldState& a, const VectorFieldState& b) {
  return (a.x - b.x).norm() / std::max(b.x.norm(), 1.0);
}

bool VectorFieldKind::bitwise_equal(const VectorFieldState& a, const VectorFieldState& b) {
  return a.x.size() == b.x.size() &&
         std::memcmp(a.x.data(), b.x.data(), sizeof(double) * static_cast<std::size_t>(a.x.size())) == 0;
}

Json VectorFieldKind::state_json(const VectorFieldState& s) { return {{"x", vector_json(s.x)}}; }

double VectorFieldKind::error_scale(const VectorFieldProblem& p) { return std::max(p.initial_state().x.norm(), 1.0); }

VectorFieldKind::Observer::Observer(const VectorFieldProblem& p, const ObserveOptions& o)
    : p_(p), state_(o.series(kExtraSeries[0].name)) {}

void VectorFieldKind::Observer::record_series(const VectorFieldState& s, const Errors&, Json& series) const {
  if (state_) series[metrics::x.name].push_back(vector_json(s.x));
}

}  // namespace gib
