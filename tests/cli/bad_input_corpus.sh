#!/usr/bin/env bash
# Every case of the bad-input corpus (tests/bad_inputs/README.md) through the real binary. Each case runs
# in a fresh, empty working directory that is also where --out points, and must: exit 2 (bad input; 1 is
# an internal error, 124 a timeout, 128 and above a crash), print exactly one line on stderr starting
# with "gibench: error: ", and leave that directory empty (no output, no partial or temporary file).
# Usage: bad_input_corpus.sh path/to/gibench path/to/tests/bad_inputs
set -u
gibench=$(realpath "$1")
corpus=$(realpath "$2")
case_timeout="${GIBENCH_CASE_TIMEOUT:-30}"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cases=0
failures=0

# Every case runs here, with this as its working directory; it must stay empty.
dir="$work/case"
mkdir "$dir" && cd "$dir" || exit 1
shopt -s nullglob dotglob

# run_case <name> <gibench arguments...>; @OUT@ becomes the output file, @DIR@ the output directory.
# Few forks per case: the corpus has hundreds of cases and must run in seconds.
run_case() {
  local name="$1"; shift
  local args=() a err left
  for a in "$@"; do
    a="${a//@OUT@/$dir/out.json}"
    args+=("${a//@DIR@/$dir}")
  done
  cases=$((cases + 1))
  timeout "$case_timeout" "$gibench" "${args[@]}" </dev/null >"$work/stdout" 2>"$work/stderr"
  local rc=$?
  mapfile -t err <"$work/stderr"
  left=("$dir"/*)
  if [ "$rc" -ne 2 ] || [ "${#err[@]}" -ne 1 ] || [ "${err[0]:0:16}" != "gibench: error: " ] || [ "${#left[@]}" -ne 0 ]; then
    failures=$((failures + 1))
    echo "FAIL $name: exit $rc, ${#err[@]} stderr lines, left in the output directory: ${left[*]##*/}"
    for a in "${err[@]:0:5}"; do echo "    stderr: ${a:0:300}"; done
    rm -rf "${left[@]}"
  else
    a="${err[0]//"$corpus/"/}"
    echo "ok   $name: ${a:16:200}"
  fi
}

for f in "$corpus"/sweep/*.json; do
  run_case "sweep/${f##*/}" sweep "$f" --out @OUT@
done
for f in "$corpus"/run/*.json; do
  run_case "run/${f##*/}" run --config "$f" --out @OUT@
done
for d in "$corpus"/set/*/; do
  problem="${d%/}"
  problem="${problem##*/}"
  mapfile -t base <"$d/base.args"
  for f in "$d"*.txt; do
    mapfile -t items <"$f"
    sets=()
    for item in "${items[@]}"; do sets+=(--set "$item"); done
    run_case "set/$problem/${f##*/}" run --out @OUT@ "${base[@]}" "${sets[@]}"
  done
done
for f in "$corpus"/args/*.txt; do
  mapfile -t argv <"$f"
  run_case "args/${f##*/}" "${argv[@]}"
done

# An empty or misplaced corpus must not pass by running nothing.
if [ "$cases" -lt 200 ]; then
  echo "FAIL only $cases cases found under $corpus (expected at least 200)"
  failures=$((failures + 1))
fi
echo "$cases cases, $failures failures"
[ "$failures" -eq 0 ]
