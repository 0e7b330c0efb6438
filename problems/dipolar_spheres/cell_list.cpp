#include "problems/dipolar_spheres/cell_list.hpp"

#include <algorithm>
#include <cmath>

namespace gib::dipolar_spheres {
namespace {

constexpr double kMaxCellsPerParticle = 2.0;
// Cells a hair wider than the cutoff, so that rounding in the binning never puts a pair closer than the
// cutoff two cells apart.
constexpr double kCellMargin = 1.0 + 1e-9;

struct Axis {
  double lo = 0, extent = 0;
  std::size_t cells = 1;
  double cells_per_length = 0;
};

Axis bounding_axis(const double* v, std::size_t n) {
  Axis a;
  if (n == 0) return a;
  const auto [lo, hi] = std::minmax_element(v, v + n);
  a.lo = *lo;
  a.extent = *hi - *lo;
  return a;
}

std::size_t cells_along(double extent, double side, double cap) {
  if (!std::isfinite(extent) || !std::isfinite(side)) return 1;  // non-finite positions: one cell, NaN forces
  return static_cast<std::size_t>(std::clamp(std::floor(extent / side), 1.0, cap));
}

std::size_t bin(double v, const Axis& a) {
  const double k = std::floor((v - a.lo) * a.cells_per_length);
  if (!(k >= 0)) return 0;  // also NaN
  return std::min(a.cells - 1, static_cast<std::size_t>(std::min(k, static_cast<double>(a.cells - 1))));
}

}  // namespace

void CellList::build(const double* x, const double* y, const double* z, std::size_t n, double cutoff) {
  std::array<Axis, 3> axes = {bounding_axis(x, n), bounding_axis(y, n), bounding_axis(z, n)};
  const double cap = std::max(1.0, kMaxCellsPerParticle * static_cast<double>(n));
  double side = cutoff * kCellMargin;
  for (;;) {
    double total = 1;
    for (Axis& a : axes) {
      a.cells = cells_along(a.extent, side, cap);
      total *= static_cast<double>(a.cells);
    }
    if (total <= cap) break;
    side *= 1.25;
  }
  for (Axis& a : axes) a.cells_per_length = a.extent > 0 && a.cells > 1 ? static_cast<double>(a.cells) / a.extent : 0.0;
  nx_ = axes[0].cells;
  ny_ = axes[1].cells;
  nz_ = axes[2].cells;

  // Counting sort by cell, stable in the particle index.
  std::vector<std::array<std::size_t, 3>> coords(n);
  start_.assign(nx_ * ny_ * nz_ + 1, 0);
  for (std::size_t i = 0; i < n; ++i) {
    coords[i] = {bin(x[i], axes[0]), bin(y[i], axes[1]), bin(z[i], axes[2])};
    ++start_[cell_index(coords[i][0], coords[i][1], coords[i][2]) + 1];
  }
  for (std::size_t c = 1; c < start_.size(); ++c) start_[c] += start_[c - 1];
  std::vector<std::size_t> fill(start_.begin(), start_.end() - 1);
  order_.resize(n);
  cell_of_.resize(n);
  for (std::size_t i = 0; i < n; ++i) {
    const std::size_t s = fill[cell_index(coords[i][0], coords[i][1], coords[i][2])]++;
    order_[s] = i;
    cell_of_[s] = coords[i];
  }
}

int CellList::forward_ranges(std::size_t s, Ranges& out) const {
  const auto [ix, iy, iz] = cell_of_[s];
  const std::size_t x_lo = ix > 0 ? ix - 1 : 0, x_hi = std::min(ix + 1, nx_ - 1);
  int count = 0;
  out[count++] = {s + 1, start_[cell_index(x_hi, iy, iz) + 1]};
  constexpr int kRows[4][2] = {{1, 0}, {-1, 1}, {0, 1}, {1, 1}};
  for (const auto& row : kRows) {
    const auto y = static_cast<std::ptrdiff_t>(iy) + row[0];
    const auto z = static_cast<std::ptrdiff_t>(iz) + row[1];
    if (y < 0 || z < 0 || y >= static_cast<std::ptrdiff_t>(ny_) || z >= static_cast<std::ptrdiff_t>(nz_)) continue;
    const auto yy = static_cast<std::size_t>(y), zz = static_cast<std::size_t>(z);
    const IndexRange r{start_[cell_index(x_lo, yy, zz)], start_[cell_index(x_hi, yy, zz) + 1]};
    if (r.end > r.begin) out[count++] = r;
  }
  return count;
}

}  // namespace gib::dipolar_spheres
