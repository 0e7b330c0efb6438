// The Buss (2001) family for the registry (methods/registry.cpp): Taylor methods of orders 1-4, Simo-Wong,
// rotation-vector RK, AB-AM, and the energy-correction wrapper that makes their "+EC" variants.
#pragma once

#include "methods/buss/adams_bashforth_moulton.hpp"
#include "methods/buss/energy_correction.hpp"
#include "methods/buss/rotation_vector_rk.hpp"
#include "methods/buss/simo_wong.hpp"
#include "methods/buss/taylor.hpp"
