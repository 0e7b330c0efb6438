#include "problems/dna_torsion/dna_model.hpp"

#include <cmath>
#include <stdexcept>

namespace gib::dna_torsion {

SitePotential site_potential(double theta, double a, double x0) {
  const double s = std::sin(theta), c = std::cos(theta);
  const double E = std::exp(-a * (1 - c - x0));
  return {
      (E - 1) * (E - 1),
      -2 * a * s * E * (E - 1),
      -2 * a * c * E * (E - 1) + 2 * a * a * s * s * E * (2 * E - 1),
      2 * a * s * E * (E - 1) + 6 * a * a * s * c * E * (2 * E - 1) - 2 * a * a * a * s * s * s * E * (4 * E - 1),
  };
}

DnaTorsionModel::DnaTorsionModel(const DnaParameters& p) : p_(p) {
  if (p.n < 3) throw std::invalid_argument("DnaTorsionModel: at least 3 sites");
  mass_ = Eigen::MatrixXd::Identity(p.n, p.n);
  for (int k = 0; k + 1 < p.n; ++k) bonds_.push_back({k, k + 1});
  if (p.periodic) bonds_.push_back({p.n - 1, 0});
  std::vector<Eigen::Triplet<double>> t;
  for (const Bond& b : bonds_) {
    t.emplace_back(b.i, b.i, 1.0);
    t.emplace_back(b.j, b.j, 1.0);
    t.emplace_back(b.i, b.j, -1.0);
    t.emplace_back(b.j, b.i, -1.0);
  }
  laplacian_.resize(p.n, p.n);
  laplacian_.setFromTriplets(t.begin(), t.end());
  laplacian_.makeCompressed();
  for (int k = 0; k < p.n; ++k)
    for (Eigen::Index at = laplacian_.outerIndexPtr()[k]; at < laplacian_.outerIndexPtr()[k + 1]; ++at)
      if (laplacian_.innerIndexPtr()[at] == k) diagonal_at_.push_back(at);
}

double DnaTorsionModel::potential(const Eigen::VectorXd& q) const {
  double v = 0;
  for (const Bond& b : bonds_) v += 0.5 * (q(b.j) - q(b.i)) * (q(b.j) - q(b.i));
  double u = 0;
  for (int k = 0; k < p_.n; ++k) u += site_potential(q(k), p_.a, p_.x0).value;
  return v + p_.epsilon * u;
}

void DnaTorsionModel::gradient(const Eigen::VectorXd& q, Eigen::VectorXd& g) const {
  g.resize(p_.n);
  for (int k = 0; k < p_.n; ++k) g(k) = p_.epsilon * site_potential(q(k), p_.a, p_.x0).first;
  for (const Bond& b : bonds_) {
    const double d = q(b.j) - q(b.i);
    g(b.i) -= d;
    g(b.j) += d;
  }
}

void DnaTorsionModel::hessian(const Eigen::VectorXd& q, Eigen::MatrixXd& H) const {
  H = Eigen::MatrixXd(laplacian_);
  for (int k = 0; k < p_.n; ++k) H(k, k) += p_.epsilon * site_potential(q(k), p_.a, p_.x0).second;
}

void DnaTorsionModel::hessian_sparse(const Eigen::VectorXd& q, Eigen::SparseMatrix<double>& H) const {
  H = laplacian_;
  for (int k = 0; k < p_.n; ++k)
    H.valuePtr()[diagonal_at_[static_cast<std::size_t>(k)]] += p_.epsilon * site_potential(q(k), p_.a, p_.x0).second;
}

void DnaTorsionModel::third_derivative_contracted(const Eigen::VectorXd& q, const Eigen::VectorXd& a,
                                                  Eigen::VectorXd& out) const {
  out.resize(p_.n);
  for (int k = 0; k < p_.n; ++k) out(k) = p_.epsilon * site_potential(q(k), p_.a, p_.x0).third * a(k) * a(k);
}

}  // namespace gib::dna_torsion
