#!/usr/bin/env bash
# The generic layers do not depend on any one problem: core/, methods/ and harness/ reach problems only through
# core/problem.hpp and the registries, so a problem can change its internals (or a new one arrive) without touching
# them. Code that needs one problem's internals (Kjer's any-precision kernel, for instance) lives with its paper
# under papers/. Fails, naming every line, when a file under core/, methods/ or harness/ includes "problems/...".
set -u
root=${1:?usage: no_problem_includes.sh <source root>}
hits=$(grep -rnE '^[[:space:]]*#[[:space:]]*include[[:space:]]*[<"][^">]*problems/' "$root/core" "$root/methods" "$root/harness")
rc=$?
if [ "$rc" -eq 0 ]; then
  echo "generic code includes a problem (move the code that needs it to papers/<paper>/, or reach the problem through core/problem.hpp):"
  echo "$hits"
  exit 1
fi
[ "$rc" -eq 1 ] || { echo "grep failed (exit $rc) under $root"; exit 2; }
echo "core/, methods/ and harness/ include nothing under problems/"
