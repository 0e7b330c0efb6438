// Thread counts of the parallel accuracy passes: --jobs N, 0 meaning all cores.
#pragma once

#include <string>

#ifdef _OPENMP
#include <omp.h>
#endif

#include "core/errors.hpp"

namespace gib {

// The most threads --jobs may ask for (README, Bad input). Far more than any machine gibench runs on has cores;
// tens of thousands make the OpenMP runtime fail to start them or crash.
constexpr int kMaxJobs = 1024;

inline int default_thread_count() {
#ifdef _OPENMP
  return omp_get_max_threads();
#else
  return 1;
#endif
}

// requested in 0..kMaxJobs (the command line refuses anything else; this guards the library's other callers).
inline int thread_count(int requested) {
  if (requested < 0 || requested > kMaxJobs)
    throw InputError("jobs must be in 0.." + std::to_string(kMaxJobs) + " (0: all cores), got " + std::to_string(requested));
  return requested > 0 ? requested : default_thread_count();
}

}  // namespace gib
