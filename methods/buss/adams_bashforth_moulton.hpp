// Adams-Bashforth-Moulton as Buss (2001) may have run it (spec 5.11): the paper gives no formulas and its
// numbers are not reproducible; this is the most plausible reading.
#pragma once

#include "core/method.hpp"

namespace gib::buss {

// Id buss_abm: AB4 predictor / AM4 corrector (PECE) on the world angular velocity, rotation-vector update,
// rotation-vector RK for the first 3 steps.
MethodInfo adams_bashforth_moulton();

}  // namespace gib::buss
