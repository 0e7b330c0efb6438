#!/usr/bin/env bash
# `gibench run` prints a summary that fits the problem's model kind: one "final <component>" line per component
# of the final state the results file holds (never an empty or null line borrowed from another kind), and the
# kind's own error and invariant metrics, and a positive counted work per step (the one cost currency). Every
# problem of the registry, so every model kind.
# Usage: run_summary.sh path/to/gibench
set -u
gibench="$1"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0
py=/usr/bin/python3

check() {  # check <what> <wanted metric> <run args...>
  local what="$1" want="$2"; shift 2
  if ! "$gibench" run --out "$work/out.json" "$@" >"$work/stdout" 2>"$work/stderr"; then
    echo "FAIL [$what]: run failed: $(cat "$work/stderr")"; failures=$((failures + 1)); return
  fi
  local keys
  keys=$("$py" -c 'import json,sys; print(" ".join(json.load(open(sys.argv[1]))["rows"][0]["final_state"]))' "$work/out.json")
  local bad=0
  for k in $keys; do
    line=$(grep -E "^  final $k +" "$work/stdout")
    if [ -z "$line" ] || echo "$line" | grep -qE "^  final $k +(null)?$"; then
      echo "FAIL [$what]: no summary line for final_state.$k"; bad=1
    fi
  done
  if [ "$(grep -c '^  final ' "$work/stdout")" -ne "$(echo "$keys" | wc -w)" ]; then
    echo "FAIL [$what]: summary prints state components the row does not have:"; grep '^  final ' "$work/stdout"; bad=1
  fi
  if ! grep -qE "^  $want +[-0-9.e]+$" "$work/stdout"; then echo "FAIL [$what]: no value for $want"; bad=1; fi
  # Every kind pays in the one currency: a method that does work never shows a cost of 0 (Newtonian methods count
  # forces, not right-hand sides, and showed 0 before the currency).
  if ! grep -qE "^  cost per step: [1-9][0-9.e+]* work = " "$work/stdout"; then
    echo "FAIL [$what]: no positive counted work per step"; bad=1
  fi
  if [ "$bad" -eq 0 ]; then echo "ok   [$what]: $(echo $keys)"; else sed 's/^/    /' "$work/stdout"; failures=$((failures + 1)); fi
}

check "rigid body" state_err_final --problem free_rigid_body --method rkmk4 --h 0.01 --T 0.1
check "rigid body with a potential" energy_rel_err_max --problem lagrange_top --method rkmk4 --h 0.01 --T 0.1
check "coulomb body" energy_rel_err_max --problem coulomb_wall --method dlm2 --h 0.01 --T 0.1
check "magnetized body" energy_rel_err_max --problem magnetized_body --method dlm2 --h 0.01 --T 0.1
check "rigid particles" energy_rel_err_max --problem dipolar_spheres --preset kjer2017_2d_n2 --method dlm2 --h 0.01 --T 0.1
check "newtonian" tip_err_final --problem double_pendulum --method velocity_verlet --h 0.001 --T 0.01
check "newtonian chain" energy_rel_err_max --problem pendulum_chain --method velocity_verlet --h 0.0001 --T 0.001
check "newtonian dna" energy_rel_err_max --problem dna_torsion --method velocity_verlet --h 0.001 --T 0.01 --no-reference

if [ "$failures" -ne 0 ]; then echo "$failures failures"; exit 1; fi
echo "all summaries fit their kind"
