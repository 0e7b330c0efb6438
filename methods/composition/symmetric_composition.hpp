// Symmetric compositions: from a symmetric (self-adjoint) method Phi of even order p, the method
//   Psi_h = Phi_{gamma_s h} o ... o Phi_{gamma_1 h}      (gamma_1 h first)
// with palindromic substeps gamma_i summing to 1 and sum_i gamma_i^{p+1} = 0 is symmetric of order p + 2
// (Yoshida 1990; Suzuki 1990; McLachlan-Quispel lectures 1.6, spec 2.4-2.6). It works on any model kind
// the base supports: the builder wraps each of the base's factories.
//
// Schemes:
//   triple_jump: gamma = (g, 1 - 2g, g), g = 1/(2 - 2^{1/(p+1)}) (Yoshida 1990; Forest & Ruth 1990; Neri;
//                Qin & Zhu 1992). Three base steps, the middle one backwards.
//   suzuki5:     gamma = (g, g, 1 - 4g, g, g), g = 1/(4 - 4^{1/(p+1)}) (Suzuki 1990). Five base steps with
//                smaller substeps (max |gamma| 0.66 against 1.70 for p = 2) and a smaller error constant.
// Iterating (a composition is itself symmetric, of order p + 2) gives orders 6, 8, ...
//
// The composed method:
//   * claims order p + 2 and symmetric; implicit, symplectic, stays_on_group and every invariant claim
//     (exact stays exact, bounded stays bounded) are the base's, since each is kept by a composition of
//     maps that keep it; torque_free_only is the base's;
//   * takes the base's parameters: its default_params are the base's, and the (merged) parameters are
//     handed to the base's factory unchanged, so `--param ordering=123` works on mr4 as on mr2;
//   * counts what the base steps count (the harness counts one step);
//   * owns one base stepper, created with it (no allocation per step), and calls it s times per step
//     with substeps gamma_i h, some negative.
//
// Requirement on the base (not checkable from MethodInfo, so stated here): its step must be a one-step
// map, x_{n+1} = Phi_h(x_n), depending only on (x_n, h). Inside a composition consecutive base steps have
// different, partly negative, sizes, so history carried between steps (multistep starting values, an
// FSAL stage reused on the assumption of equal steps) would be wrong. Caches that are validated against
// the incoming state (as the right-trivialised RKMK's) are fine. Symmetric methods in gibench's sense
// (Phi_{-h} o Phi_h = id) are one-step maps, which is why the builder insists on a symmetric base.
// reset() is forwarded to the base once per run.
#pragma once

#include <string>
#include <vector>

#include "core/method.hpp"

namespace gib::composition {

enum class Scheme { triple_jump, suzuki5 };
const char* to_string(Scheme s);

// Substep fractions gamma_1..gamma_s for a symmetric base of even order p >= 2 (palindromic, sum 1,
// sum gamma^{p+1} = 0), computed in long double and rounded once. Throws InputError for odd or p < 2.
std::vector<double> coefficients(Scheme scheme, int base_order);

// The composition of `base` by `scheme`. Throws InputError if the base does not claim to be symmetric
// or claims an odd order (a symmetric method has even order). Citation: base's, plus the scheme's.
MethodInfo compose(const MethodInfo& base, Scheme scheme, std::string id, std::string display_name);

// Iterated: compose(compose(base, schemes[0], ...), schemes[1], ...) ...; the intermediate methods get the
// id "<id>~<k>" (they are not registered).
MethodInfo compose(const MethodInfo& base, const std::vector<Scheme>& schemes, std::string id,
                   std::string display_name);

// A composition with substeps given as data (methods/from_file/, whose order-condition check comes first): it claims
// `order`, and symmetric when the base is symmetric and gamma a palindrome; the other claims are the base's, as above.
// The base need not be symmetric here (the file's order claim is checked in the free algebra, for either kind).
// With a processor (substeps p_1..p_m of a symmetric base), the method is processed: the caller sees P^{-1} K P, K the
// composition by gamma, P by the processor, and the kernel's state is carried between steps so that P and P^{-1}
// cost once per run and once per output (ProcessedCompositionStepper in the .cpp); `order` is P^{-1} K P's.
MethodInfo compose_substeps(const MethodInfo& base, const std::vector<double>& gamma, int order, std::string id,
                            std::string display_name, std::string citation, const std::vector<double>& processor = {});

}  // namespace gib::composition
