// The cutoff kernel in double with a Verlet list (issue 24 item 3): each sorted particle's partners after it closer
// than cutoff + skin, kept from one evaluation to the next while no particle has moved skin / 2 since the list was
// built, so every pair closer than the cutoff is still in it. The stencil of cutoff_kernel.hpp visits about six
// candidates per pair inside the cutoff; the list holds (1 + skin / cutoff)^3 of them, and a row's pairs run through
// the same 4-lane code as the all-pairs kernel, switched, on particle records (pair_rows_simd.hpp: listed_rows_simd).
//
// The list, the sorted order and the chunks are those of its build, so the bits of a result depend on where the list
// was last built. A list is therefore reused only inside one RunScope (core/run_scope.hpp) and rebuilt in a new one:
// one run gives the same bits whatever ran before it on the thread, and for any thread count (the chunks depend on
// the list alone). Outside a scope it is rebuilt at every call.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "problems/dipolar_spheres/cutoff_kernel.hpp"
#include "problems/dipolar_spheres/pair_rows_simd.hpp"

namespace gib::dipolar_spheres {

struct VerletList {
  std::uint64_t run = 0;  // the RunScope it was built in; 0: none (rebuild at the next call)
  std::size_t n = 0;
  double cutoff = 0.0, skin = 0.0;
  std::vector<double> x0, y0, z0;           // positions at the build, in the caller's order (the sorted order is
                                            // the cell list's, kept with it in ListedWorkspace::cells)
  std::vector<std::uint32_t> start;         // row s's partners are partners[start[s], start[s + 1])
  std::vector<std::uint32_t> partners;      // sorted indices, each > its row
  std::size_t longest = 0;                  // the longest row
  std::vector<RowChunk> chunks;
  std::int64_t builds = 0;                  // for the tests and the benchmark
};

struct ListedWorkspace {
  CutoffWorkspace<double> cells;  // the cell list (its order is the list's) and the candidate runs the build reads
  VerletList list;
  std::vector<double> records;        // the particles in the list's order, kRecord doubles each (pair_rows_simd.hpp)
  std::vector<ListedBuffer> buffers;  // one per chunk

  std::size_t list_bytes() const;  // what the list keeps between calls, the sorted order included
};

// The list's skin as a fraction of the cutoff: 10 %, so (1.1)^3 = 1.33 list entries per pair inside. How often a run
// rebuilds depends on its speeds and step; bench/pair_kernel.py reports the cost of an evaluation that reuses the list
// and of one that builds it.
inline constexpr double kSkinFraction = 0.1;

// Energy, forces and dV/dmu of the pairs closer than c.cutoff (> 0), switched, as cutoff_pairs<double>.
void cutoff_pairs_listed(const ParticleArrays<double>& p, const PairConstants<double>& c, double skin,
                         ListedWorkspace& ws, PairResult<double>& out);

}  // namespace gib::dipolar_spheres
