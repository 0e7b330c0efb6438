#include "problems/common/simd_dispatch.hpp"

namespace gib::simd {

SimdPath best_simd_path() {
#if defined(__x86_64__)
  static const bool avx2 = __builtin_cpu_supports("avx2");
  if (avx2) return SimdPath::avx2;
#endif
  return SimdPath::baseline;
}

const char* simd_path_name(SimdPath path) { return path == SimdPath::avx2 ? "avx2" : "baseline"; }

}  // namespace gib::simd
