#include "problems/toda/toda.hpp"

#include <Eigen/LU>
#include <cmath>
#include <memory>
#include <nlohmann/json.hpp>
#include <stdexcept>

#include "core/errors.hpp"
#include "core/random.hpp"
#include "core/user_input.hpp"
#include "core/vector_field_problem.hpp"
#include "problems/common/overrides.hpp"
#include "problems/common/preset_table.hpp"
#include "problems/common/vector_field_reference.hpp"

namespace gib::toda {
namespace {

constexpr const char* kId = "toda";

using Matrix = Eigen::MatrixXd;
// The presets are n <= 4. Storage on the stack keeps the derivatives free of heap traffic: with MatrixXd,
// allocating the temporaries of X L0 X^-1 took half the time of the battery's Toda targets.
constexpr Eigen::Index kMaxN = 4;
using Small = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, 0, kMaxN, kMaxN>;

Eigen::Map<const Matrix> as_matrix(const Eigen::VectorXd& x, Eigen::Index n) { return {x.data(), n, n}; }
Eigen::Map<const Small> as_small(const Eigen::VectorXd& x, Eigen::Index n) { return {x.data(), n, n}; }

// L_+ - L_-: the diagonal cancels (E13).
template <class M>
M skew_part(const M& L) {
  M B = L.template triangularView<Eigen::StrictlyUpper>();
  B -= M(L.template triangularView<Eigen::StrictlyLower>());
  return B;
}

// f = B(L) X with L = X L0 X^-1, in matrices of type M: fixed 3 x 3 or 4 x 4 for the presets, whose inverse Eigen
// writes out by cofactors (the battery's Toda targets evaluate this millions of times; X stays near orthogonal, far
// from where cofactors lose to pivoting), or Small for any other n.
template <class M>
void toda_rhs(const Eigen::VectorXd& x, const Small& L0, Eigen::Index n, Eigen::VectorXd& f) {
  const Eigen::Map<const M> X(x.data(), n, n);
  const M l0 = L0;
  const M L = X * l0 * X.inverse();
  f.resize(n * n);
  Eigen::Map<M>(f.data(), n, n) = skew_part(L) * X;
}

class TodaModel final : public VectorFieldModel {
 public:
  explicit TodaModel(const Matrix& L0) : L0_(L0), n_(L0_.rows()) {
    if (n_ > kMaxN) throw std::logic_error("toda: n > 4 needs a larger kMaxN");
  }

  int dim() const override { return static_cast<int>(n_ * n_); }
  void rhs(const Eigen::VectorXd& x, Eigen::VectorXd& f) const override {
    if (n_ == 3) return toda_rhs<Eigen::Matrix3d>(x, L0_, n_, f);
    if (n_ == 4) return toda_rhs<Eigen::Matrix4d>(x, L0_, n_, f);
    toda_rhs<Small>(x, L0_, n_, f);
  }
  // With L = X L0 X^-1: dL = [dX X^-1, L] and df = B(dL) X + B(L) dX, column by column over the unit dX = E_ij. Then
  // dX X^-1 = e_i r^T with r^T = row j of X^-1, so dL = e_i (r^T L) - (L e_i) r^T is a rank-2 update and B(L) dX is
  // column i of B(L) placed in column j: no n x n product per column but B(dL) X (the implicit methods' Newton
  // evaluates this at every iteration of every step of the battery).
  void jacobian(const Eigen::VectorXd& x, Eigen::MatrixXd& J) const override {
    const auto X = as_small(x, n_);
    const Small Xinv = X.inverse();
    const Small L = X * L0_ * Xinv;
    const Small BL = skew_part(L);
    const Small XinvL = Xinv * L;
    J.resize(n_ * n_, n_ * n_);
    Small dL(n_, n_), df(n_, n_);
    for (Eigen::Index j = 0; j < n_; ++j)
      for (Eigen::Index i = 0; i < n_; ++i) {
        dL.noalias() = -L.col(i) * Xinv.row(j);
        dL.row(i) += XinvL.row(j);
        for (Eigen::Index c = 0; c < n_; ++c) {  // dL <- B(dL): the diagonal cancels, the strictly lower part flips
          dL(c, c) = 0.0;
          for (Eigen::Index r = c + 1; r < n_; ++r) dL(r, c) = -dL(r, c);
        }
        df.noalias() = dL * X;
        df.col(j) += BL.col(i);
        J.col(j * n_ + i) = Eigen::Map<const Eigen::VectorXd>(df.data(), n_ * n_);
      }
  }
  // h(X) = X^-T; false for a singular X.
  bool has_symmetry() const override { return true; }
  bool symmetry(const Eigen::VectorXd& x, Eigen::VectorXd& hx) const override {
    const Eigen::PartialPivLU<Small> lu(as_small(x, n_));
    if (!(std::abs(lu.determinant()) > 0)) return false;
    hx.resize(n_ * n_);
    Eigen::Map<Small>(hx.data(), n_, n_) = lu.inverse().transpose();
    return true;
  }

 private:
  Small L0_;
  Eigen::Index n_;
};

struct Preset {
  const char* name;
  int n;
  const char* description;
  bool in_battery;
};

constexpr Preset kPresets[] = {
    {"mq1998", 4,
     "n = 4, L0 tridiagonal symmetric with diagonal 1, 2, 3, 4 and off-diagonal 0.5, 0.6, 0.7, X0 = I (spec 10 "
     "[VERIFIED]; the lectures give no values). Not in the per-commit battery: n3 holds the same claims at a "
     "fifth of the cost (the implicit methods' Newton on 16 unknowns took 3 of the suite's 16 CPU minutes)",
     false},
    {"n3", 3,
     "n = 3, L0 tridiagonal symmetric with diagonal 1, 2, 3 and off-diagonal 0.5, 0.6 (the leading block of "
     "mq1998's), X0 = I: the battery's Toda flow",
     true},
};

// L0 tridiagonal symmetric, diagonal 1 .. n, off-diagonal 0.5, 0.6, ... (spec 10's for n = 4).
Matrix tridiagonal_l0(int n) {
  Matrix L0 = Matrix::Zero(n, n);
  for (int i = 0; i < n; ++i) L0(i, i) = i + 1;
  for (int i = 0; i + 1 < n; ++i) L0(i, i + 1) = L0(i + 1, i) = 0.5 + 0.1 * i;
  return L0;
}

// "random:K": X0 = (I - A)^-1 (I + A), the Cayley image of A skew with entries 0.3 u, u uniform in [-1, 1]: a random
// orthogonal start. Off O(n) the Toda flow of a non-symmetric L can blow up in finite time (a random X0 = I + 0.1 G
// did by t = 1.6); from O(n) L stays symmetric and the flow exists for all time.
Eigen::VectorXd initial_state(Eigen::Index n, const std::string& ic) {
  Matrix X0 = Matrix::Identity(n, n);
  if (const auto k = random_ic_index(ic)) {
    random::Stream rng(random::derive_seed(0x746F6461ULL, *k));
    Matrix A = Matrix::Zero(n, n);
    for (Eigen::Index j = 1; j < n; ++j)
      for (Eigen::Index i = 0; i < j; ++i) {
        A(i, j) = 0.3 * rng.uniform(-1.0, 1.0);
        A(j, i) = -A(i, j);
      }
    const Matrix I = Matrix::Identity(n, n);
    X0 = (I - A).partialPivLu().solve(I + A);
  }
  return Eigen::Map<const Eigen::VectorXd>(X0.data(), n * n);
}

std::unique_ptr<Problem> make(const std::string& preset_name, const Json& o, const std::string& ic) {
  const Preset& preset = find_preset(kPresets, preset_name, kId);
  overrides::check_keys(o, {}, kId);
  const Matrix L0 = tridiagonal_l0(preset.n);
  const Eigen::Index n = L0.rows();
  VectorFieldState x0{initial_state(n, ic)};
  const auto model = std::make_shared<const TodaModel>(L0);
  Json l0 = Json::array();
  for (Eigen::Index i = 0; i < n; ++i) {
    Json row = Json::array();
    for (Eigen::Index j = 0; j < n; ++j) row.push_back(L0(i, j));
    l0.push_back(row);
  }
  const Json parameters = {{"n", n}, {"L0", l0}, {"layout", "X column by column"}};
  Json x0_json = Json::array();
  for (Eigen::Index i = 0; i < x0.x.size(); ++i) x0_json.push_back(x0.x(i));
  const std::string key = std::string(kId) + ":" + preset_name + ":" + x0_json.dump();
  auto reference = shared_vector_field_reference(key, [&] { return vector_field_reference(model, x0); });
  VectorFieldProblem::Extras extras;
  extras.observables.push_back({"orthogonality_err", [n](const VectorFieldState& s) {
                                  const auto X = as_matrix(s.x, n);
                                  return (X * X.transpose() - Matrix::Identity(n, n)).norm();
                                }});
  return std::make_unique<VectorFieldProblem>(kId, preset_name, ic, model, std::move(x0), parameters, 1.0,
                                              std::move(reference), std::move(extras));
}

}  // namespace

ProblemInfo info() {
  ProblemInfo p;
  p.id = kId;
  p.display_name = "Toda-type matrix flow";
  p.citation = "McLachlan and Quispel 1998 lectures, Example 9 and Fig 4.1; spec 10";
  p.kind = ModelKind::vector_field;
  p.structure = kSymmetric;
  for (const Preset& s : kPresets) p.presets.push_back({s.name, s.description, false, s.in_battery});
  p.make = make;
  return p;
}

}  // namespace gib::toda
