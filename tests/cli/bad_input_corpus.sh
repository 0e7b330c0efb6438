#!/usr/bin/env bash
# Every case of the bad-input corpus (tests/bad_inputs/README.md) through the real binary. Each case runs
# in a fresh, empty working directory that is also where --out points, and must: exit 2 (bad input; 1 is
# an internal error, 124 a timeout, 128 and above a crash), print exactly one line on stderr starting
# with "gibench: error: " and no longer than max_line bytes (errors quote a bounded excerpt of the input),
# and leave that directory empty (no output, no partial or temporary file).
# Usage: bad_input_corpus.sh path/to/gibench path/to/tests/bad_inputs
set -u
gibench=$(realpath "$1")
corpus=$(realpath "$2")
case_timeout="${GIBENCH_CASE_TIMEOUT:-30}"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
max_line=1000
cases=0
failures=0

# Every case runs here, with this as its working directory; it must stay empty.
dir="$work/case"
mkdir "$dir" && cd "$dir" || exit 1
shopt -s nullglob dotglob

# placeholders <text> sets REPLY to text with @OUT@ as the output file, @DIR@ the output directory and @SRC@ the
# corpus directory (no subshell: the corpus has hundreds of cases and must run in seconds).
placeholders() {
  local a="${1//@OUT@/$dir/out.json}"
  a="${a//@DIR@/$dir}"
  REPLY="${a//@SRC@/$corpus}"
}

# run_case <name> <gibench arguments...>, with the environment assignments (VAR=value) in the array env_of_case.
env_of_case=()
run_case() {
  local name="$1"; shift
  local args=() a err left
  for a in "$@"; do
    placeholders "$a"
    args+=("$REPLY")
  done
  cases=$((cases + 1))
  timeout "$case_timeout" env "${env_of_case[@]}" "$gibench" "${args[@]}" </dev/null >"$work/stdout" 2>"$work/stderr"
  local rc=$?
  mapfile -t err <"$work/stderr"
  local first="${err[0]-}"
  left=("$dir"/*)
  if [ "$rc" -ne 2 ] || [ "${#err[@]}" -ne 1 ] || [ "${first:0:16}" != "gibench: error: " ] || [ "${#first}" -gt "$max_line" ] ||
     [ "${#left[@]}" -ne 0 ]; then
    failures=$((failures + 1))
    echo "FAIL $name: exit $rc, ${#err[@]} stderr lines (the first ${#first} long), left in the output directory: ${left[*]##*/}"
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
# args/NAME.env, when present, holds the case's environment (GIBENCH_ROOT for a fixture tree), one VAR=value a line.
for f in "$corpus"/args/*.txt; do
  mapfile -t argv <"$f"
  env_of_case=()
  if [ -f "${f%.txt}.env" ]; then
    mapfile -t lines <"${f%.txt}.env"
    for a in "${lines[@]}"; do
      placeholders "$a"
      env_of_case+=("$REPLY")
    done
  fi
  run_case "args/${f##*/}" "${argv[@]}"
done
env_of_case=()

# An empty or misplaced corpus must not pass by running nothing.
if [ "$cases" -lt 200 ]; then
  echo "FAIL only $cases cases found under $corpus (expected at least 200)"
  failures=$((failures + 1))
fi
echo "$cases cases, $failures failures"
[ "$failures" -eq 0 ]
