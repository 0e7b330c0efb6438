#include "problems/common/newtonian_reference.hpp"

#include <Eigen/Cholesky>
#include <algorithm>
#include <cmath>
#include <map>
#include <mutex>
#include <stdexcept>
#include <vector>


namespace gib {
namespace {

FlatState pack(const Eigen::VectorXd& q, const Eigen::VectorXd& v) {
  FlatState y(static_cast<std::size_t>(q.size() + v.size()));
  std::copy(q.data(), q.data() + q.size(), y.begin());
  std::copy(v.data(), v.data() + v.size(), y.begin() + q.size());
  return y;
}

// (q, v) -> (v, a(q, v)) on the flat state. The scratch vectors are used under the reference's lock only.
FirstOrderRhs first_order(std::shared_ptr<const SecondOrderOde> ode) {
  const auto n = ode->q0.size();
  return [ode, n, q = Eigen::VectorXd(), v = Eigen::VectorXd(), a = Eigen::VectorXd()](const FlatState& y,
                                                                                      FlatState& dy) mutable {
    q = Eigen::Map<const Eigen::VectorXd>(y.data(), n);
    v = Eigen::Map<const Eigen::VectorXd>(y.data() + n, n);
    ode->acceleration(q, v, a);
    std::copy(y.begin() + n, y.end(), dy.begin());
    std::copy(a.data(), a.data() + n, dy.begin() + n);
  };
}

double distance(const NewtonianState& a, const NewtonianState& b) {
  return std::sqrt((a.q - b.q).squaredNorm() + (a.v - b.v).squaredNorm());
}

double size_of(const NewtonianState& x) { return std::sqrt(x.q.squaredNorm() + x.v.squaredNorm()); }

}  // namespace

NewtonianNumericalReference::NewtonianNumericalReference(SecondOrderOde ode_in, NewtonianReferenceSettings settings) {
  const auto n = ode_in.q0.size();
  if (n == 0 || ode_in.v0.size() != n || !ode_in.acceleration)
    throw std::invalid_argument("newtonian reference: q0 and v0 must have one size and an acceleration is needed");
  const auto ode = std::make_shared<const SecondOrderOde>(std::move(ode_in));
  OdeReference<NewtonianState>::Output out;
  out.state = [ode, n](const FlatState& y) {
    const Eigen::VectorXd q = Eigen::Map<const Eigen::VectorXd>(y.data(), n);
    const Eigen::VectorXd v = Eigen::Map<const Eigen::VectorXd>(y.data() + n, n);
    return ode->output ? ode->output(q, v) : NewtonianState{q, v};
  };
  out.distance = distance;
  out.size = size_of;
  out.initial = ode->initial.q.size() > 0 ? ode->initial : out.state(pack(ode->q0, ode->v0));
  ref_ = std::make_unique<OdeReference<NewtonianState>>(first_order(ode), pack(ode->q0, ode->v0), settings,
                                                        "newtonian reference", std::move(out));
}

NewtonianState NewtonianNumericalReference::state(double t) const { return ref_->state(t); }

double NewtonianNumericalReference::error_estimate(double t) const { return ref_->error_estimate(t); }

std::int64_t NewtonianNumericalReference::step_attempts() const { return ref_->step_attempts(); }

SecondOrderOde newtonian_ode(std::shared_ptr<const NewtonianModel> model, const NewtonianState& x0) {
  if (model == nullptr || x0.q.size() != model->dim() || x0.v.size() != model->dim())
    throw std::invalid_argument("newtonian_ode: model and initial state disagree on the dimension");
  SecondOrderOde ode;
  ode.q0 = x0.q;
  ode.v0 = x0.v;
  ode.initial = x0;
  if (model->diagonal_mass()) {
    const Eigen::VectorXd inverse_mass = model->mass_matrix().diagonal().cwiseInverse();
    ode.acceleration = [model, inverse_mass](const Eigen::VectorXd& q, const Eigen::VectorXd&, Eigen::VectorXd& a) {
      model->gradient(q, a);
      a = -a.cwiseProduct(inverse_mass);
    };
  } else {
    const Eigen::LLT<Eigen::MatrixXd> mass(model->mass_matrix());
    ode.acceleration = [model, mass](const Eigen::VectorXd& q, const Eigen::VectorXd&, Eigen::VectorXd& a) {
      Eigen::VectorXd g;
      model->gradient(q, g);
      a = -mass.solve(g);
    };
  }
  return ode;
}

SecondOrderOde constrained_newtonian_ode(std::shared_ptr<const NewtonianModel> model,
                                         std::shared_ptr<const ConstraintSet> constraints, const NewtonianState& x0) {
  if (model == nullptr || constraints == nullptr || !model->diagonal_mass() || x0.q.size() != model->dim() ||
      x0.v.size() != model->dim())
    throw std::invalid_argument("constrained_newtonian_ode: needs a model with a diagonal mass, constraints and a state "
                                "of the model's dimension");
  SecondOrderOde ode;
  ode.q0 = x0.q;
  ode.v0 = x0.v;
  ode.initial = x0;
  const Eigen::VectorXd inverse_mass = model->mass_matrix().diagonal().cwiseInverse();
  ode.acceleration = [model, constraints, inverse_mass](const Eigen::VectorXd& q, const Eigen::VectorXd& v,
                                                        Eigen::VectorXd& a) {
    Eigen::VectorXd grad, curvature;
    Eigen::MatrixXd G;
    model->gradient(q, grad);
    constraints->jacobian(q, G);
    constraints->hessian_quadratic_forms(q, v, curvature);
    const Eigen::VectorXd free_acc = -grad.cwiseProduct(inverse_mass);
    const Eigen::MatrixXd GMinv = G * inverse_mass.asDiagonal();
    const Eigen::MatrixXd S = GMinv * G.transpose();
    const Eigen::VectorXd lambda = S.llt().solve(G * free_acc + curvature);
    a = free_acc - GMinv.transpose() * lambda;
  };
  return ode;
}

std::shared_ptr<const NewtonianReference> shared_newtonian_reference(
    const std::string& key, const std::function<std::shared_ptr<const NewtonianReference>()>& build) {
  return shared_reference<NewtonianReference>(key, build);
}

}  // namespace gib
