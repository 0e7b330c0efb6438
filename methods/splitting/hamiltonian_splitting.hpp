// Splittings of a separable Hamiltonian H = T(p) + V(q) into the exact flows of its two parts (McLachlan-Quispel
// lectures 2.7 and 3.4, spec 3.2, 12), on the general-vector-field kind:
//   drift D_s: q <- q + s grad T(p);   kick K_s: p <- p - s grad V(q).
//   leapfrog_dkd      D_{h/2} K_h D_{h/2}, the lectures' printed leapfrog;
//   leapfrog_kdk      K_{h/2} D_h K_{h/2}, velocity Verlet;
//   symplectic_euler  K_h D_h (drift first), the lectures' "Verlet" of 3.4: order 1 as a map on (q, p), conjugate to
//                     KDK through K_{h/2} (spec 3.2), so its energy error is O(h) unless its output is processed.
//   symplectic_euler_processed  symplectic Euler on y = K_{h/2}(x), shown as x = K_{-h/2}(y) (spec 3.2, E6): the
//                     orbit is symplectic Euler's, every output KDK's state up to round-off (K_{-h/2} SE^n K_{h/2} = KDK^n).
// Each flow is exact and symplectic, so all three are symplectic; the two palindromes are symmetric and of order 2.
// Cost: one grad V (counted as a force evaluation) per step: the closing kick's gradient of KDK is reused by the
// next step's opening kick when q has not changed (the caller hands back the state this stepper wrote).
// Every stepper is also a TangentMap (the exact Jacobian of its step, a product of shears) when the model gives the
// Hessians of T and V.
#pragma once

#include <string>
#include <vector>

#include "core/method.hpp"

namespace gib::splitting {

enum class HamiltonianSplitting { leapfrog_dkd, leapfrog_kdk, symplectic_euler, symplectic_euler_processed };

MethodInfo hamiltonian_splitting(HamiltonianSplitting kind);

// Any sequence of the two flows, the first applied first, each over coef h; with a processor P, the kernel runs on
// y = P(x) and every output is P^{-1}(y) (the four methods above are such sequences; method files of family
// "splitting" give others). Symplectic always; symmetric and the order as the caller states (method files check them).
enum class Piece { drift, kick };
struct Flow {
  Piece piece;
  double coef;
};
struct FlowSequence {
  std::vector<Flow> kernel;
  std::vector<Flow> processor;  // empty: no processing
};
MethodInfo hamiltonian_sequence(std::string id, std::string display_name, std::string citation, FlowSequence seq,
                                int order, bool symmetric);
bool is_palindrome(const std::vector<Flow>& flows);

}  // namespace gib::splitting
