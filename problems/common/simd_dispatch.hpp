// Which build of a 4-lane kernel (simd_pack.hpp) this process runs: kernels compiled twice, for the x86-64 baseline
// and in a target("avx2") function, with the same bits (no fused multiply-add, fixed lanes), and the AVX2 one chosen
// where the CPU has it.
#pragma once

namespace gib::simd {

enum class SimdPath { baseline, avx2 };

// What this CPU can run; AVX2 when __builtin_cpu_supports says so.
SimdPath best_simd_path();
const char* simd_path_name(SimdPath path);

}  // namespace gib::simd
