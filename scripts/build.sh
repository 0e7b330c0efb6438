#!/usr/bin/env bash
# Configure (Release, Ninja) and build into ./build: every target, or those named as arguments. Used by the two
# Quick-start scripts.
set -euo pipefail
cd "$(dirname "$0")/.."
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
# With arguments, only those targets (the test command builds what its tests run and leaves the benchmarks to (a)).
if [ "$#" -gt 0 ]; then
  targets=()
  for t in "$@"; do targets+=(--target "$t"); done
  cmake --build build --parallel "$(nproc)" "${targets[@]}"
else
  cmake --build build --parallel "$(nproc)"
fi
