// Simo-Wong explicit ALGO_C1 with gamma = 1, beta = 0, as Buss (2001) ran it (spec 5.7, 9 A3).
#pragma once

#include "core/method.hpp"

namespace gib::buss {

// printed: a_i = (nu_i - nu_{i-1}) / h, the formula as printed: a lagged second-order method.
// as_run:  a_i = nu_i - nu_{i-1} (no division by h), which reproduces the paper's tables: first order.
enum class SimoWongVariant { printed, as_run };

// Ids simo_wong (as run: the paper's "Simo-Wong explicit" rows) and simo_wong_printed. Two ids rather than
// one parameter, because the variants differ in order and the battery checks the claims of a method's
// default parameters only.
MethodInfo simo_wong(SimoWongVariant v);

}  // namespace gib::buss
