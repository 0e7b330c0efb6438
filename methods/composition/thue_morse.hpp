// Thue-Morse compositions (McLachlan-Quispel lectures Theorem 23, Example 9, Fig 4.1; spec 2.7, 10): recovering a
// symmetry h (an involution with dh f = f o h, the model's symmetry()) that a base method psi breaks. With the
// conjugated step A+psi = h o psi o h, the words psi_{n+1} = psi_n A+psi_n spell the Thue-Morse sequence
// '0110100110010110...' (letter k is 1 when k has an odd number of binary ones): psi_1 = '01', psi_2 = '0110',
// psi_3 = '01101001'. If psi's symmetry error is delta, psi_n's is O(h^n delta): with Euler on the Toda flow the
// distance of X from O(n) falls from O(h^2) after one letter to O(h^5) after eight.
//
// Parameter `sequence`:
//   "word" (the default): one step of h is the word psi_n (parameter `depth` n), each letter a base step of
//          h / 2^n, so a run of N steps is the word repeated N times: a one-step map, what compositions and the
//          battery need.
//   "letters": one step of h is one letter, step k of a run (from 0) taking letter k mod 2^n of the sequence, as
//          Fig 4.1 plots the error against the step. Like two_step_midpoint's history, the position in the word is
//          kept only while the caller hands back, bit for bit, the state this stepper wrote with the same h; any
//          other state restarts the word at letter 0. Not a one-step map: not for use inside another method.
// The base (parameter `base`, default explicit Euler) must be a one-step map (base_map.hpp).
//
// Claims: order 1, that of the default base (a word of consistent steps is consistent; the conjugated step is
// consistent because h maps the flow to itself). Not symmetric, not symplectic: the construction targets the
// symmetry h only. Needs a model with a symmetry (refused by the factory otherwise).
#pragma once

#include "core/method.hpp"

namespace gib::composition {

MethodInfo thue_morse();

// Letter k (from 0) of the Thue-Morse sequence: 0 for psi, 1 for the conjugated step.
inline int thue_morse_letter(unsigned long long k) { return __builtin_popcountll(k) & 1; }

}  // namespace gib::composition
