// Cell lists in free space for the cutoff variant of the dipole kernel (not the paper's setting, which
// sums all pairs), over the bounding box of the particles: no periodicity, no fixed box. The Verlet list
// (verlet_list.hpp) builds one with cells of cutoff + skin whenever it rebuilds; the other precisions' kernel
// (cutoff_kernel.hpp) at every evaluation.
//
// Particles are sorted by cell (x fastest, stable in the particle index), which makes the three cells
// of a row along x one contiguous run of sorted indices. The candidates after a sorted particle s are then
// five runs: the rest of its own cell with the next cell along x, and four rows of three cells ahead
// (dy, dz) = (1, 0), (-1, 1), (0, 1), (1, 1): the 13 forward neighbours of the half-shell stencil, so
// every pair closer than the cutoff is visited exactly once.
#pragma once

#include <array>
#include <cstddef>
#include <vector>

namespace gib::dipolar_spheres {

struct IndexRange {
  std::size_t begin = 0, end = 0;
};

class CellList {
 public:
  static constexpr int kMaxRanges = 5;
  using Ranges = std::array<IndexRange, kMaxRanges>;

  // Cells of side >= cutoff, and at most about two per particle (a dilute system gets larger cells).
  void build(const double* x, const double* y, const double* z, std::size_t n, double cutoff);

  // order()[s] is the particle at sorted position s.
  const std::vector<std::size_t>& order() const { return order_; }
  std::size_t cell_count() const { return start_.empty() ? 0 : start_.size() - 1; }
  // The runs of sorted indices after s that may hold partners of s closer than the cutoff; returns how
  // many of out's entries are used.
  int forward_ranges(std::size_t s, Ranges& out) const;

 private:
  std::size_t cell_index(std::size_t ix, std::size_t iy, std::size_t iz) const { return ix + nx_ * (iy + ny_ * iz); }

  std::size_t nx_ = 1, ny_ = 1, nz_ = 1;
  std::vector<std::size_t> start_;                   // sorted index of each cell's first particle; size cells + 1
  std::vector<std::array<std::size_t, 3>> cell_of_;  // cell coordinates of each sorted particle
  std::vector<std::size_t> order_;
};

}  // namespace gib::dipolar_spheres
