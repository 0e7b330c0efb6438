// Commutator-free Lie group methods on T*SO(3) (Celledoni, Marthinsen & Owren 2003), the family Crouch-Grossman
// methods belong to: every stage and the update are products of exponentials of linear combinations of the earlier
// stages' frozen vector fields, so no commutator and no dexp^{-1} is needed. In the left trivialisation of
// methods/crouch_grossman/crouch_grossman.hpp the factors multiply from the right, the first applied nearest y_n:
//   Y_i = y_n exp(h sum_k alpha^1_ik F_k) exp(h sum_k alpha^2_ik F_k) ...,   F_k = f(Y_k),
//   y_{n+1} = y_n exp(h sum_k beta^1_k F_k) exp(h sum_k beta^2_k F_k) ...
// A factor whose coefficients are all zero is the identity and is skipped (neither computed nor counted); a factor
// with one non-zero coefficient is (h alpha) F exactly, as a Crouch-Grossman step computes it.
#pragma once

#include <string>
#include <vector>

#include "core/method.hpp"

namespace gib::commutator_free {

// One factor: the coefficients of F_1, F_2, ... (a stage's factor has one per earlier stage, the update's one per stage).
using Factor = std::vector<double>;

struct Scheme {
  int order = 0;
  std::vector<std::vector<Factor>> stages;  // stage i's factors in the order applied (stage 1 has none)
  std::vector<Factor> output;               // the update's factors in the order applied
};

MethodInfo method(std::string id, std::string display_name, std::string citation, Scheme scheme,
                  std::string family = "commutator_free");

}  // namespace gib::commutator_free
