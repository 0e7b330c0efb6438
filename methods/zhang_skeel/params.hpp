// Parameters of the Tao-Owhadi Newtonian methods: the Newmark parameter beta (spec 1: "beta_nm", distinct from
// the water example's inverse temperature), default 0.4 as in the paper's sections 4.1, 4.2 and 4.5.
#pragma once

#include <string>

#include "core/method.hpp"

namespace gib::zhang_skeel {

inline constexpr double kDefaultBeta = 0.4;

// {"beta": 0.4}
Json beta_default_params();
// params["beta"] (the default when absent); throws InputError unless it is a finite number >= 0. beta < 1/4 is
// accepted: the methods are then only conditionally stable (spec 2.4), which is what the stability map shows.
double beta_from(const Json& params, const std::string& method_id);

}  // namespace gib::zhang_skeel
