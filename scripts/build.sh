#!/usr/bin/env bash
# Configure (Release, Ninja) and build everything into ./build. Used by the two Quick-start scripts.
set -euo pipefail
cd "$(dirname "$0")/.."
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build --parallel "$(nproc)"
