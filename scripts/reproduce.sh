#!/usr/bin/env bash
# Quick start (a): install what is missing, build, and run the main job: the default reproduction set,
# writing JSON, markdown and PNG figures under results/paper/, then the report site (report/index.html).
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/install-deps.sh
./scripts/build.sh
./build/gibench reproduce default "$@"
# The precision half of Kjer's energy-spike question (the step half, kjer2017-spikes-steps, is in the default
# set): RKMK4 in double, long double and binary128 at h = 0.01, 0.005, 0.0025, N = 10, T = 300. About 3 minutes
# on 2 idle cores (software binary128 is ~100x slower than double); writes results/paper/kjer2017-spikes-precision.*
./build/gibench precision-study
# The report: every verdict, the leaderboards, the methods and problems as a static site (report/, not committed).
./build/gibench report
