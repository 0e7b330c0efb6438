#!/usr/bin/env bash
# Quick start (b): install what is missing, build, and run every test (unit tests, the conformance
# battery, the exact-reference validation, bad-input and plotting tests). CI runs exactly this.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/install-deps.sh
./scripts/build.sh
ctest --test-dir build --output-on-failure --parallel "$(nproc)" --timeout 300
