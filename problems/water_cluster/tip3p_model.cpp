#include "problems/water_cluster/tip3p_model.hpp"

#include <cmath>
#include <stdexcept>

namespace gib::water_cluster {

namespace {

constexpr std::int64_t kTermsPerPair = 10;  // 9 Coulomb terms and one Lennard-Jones
constexpr int kSimdMolecules = 16;          // from this many molecules on, the gradient runs the 4-lane rows

Eigen::Vector3d atom(const Eigen::VectorXd& q, int i) { return q.segment<3>(3 * i); }

}  // namespace

Radial coulomb_term(double k, double r) {
  const double inv = 1.0 / r;
  const double f = k * inv;
  return {f, -f * inv, 2 * f * inv * inv, -6 * f * inv * inv * inv};
}

Radial lennard_jones_term(double a, double c, double r) {
  const double inv = 1.0 / r, inv2 = inv * inv;
  const double inv6 = inv2 * inv2 * inv2, inv12 = inv6 * inv6;
  const double rep = a * inv12, att = c * inv6;
  return {rep - att, (-12 * rep + 6 * att) * inv, (156 * rep - 42 * att) * inv2, (-2184 * rep + 336 * att) * inv2 * inv};
}

Tip3pModel::Tip3pModel(const Tip3pParameters& p) : p_(p) {
  if (p.molecules < 1) throw std::invalid_argument("Tip3pModel: at least one molecule");
  Eigen::VectorXd m(dim());
  for (int a = 0; a < p.molecules; ++a)
    for (int i = 0; i < kAtoms; ++i) m.segment<3>(9 * a + 3 * i).setConstant(i == kOxygen ? p.mass_o : p.mass_h);
  mass_ = m.asDiagonal();
  // Row a pairs molecule a with b > a and writes to molecules a..N-1.
  const auto n = static_cast<std::size_t>(p.molecules);
  std::vector<std::int64_t> work(n);
  std::vector<std::size_t> reach(n, n);
  for (std::size_t a = 0; a < n; ++a) work[a] = kTermsPerPair * static_cast<std::int64_t>(n - 1 - a);
  partition_rows(work, reach, chunks_);
  // Kc Q_i Q_j once, for the scalar terms and the 4-lane rows alike.
  for (int i = 0; i < kAtoms; ++i)
    for (int j = 0; j < kAtoms; ++j) terms_.coulomb[i][j] = p_.coulomb * charge(i) * charge(j);
  terms_.lj_a = p_.lj_a;
  terms_.lj_c = p_.lj_c;
}

template <class Fn>
void Tip3pModel::for_each_term(const Eigen::VectorXd& q, int a, int b, Fn&& term) const {
  for (int i = 0; i < kAtoms; ++i)
    for (int j = 0; j < kAtoms; ++j) {
      const int ai = kAtoms * a + i, bj = kAtoms * b + j;
      const Eigen::Vector3d d = atom(q, ai) - atom(q, bj);
      const double r = d.norm();
      term(ai, bj, d, r, coulomb_term(terms_.coulomb[i][j], r));
    }
  const int ao = kAtoms * a + kOxygen, bo = kAtoms * b + kOxygen;
  const Eigen::Vector3d d = atom(q, ao) - atom(q, bo);
  const double r = d.norm();
  term(ao, bo, d, r, lennard_jones_term(terms_.lj_a, terms_.lj_c, r));
}

double Tip3pModel::potential(const Eigen::VectorXd& q) const {
  double v = 0;
  for (int a = 0; a < p_.molecules; ++a)
    for (int b = a + 1; b < p_.molecules; ++b) for_each_term(q, a, b, [&](int, int, const Eigen::Vector3d&, double, const Radial& t) { v += t.f; });
  return v;
}

void Tip3pModel::gradient(const Eigen::VectorXd& q, Eigen::VectorXd& g) const {
  // The 4-lane rows (tip3p_rows_simd.hpp) and the scalar loop give the same bits. The rows pay a gather and partial
  // blocks, which small clusters do not win back: at N = 7 the scalar loop took 2.7 us against their 3.9, at N = 12
  // both 8.6, at N = 100 the rows 365 us against the scalar loop's 640-700. Their structure-of-arrays copy of q is
  // per calling thread: the harness steps several cells at once.
  const bool simd_rows = p_.molecules >= kSimdMolecules;
  thread_local MoleculeArrays scratch;
  MoleculeArrays& arrays = scratch;  // this thread's: the OpenMP workers below each have their own, empty
  if (simd_rows) arrays.gather(q, p_.molecules);
  const simd::SimdPath path = simd::best_simd_path();
  // One buffer per chunk over the molecules its rows write to, summed in chunk order (row_chunks.hpp).
  const auto count = static_cast<std::ptrdiff_t>(chunks_.size());
  // One chunk (small clusters): its buffer is g itself, which the sum over chunks would copy unchanged.
  std::vector<Eigen::VectorXd> buffers(count > 1 ? chunks_.size() : 0);
  auto run = [&](std::size_t c) {
    const RowChunk& chunk = chunks_[c];
    const int base = 3 * kAtoms * static_cast<int>(chunk.window_begin);
    Eigen::VectorXd& buf = count > 1 ? buffers[c] : g;
    buf.setZero(3 * kAtoms * static_cast<Eigen::Index>(chunk.window_end - chunk.window_begin));
    for (auto a = static_cast<int>(chunk.begin); a < static_cast<int>(chunk.end); ++a) {
      if (simd_rows) {
        molecule_row_simd(path, arrays, terms_, a, a + 1, p_.molecules, buf.data(), base);
        continue;
      }
      for (int b = a + 1; b < p_.molecules; ++b)
        for_each_term(q, a, b, [&](int i, int j, const Eigen::Vector3d& d, double r, const Radial& t) {
          const Eigen::Vector3d f = (t.d1 / r) * d;
          buf.segment<3>(3 * i - base) += f;
          buf.segment<3>(3 * j - base) -= f;
        });
    }
  };
  if (count > 1) {
    GIB_PRAGMA(omp parallel for schedule(dynamic, 1))
    for (std::ptrdiff_t c = 0; c < count; ++c) run(static_cast<std::size_t>(c));
  } else {
    run(0);
    return;
  }
  g.setZero(dim());
  for (std::size_t c = 0; c < chunks_.size(); ++c)
    g.segment(3 * kAtoms * static_cast<Eigen::Index>(chunks_[c].window_begin), buffers[c].size()) += buffers[c];
}

void Tip3pModel::hessian(const Eigen::VectorXd& q, Eigen::MatrixXd& H) const {
  H.setZero(dim(), dim());
  for (int a = 0; a < p_.molecules; ++a)
    for (int b = a + 1; b < p_.molecules; ++b)
      for_each_term(q, a, b, [&](int i, int j, const Eigen::Vector3d& d, double r, const Radial& t) {
        const Eigen::Vector3d u = d / r;
        const Eigen::Matrix3d uu = u * u.transpose();
        const Eigen::Matrix3d block = t.d2 * uu + (t.d1 / r) * (Eigen::Matrix3d::Identity() - uu);
        H.block<3, 3>(3 * i, 3 * i) += block;
        H.block<3, 3>(3 * j, 3 * j) += block;
        H.block<3, 3>(3 * i, 3 * j) -= block;
        H.block<3, 3>(3 * j, 3 * i) -= block;
      });
}

void Tip3pModel::third_derivative_contracted(const Eigen::VectorXd& q, const Eigen::VectorXd& a,
                                             Eigen::VectorXd& out) const {
  out.setZero(dim());
  for (int m = 0; m < p_.molecules; ++m)
    for (int n = m + 1; n < p_.molecules; ++n)
      for_each_term(q, m, n, [&](int i, int j, const Eigen::Vector3d& d, double r, const Radial& t) {
        const Eigen::Vector3d u = d / r;
        const Eigen::Vector3d delta = a.segment<3>(3 * i) - a.segment<3>(3 * j);
        const double s = u.dot(delta), g1 = t.d2 - t.d1 / r;
        const Eigen::Vector3d T =
            (t.d3 - g1 / r) * s * s * u + (2 * g1 * s / r) * (delta - s * u) + (g1 / r) * delta.squaredNorm() * u;
        out.segment<3>(3 * i) += T;
        out.segment<3>(3 * j) -= T;
      });
}

}  // namespace gib::water_cluster
