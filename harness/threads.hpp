// Thread count for parallel accuracy passes when the user gave none (--jobs 0): all cores.
#pragma once

#ifdef _OPENMP
#include <omp.h>
#endif

namespace gib {

inline int default_thread_count() {
#ifdef _OPENMP
  return omp_get_max_threads();
#else
  return 1;
#endif
}

inline int thread_count(int requested) { return requested > 0 ? requested : default_thread_count(); }

}  // namespace gib
