#include "problems/common/planar_chain.hpp"

#include <Eigen/Cholesky>
#include <cmath>

namespace gib::planar_chain {
namespace {

// mu_i = sum_{k >= i} m_k: the mass that rod i carries.
Eigen::VectorXd carried_masses(const Chain& chain) {
  const int n = chain.size();
  Eigen::VectorXd mu(n);
  double sum = 0;
  for (int i = n - 1; i >= 0; --i) mu(i) = sum += chain.masses[static_cast<std::size_t>(i)];
  return mu;
}

Eigen::VectorXd lengths_of(const Chain& chain) {
  return Eigen::Map<const Eigen::VectorXd>(chain.lengths.data(), chain.size());
}

}  // namespace

GravityModel::GravityModel(const Chain& chain) : mass_(Eigen::MatrixXd::Zero(2 * chain.size(), 2 * chain.size())) {
  gradient_.setZero(2 * chain.size());
  for (int i = 0; i < chain.size(); ++i) {
    const double m = chain.masses[static_cast<std::size_t>(i)];
    mass_(2 * i, 2 * i) = mass_(2 * i + 1, 2 * i + 1) = m;
    gradient_(2 * i + 1) = chain.signed_gravity() * m;
  }
}

std::shared_ptr<const DistanceConstraints> rods(const Chain& chain) {
  std::vector<DistanceConstraints::Rod> r;
  for (int i = 0; i < chain.size(); ++i) {
    const double L = chain.lengths[static_cast<std::size_t>(i)];
    if (i == 0)
      r.push_back({0, -1, L, Eigen::VectorXd::Zero(2)});
    else
      r.push_back({i, i - 1, L, Eigen::VectorXd()});
  }
  return std::make_shared<const DistanceConstraints>(2, chain.size(), std::move(r));
}

std::shared_ptr<const PenalizedModel> penalized_model(const Chain& chain, double omega) {
  return std::make_shared<const PenalizedModel>(std::make_shared<const GravityModel>(chain), rods(chain), omega);
}

NewtonianState cartesian_state(const Chain& chain, const Eigen::VectorXd& theta, const Eigen::VectorXd& theta_dot) {
  const int n = chain.size();
  NewtonianState x{Eigen::VectorXd(2 * n), Eigen::VectorXd(2 * n)};
  double px = 0, py = 0, vx = 0, vy = 0;
  for (int i = 0; i < n; ++i) {
    const double L = chain.lengths[static_cast<std::size_t>(i)], s = std::sin(theta(i)), c = std::cos(theta(i));
    px += L * s;
    py -= L * c;
    vx += L * c * theta_dot(i);
    vy += L * s * theta_dot(i);
    x.q.segment<2>(2 * i) << px, py;
    x.v.segment<2>(2 * i) << vx, vy;
  }
  return x;
}

// Rod i points along d = L (sin theta, -cos theta); its rate d' = L theta_dot (cos theta, sin theta), so
// theta_dot = d' . (cos theta, sin theta) / |d|.
void angles(const Chain& chain, const NewtonianState& x, Eigen::VectorXd& theta, Eigen::VectorXd& theta_dot) {
  const int n = chain.size();
  theta.resize(n);
  theta_dot.resize(n);
  Eigen::Vector2d previous = Eigen::Vector2d::Zero(), previous_v = Eigen::Vector2d::Zero();
  for (int i = 0; i < n; ++i) {
    const Eigen::Vector2d d = x.q.segment<2>(2 * i) - previous, dv = x.v.segment<2>(2 * i) - previous_v;
    theta(i) = std::atan2(d(0), -d(1));
    theta_dot(i) = (dv(0) * std::cos(theta(i)) + dv(1) * std::sin(theta(i))) / d.norm();
    previous = x.q.segment<2>(2 * i);
    previous_v = x.v.segment<2>(2 * i);
  }
}

Eigen::MatrixXd angular_mass_matrix(const Chain& chain, const Eigen::VectorXd& theta) {
  const int n = chain.size();
  const Eigen::VectorXd mu = carried_masses(chain), L = lengths_of(chain);
  Eigen::MatrixXd M(n, n);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) M(i, j) = mu(std::max(i, j)) * L(i) * L(j) * std::cos(theta(i) - theta(j));
  return M;
}

double angular_energy(const Chain& chain, const Eigen::VectorXd& theta, const Eigen::VectorXd& theta_dot) {
  const Eigen::VectorXd mu = carried_masses(chain), L = lengths_of(chain);
  double potential = 0;
  for (int i = 0; i < chain.size(); ++i) potential -= chain.signed_gravity() * mu(i) * L(i) * std::cos(theta(i));
  return 0.5 * theta_dot.dot(angular_mass_matrix(chain, theta) * theta_dot) + potential;
}

// With Mt_ij = c_ij cos(theta_i - theta_j), c_ij = mu_max(i,j) L_i L_j:
//   d/dt (Mt theta_dot)_i = -sum_j c_ij sin(theta_i - theta_j) (theta_dot_i - theta_dot_j) theta_dot_j,
//   1/2 theta_dot^T (d Mt / d theta_i) theta_dot = -theta_dot_i sum_j c_ij sin(theta_i - theta_j) theta_dot_j,
// whose difference is sum_j c_ij sin(theta_i - theta_j) theta_dot_j^2 (the centripetal terms); the potential
// -s g sum mu_i L_i cos theta_i has the gradient s g mu_i L_i sin theta_i.
void angular_acceleration(const Chain& chain, const Eigen::VectorXd& theta, const Eigen::VectorXd& theta_dot,
                          Eigen::VectorXd& theta_dd) {
  const int n = chain.size();
  const Eigen::VectorXd mu = carried_masses(chain), L = lengths_of(chain);
  Eigen::VectorXd force(n);
  for (int i = 0; i < n; ++i) {
    double centripetal = 0;
    for (int j = 0; j < n; ++j)
      centripetal += mu(std::max(i, j)) * L(i) * L(j) * std::sin(theta(i) - theta(j)) * theta_dot(j) * theta_dot(j);
    force(i) = -centripetal - chain.signed_gravity() * mu(i) * L(i) * std::sin(theta(i));
  }
  theta_dd = angular_mass_matrix(chain, theta).llt().solve(force);
}

SecondOrderOde constrained_ode(const Chain& chain, const NewtonianState& x0) {
  SecondOrderOde ode;
  angles(chain, x0, ode.q0, ode.v0);
  ode.acceleration = [chain](const Eigen::VectorXd& theta, const Eigen::VectorXd& theta_dot, Eigen::VectorXd& a) {
    angular_acceleration(chain, theta, theta_dot, a);
  };
  ode.output = [chain](const Eigen::VectorXd& theta, const Eigen::VectorXd& theta_dot) {
    return cartesian_state(chain, theta, theta_dot);
  };
  ode.initial = x0;
  return ode;
}

}  // namespace gib::planar_chain
