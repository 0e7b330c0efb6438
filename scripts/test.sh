#!/usr/bin/env bash
# Quick start (b): install what is missing, build, and run every test (unit tests, the conformance
# battery, the exact-reference validation, bad-input and plotting tests). CI runs exactly this.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/install-deps.sh
# Everything the tests run; the Google Benchmark targets (about 40 s of a 2-core build) compile in (a), which builds
# every target, and are not run by any test.
./scripts/build.sh gibench gibench_tests
ctest --test-dir build --output-on-failure --parallel "$(nproc)" --timeout 300
