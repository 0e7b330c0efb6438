#include "harness/clocked_model.hpp"

#include <Eigen/SparseCore>

namespace gib {
namespace {

using Clock = std::chrono::steady_clock;

// Runs f, adding its duration to the clock. Two clock readings per call, nothing else.
template <class F> void clocked(ModelClock& clock, F&& f) {
  const auto t0 = Clock::now();
  f();
  clock.inside += Clock::now() - t0;
  ++clock.calls;
}

}  // namespace

ClockedNewtonianModel::ClockedNewtonianModel(const NewtonianModel& inner, ModelClock& clock) : inner_(inner), clock_(clock) {
  if (inner_.unpenalized() != nullptr) unpenalized_ = std::make_unique<ClockedNewtonianModel>(*inner_.unpenalized(), clock_);
}

double ClockedNewtonianModel::potential(const Eigen::VectorXd& q) const {
  double v = 0;
  clocked(clock_, [&] { v = inner_.potential(q); });
  return v;
}

void ClockedNewtonianModel::gradient(const Eigen::VectorXd& q, Eigen::VectorXd& g) const {
  clocked(clock_, [&] { inner_.gradient(q, g); });
}

void ClockedNewtonianModel::hessian(const Eigen::VectorXd& q, Eigen::MatrixXd& H) const {
  clocked(clock_, [&] { inner_.hessian(q, H); });
}

void ClockedNewtonianModel::hessian_sparse(const Eigen::VectorXd& q, Eigen::SparseMatrix<double>& H) const {
  clocked(clock_, [&] { inner_.hessian_sparse(q, H); });
}

void ClockedNewtonianModel::third_derivative_contracted(const Eigen::VectorXd& q, const Eigen::VectorXd& a,
                                                        Eigen::VectorXd& out) const {
  clocked(clock_, [&] { inner_.third_derivative_contracted(q, a, out); });
}

void ClockedNewtonianModel::stiff_hessian(const Eigen::VectorXd& q, Eigen::MatrixXd& H) const {
  clocked(clock_, [&] { inner_.stiff_hessian(q, H); });
}

void ClockedNewtonianModel::stiff_hessian_blocks(const Eigen::VectorXd& q, std::vector<Eigen::MatrixXd>& blocks) const {
  clocked(clock_, [&] { inner_.stiff_hessian_blocks(q, blocks); });
}

}  // namespace gib
