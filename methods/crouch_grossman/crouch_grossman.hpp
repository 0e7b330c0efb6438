// Crouch-Grossman methods of any explicit tableau on T*SO(3) (methods/from_file/ builds them from method files).
// The stages and the update are products of exponentials, one factor per earlier stage, multiplying from the right
// with the oldest stage nearest y_n, exactly as cg3.cpp explains for the order-3 method:
//   Y_i = y_n exp(h a_i1 F_1) ... exp(h a_{i,i-1} F_{i-1}),   y_{n+1} = y_n exp(h b_1 F_1) ... exp(h b_s F_s).
// A zero coefficient's factor is the identity and is skipped (neither computed nor counted).
#pragma once

#include <string>

#include "core/method.hpp"
#include "methods/rkmk/tableau.hpp"

namespace gib::crouch_grossman {

MethodInfo method(std::string id, std::string display_name, std::string citation, const rkmk::Tableau& tableau);

}  // namespace gib::crouch_grossman
