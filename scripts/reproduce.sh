#!/usr/bin/env bash
# Quick start (a): install what is missing, build, and run the main job: the default reproduction set,
# writing JSON, markdown and PNG figures under results/paper/.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/install-deps.sh
./scripts/build.sh
./build/gibench reproduce default "$@"
