#include "core/penalty.hpp"

#include <stdexcept>

namespace gib {

PenalizedModel::PenalizedModel(std::shared_ptr<const NewtonianModel> base, std::shared_ptr<const ConstraintSet> constraints,
                               double omega)
    : base_(std::move(base)), constraints_(std::move(constraints)), omega_(omega) {
  if (base_ == nullptr || constraints_ == nullptr) throw std::invalid_argument("PenalizedModel: null base or constraints");
  if (!(omega_ > 0)) throw std::invalid_argument("PenalizedModel: omega must be positive");
}

namespace {

// The penalty's work vectors, kept per thread: a Zhang-Skeel step on a relaxed rigid body (9 coordinates) evaluates
// the gradient, the Hessian and the third derivative, and fresh vectors in them were a sixth of its time (malloc and
// free). The same Eigen kernels run on them, so no bit changes.
struct PenaltyScratch {
  Eigen::VectorXd g, Ga, quad, hv, third, GTquad;
  Eigen::MatrixXd G, P;
};

PenaltyScratch& scratch() {
  thread_local PenaltyScratch s;
  return s;
}

// H = G^T G. Below kSmallGram entries of G (a relaxed rigid body's 6 x 9) Eigen's blocked product spends more in
// packing its operands than in the 324 multiplications; the loop adds in the same order as its kernel (k ascending
// from zero, no fused multiply-add): Z&S final states on the relaxed bodies and the penalised chains hashed equal
// before and after it (commit ed89f16).
constexpr Eigen::Index kSmallGram = 64;

void gram(const Eigen::MatrixXd& G, Eigen::MatrixXd& H) {
  if (G.size() > kSmallGram) {
    H.noalias() = G.transpose() * G;
    return;
  }
  const Eigen::Index n = G.cols(), m = G.rows();
  H.resize(n, n);
  for (Eigen::Index j = 0; j < n; ++j)
    for (Eigen::Index i = 0; i < n; ++i) {
      double s = 0;
      for (Eigen::Index k = 0; k < m; ++k) s += G(k, i) * G(k, j);
      H(i, j) = s;
    }
}

}  // namespace

double PenalizedModel::penalty_energy(const Eigen::VectorXd& q) const {
  Eigen::VectorXd& g = scratch().g;
  constraints_->values(q, g);
  return 0.5 * omega_ * omega_ * g.squaredNorm();
}

double PenalizedModel::potential(const Eigen::VectorXd& q) const { return base_->potential(q) + penalty_energy(q); }

void PenalizedModel::gradient(const Eigen::VectorXd& q, Eigen::VectorXd& out) const {
  base_->gradient(q, out);
  PenaltyScratch& s = scratch();
  Eigen::VectorXd& g = s.g;
  Eigen::MatrixXd& G = s.G;
  constraints_->values(q, g);
  constraints_->jacobian(q, G);
  out.noalias() += (omega_ * omega_) * (G.transpose() * g);
}

void PenalizedModel::stiff_hessian(const Eigen::VectorXd& q, Eigen::MatrixXd& H) const {
  PenaltyScratch& s = scratch();
  Eigen::VectorXd& g = s.g;
  Eigen::MatrixXd& G = s.G;
  constraints_->values(q, g);
  constraints_->jacobian(q, G);
  gram(G, H);
  constraints_->add_weighted_hessian(q, g, H);
  H *= omega_ * omega_;
}

void PenalizedModel::stiff_hessian_blocks(const Eigen::VectorXd& q, std::vector<Eigen::MatrixXd>& blocks) const {
  for (auto& B : blocks) B.setZero();
  constraints_->add_penalty_hessian_blocks(q, blocks);
  for (auto& B : blocks) B *= omega_ * omega_;
}

void PenalizedModel::hessian(const Eigen::VectorXd& q, Eigen::MatrixXd& H) const {
  base_->hessian(q, H);
  Eigen::MatrixXd& P = scratch().P;
  stiff_hessian(q, P);
  H += P;
}

void PenalizedModel::third_derivative_contracted(const Eigen::VectorXd& q, const Eigen::VectorXd& a,
                                                 Eigen::VectorXd& out) const {
  base_->third_derivative_contracted(q, a, out);
  PenaltyScratch& s = scratch();
  constraints_->values(q, s.g);
  constraints_->jacobian(q, s.G);
  s.Ga.noalias() = s.G * a;
  constraints_->weighted_hessian_vector(q, s.Ga, a, s.hv);
  constraints_->hessian_quadratic_forms(q, a, s.quad);
  constraints_->weighted_third_contracted(q, s.g, a, s.third);
  s.GTquad.noalias() = s.G.transpose() * s.quad;  // what the sum below would evaluate into a temporary
  out.noalias() += (omega_ * omega_) * (2.0 * s.hv + s.GTquad + s.third);
}

// ---------------------------------------------------------------------------------------------

void project_to_tangent(const ConstraintSet& constraints, const Eigen::VectorXd& q, const Eigen::VectorXd& inverse_mass,
                        Eigen::VectorXd& v) {
  const int b = constraints.block_size();
  if (b > 0 && v.size() % b == 0) {
    // G is block diagonal (a rigid molecule's bonds): the projection splits into one small solve per block, O(n)
    // where the dense form factorises G M^-1 G^T (m x m) every call: 12 ms a step of GLA + RATTLE at 100 waters.
    thread_local std::vector<ConstraintSet::JacobianBlock> blocks;
    constraints.jacobian_blocks(q, blocks);
    for (std::size_t k = 0; k < blocks.size(); ++k) {
      const Eigen::MatrixXd& Gk = blocks[k].G;
      if (Gk.rows() == 0) continue;
      const auto start = static_cast<Eigen::Index>(k) * b;
      const Eigen::MatrixXd GMinv = Gk * inverse_mass.segment(start, b).asDiagonal();
      v.segment(start, b) -= GMinv.transpose() * (GMinv * Gk.transpose()).llt().solve(Gk * v.segment(start, b));
    }
    return;
  }
  Eigen::MatrixXd G;
  constraints.jacobian(q, G);
  const Eigen::MatrixXd GMinv = G * inverse_mass.asDiagonal();
  v -= GMinv.transpose() * (GMinv * G.transpose()).llt().solve(G * v);
}

DistanceConstraints::DistanceConstraints(int dimension, int points, std::vector<Rod> rods, int block_points)
    : d_(dimension), points_(points), rods_(std::move(rods)), block_points_(block_points) {
  for (const Rod& r : rods_) {
    if (r.i < 0 || r.i >= points_ || r.j < -1 || r.j >= points_ || r.i == r.j)
      throw std::invalid_argument("DistanceConstraints: rod indices out of range");
    if (!(r.length > 0)) throw std::invalid_argument("DistanceConstraints: rod length must be positive");
    if (r.j == -1 && r.anchor.size() != d_) throw std::invalid_argument("DistanceConstraints: anchor has wrong size");
    if (block_points_ > 0 && (r.j < 0 || r.i / block_points_ != r.j / block_points_))
      throw std::invalid_argument("DistanceConstraints: a rod leaves its block of points");
  }
  if (block_points_ < 0 || (block_points_ > 0 && points_ % block_points_ != 0))
    throw std::invalid_argument("DistanceConstraints: the points do not split into blocks of block_points");
}

// Per rod, g = |d|^2 - L^2 with d = x_i - x_j: G^T G + g Hess g is 4 d d^T + 2 g I on the (i, i) and (j, j) blocks and
// its negative on (i, j) and (j, i) (spec 4.3, the 9x9 penalty blocks of a water).
void DistanceConstraints::add_penalty_hessian_blocks(const Eigen::VectorXd& q, std::vector<Eigen::MatrixXd>& blocks) const {
  if (block_points_ == 0) {
    ConstraintSet::add_penalty_hessian_blocks(q, blocks);
    return;
  }
  const int b = d_ * block_points_;
  blocks.resize(static_cast<std::size_t>(points_ / block_points_));
  for (auto& B : blocks)
    if (B.rows() != b || B.cols() != b) B.setZero(b, b);
  for (const Rod& r : rods_) {
    const Eigen::VectorXd d = separation(q, r);
    const double g = d.squaredNorm() - r.length * r.length;
    Eigen::MatrixXd P = 4.0 * d * d.transpose();
    P.diagonal().array() += 2.0 * g;
    Eigen::MatrixXd& B = blocks[static_cast<std::size_t>(r.i / block_points_)];
    const int li = d_ * (r.i % block_points_), lj = d_ * (r.j % block_points_);
    B.block(li, li, d_, d_) += P;
    B.block(lj, lj, d_, d_) += P;
    B.block(li, lj, d_, d_) -= P;
    B.block(lj, li, d_, d_) -= P;
  }
}

// Rod k of block b is row j of blocks[b] when it is the j-th rod of that block in index order; its row holds 2 d and
// -2 d (d = x_i - x_j) at the two points' places within the block. No temporaries: RATTLE calls this every Newton
// iteration.
void DistanceConstraints::jacobian_blocks(const Eigen::VectorXd& q, std::vector<JacobianBlock>& blocks) const {
  if (block_points_ == 0) {
    ConstraintSet::jacobian_blocks(q, blocks);
    return;
  }
  const int b = d_ * block_points_;
  blocks.resize(static_cast<std::size_t>(points_ / block_points_));
  for (auto& B : blocks) B.constraints.clear();  // keeps the capacity
  for (int k = 0; k < size(); ++k) blocks[static_cast<std::size_t>(rods_[k].i / block_points_)].constraints.push_back(k);
  for (std::size_t blk = 0; blk < blocks.size(); ++blk) {
    JacobianBlock& B = blocks[blk];
    const auto rows = static_cast<Eigen::Index>(B.constraints.size());
    if (B.G.rows() != rows || B.G.cols() != b) B.G.resize(rows, b);
    B.G.setZero();
    for (Eigen::Index row = 0; row < rows; ++row) {
      const Rod& r = rods_[B.constraints[static_cast<std::size_t>(row)]];
      const int li = d_ * (r.i % block_points_), lj = d_ * (r.j % block_points_);
      for (int c = 0; c < d_; ++c) {
        const double s = 2.0 * (q(d_ * r.i + c) - q(d_ * r.j + c));
        B.G(row, li + c) = s;
        B.G(row, lj + c) = -s;
      }
    }
  }
}

Eigen::VectorXd DistanceConstraints::separation(const Eigen::VectorXd& q, const Rod& r) const {
  const Eigen::VectorXd xi = q.segment(d_ * r.i, d_);
  return r.j < 0 ? Eigen::VectorXd(xi - r.anchor) : Eigen::VectorXd(xi - q.segment(d_ * r.j, d_));
}

void DistanceConstraints::values(const Eigen::VectorXd& q, Eigen::VectorXd& g) const {
  g.resize(size());
  for (int k = 0; k < size(); ++k) g(k) = separation(q, rods_[k]).squaredNorm() - rods_[k].length * rods_[k].length;
}

// grad g = (2 d, -2 d) on the (x_i, x_j) blocks.
void DistanceConstraints::jacobian(const Eigen::VectorXd& q, Eigen::MatrixXd& G) const {
  G.setZero(size(), q.size());
  for (int k = 0; k < size(); ++k) {
    const Rod& r = rods_[k];
    const Eigen::VectorXd s = 2.0 * separation(q, r);
    G.row(k).segment(d_ * r.i, d_) = s.transpose();
    if (r.j >= 0) G.row(k).segment(d_ * r.j, d_) = -s.transpose();
  }
}

// Hess g = 2 [[I, -I], [-I, I]] on the (x_i, x_j) blocks (2 I on x_i alone for an anchored rod).
void DistanceConstraints::add_weighted_hessian(const Eigen::VectorXd& /*q*/, const Eigen::VectorXd& w,
                                               Eigen::MatrixXd& H) const {
  for (int k = 0; k < size(); ++k) {
    const Rod& r = rods_[k];
    const double c = 2.0 * w(k);
    for (int c0 = 0; c0 < d_; ++c0) {
      H(d_ * r.i + c0, d_ * r.i + c0) += c;
      if (r.j < 0) continue;
      H(d_ * r.j + c0, d_ * r.j + c0) += c;
      H(d_ * r.i + c0, d_ * r.j + c0) -= c;
      H(d_ * r.j + c0, d_ * r.i + c0) -= c;
    }
  }
}

void DistanceConstraints::weighted_hessian_vector(const Eigen::VectorXd& q, const Eigen::VectorXd& w,
                                                  const Eigen::VectorXd& a, Eigen::VectorXd& out) const {
  out.setZero(q.size());
  for (int k = 0; k < size(); ++k) {
    const Rod& r = rods_[k];
    Eigen::VectorXd da = a.segment(d_ * r.i, d_);
    if (r.j >= 0) da -= a.segment(d_ * r.j, d_);
    out.segment(d_ * r.i, d_) += 2.0 * w(k) * da;
    if (r.j >= 0) out.segment(d_ * r.j, d_) -= 2.0 * w(k) * da;
  }
}

void DistanceConstraints::hessian_quadratic_forms(const Eigen::VectorXd& /*q*/, const Eigen::VectorXd& a,
                                                  Eigen::VectorXd& out) const {
  out.resize(size());
  for (int k = 0; k < size(); ++k) {
    const Rod& r = rods_[k];
    Eigen::VectorXd da = a.segment(d_ * r.i, d_);
    if (r.j >= 0) da -= a.segment(d_ * r.j, d_);
    out(k) = 2.0 * da.squaredNorm();
  }
}

}  // namespace gib
