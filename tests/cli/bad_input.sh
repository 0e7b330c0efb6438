#!/usr/bin/env bash
# Bad input on the command line: every case must print exactly one line "gibench: error: ..." on
# stderr, exit 2 (bad input), and leave no output file behind. Usage: bad_input.sh path/to/gibench
set -u
gibench="$1"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0
cases=0

want_rc=2
expect_error() {  # expect_error <description> <args...>; exit status want_rc ("any": any but 0)
  local what="$1"; shift
  cases=$((cases + 1))
  rm -f "$work/out.json" "$work"/out.json.tmp.*
  timeout 30 "$gibench" "$@" >"$work/stdout" 2>"$work/stderr"
  local rc=$?
  local lines
  lines=$(wc -l <"$work/stderr")
  if { [ "$want_rc" = any ] && [ "$rc" -eq 0 ]; } || { [ "$want_rc" != any ] && [ "$rc" -ne "$want_rc" ]; } ||
     [ "$lines" -ne 1 ] || ! grep -q '^gibench: error: ' "$work/stderr" || [ -e "$work/out.json" ]; then
    echo "FAIL [$what]: rc=$rc, stderr lines=$lines, output file $( [ -e "$work/out.json" ] && echo present || echo absent)"
    sed 's/^/    stderr: /' "$work/stderr"
    failures=$((failures + 1))
  else
    echo "ok   [$what]: $(cat "$work/stderr")"
  fi
}

run=(run --out "$work/out.json")
base=(--problem free_rigid_body --method rkmk4 --h 0.01 --T 1)

expect_error "unknown problem"        "${run[@]}" --problem nope --method rkmk4 --h 0.01 --T 1
expect_error "unknown method"         "${run[@]}" --problem free_rigid_body --method nope --h 0.01 --T 1
expect_error "unknown preset"         "${run[@]}" "${base[@]}" --preset nope
expect_error "unknown figure"         reproduce nope --out-dir "$work"
expect_error "unknown list"           list nothing
expect_error "zero inertia"           "${run[@]}" "${base[@]}" --set 'inertia=[1,0,1]'
expect_error "negative inertia"       "${run[@]}" "${base[@]}" --set 'inertia=[1,-1,1]'
expect_error "inertia too short"      "${run[@]}" "${base[@]}" --set 'inertia=[1,1]'
expect_error "NaN initial value"      "${run[@]}" "${base[@]}" --set 'Pi0=[NaN,1,1]'
expect_error "Inf initial value"      "${run[@]}" "${base[@]}" --set 'Pi0=[1e999,1,1]'
expect_error "non-rotation R0"        "${run[@]}" "${base[@]}" --set 'R0=[1,0,0,0,1,0,0,0,2]'
expect_error "unknown parameter"      "${run[@]}" "${base[@]}" --set 'mass=3'
expect_error "duplicate --set"        "${run[@]}" "${base[@]}" --set 'seed=1' --set 'seed=2'
expect_error "h = 0"                  "${run[@]}" --problem free_rigid_body --method rkmk4 --h 0 --T 1
expect_error "h < 0"                  "${run[@]}" --problem free_rigid_body --method rkmk4 --h -0.1 --T 1
expect_error "T not multiple of h"    "${run[@]}" --problem free_rigid_body --method rkmk4 --h 0.3 --T 1
expect_error "T < 0"                  "${run[@]}" --problem free_rigid_body --method rkmk4 --h 0.1 --T -1
expect_error "steps = 0 and no T"     "${run[@]}" --problem free_rigid_body --method rkmk4 --h 0.1
expect_error "bad method parameter"   "${run[@]}" "${base[@]}" --param truncation=huge
expect_error "unknown method param"   "${run[@]}" "${base[@]}" --param colour=red
expect_error "bad initial condition"  "${run[@]}" "${base[@]}" --ic random:-1
expect_error "no subcommand"
expect_error "unknown option"         "${run[@]}" "${base[@]}" --frobnicate

printf '{"problems": [' >"$work/truncated.json"
: >"$work/empty.json"
printf '{"problems": [{"problem": "free_rigid_body"}], "methods": ["rkmk4"], "h": [0.1], "T": 1, "colour": 1}' >"$work/unknown_key.json"
printf '{"problems": [{"problem": "free_rigid_body"}], "methods": ["rkmk4"], "h": [-0.1], "T": 1}' >"$work/neg_h.json"
printf '{"problems": [{"problem": "free_rigid_body", "overrides": [{"inertia": [1, 2, 0]}]}], "methods": ["rkmk4"], "h": [0.1], "T": 1}' >"$work/bad_inertia.json"
printf '{"problem": "free_rigid_body", "method": "rkmk4", "h": "small", "T": 1}' >"$work/run_wrong_type.json"
printf '\xff\xfe{"problems": []}' >"$work/not_utf8.json"

expect_error "truncated sweep config" sweep "$work/truncated.json" --out "$work/out.json"
expect_error "empty sweep config"     sweep "$work/empty.json" --out "$work/out.json"
expect_error "unknown config key"     sweep "$work/unknown_key.json" --out "$work/out.json"
expect_error "negative h in config"   sweep "$work/neg_h.json" --out "$work/out.json"
expect_error "zero inertia in config" sweep "$work/bad_inertia.json" --out "$work/out.json"
expect_error "missing config"         sweep "$work/missing.json" --out "$work/out.json"
expect_error "non-UTF-8 config"       sweep "$work/not_utf8.json" --out "$work/out.json"
expect_error "wrong type in run config" "${run[@]}" --config "$work/run_wrong_type.json"

printf '{"problems": [{"problem": "free_rigid_body"}], "methods": ["rkmk4"], "h": [0.1], "T": 1}' >"$work/good.json"
expect_error "--resume without a journal"   sweep "$work/good.json" --out "$work/out.json" --resume
expect_error "--resume with --restart"      sweep "$work/good.json" --out "$work/out.json" --resume --restart
expect_error "--shard out of range"         sweep "$work/good.json" --out "$work/out.json" --shard 2/2
expect_error "--shard not i/K"              sweep "$work/good.json" --out "$work/out.json" --shard half
expect_error "negative cell time budget"    sweep "$work/good.json" --out "$work/out.json" --cell-time-budget -1
expect_error "NaN cell time budget"         sweep "$work/good.json" --out "$work/out.json" --cell-time-budget nan
expect_error "merge of a results file"      merge "$work/good.json" --out "$work/out.json"
expect_error "merge of a missing file"      merge "$work/nothere.json" --out "$work/out.json"

# Inputs that are no regular file, or too large, are refused before they are read; all made here, in the scratch
# directory. A FIFO without a writer blocked the open; one with a writer that never stops stands for /dev/zero
# (endless input that grew the memory until bad_alloc; this writer is slow, so a regression hangs until the
# timeout rather than eats the memory); a symlink loop; files beyond the 64 MiB bound.
mkfifo "$work/fifo.json"
expect_error "config is a FIFO"              "${run[@]}" --config "$work/fifo.json"
mkfifo "$work/endless.json"
while printf '[' 2>/dev/null; do sleep 0.01; done >"$work/endless.json" &
writer=$!
expect_error "config is an endless FIFO"     sweep "$work/endless.json" --out "$work/out.json"
kill "$writer" 2>/dev/null
wait "$writer" 2>/dev/null
ln -s "$work/loop_b.json" "$work/loop_a.json"
ln -s "$work/loop_a.json" "$work/loop_b.json"
expect_error "config is a symlink loop"      sweep "$work/loop_a.json" --out "$work/out.json"
expect_error "run config is a symlink loop"  "${run[@]}" --config "$work/loop_a.json"
{ printf '%*s' $((65 << 20)) ''; cat "$work/good.json"; } >"$work/huge.json"  # valid JSON, 65 MiB of it blanks
expect_error "config beyond 64 MiB"          sweep "$work/huge.json" --out "$work/out.json"
truncate -s 65M "$work/sparse.json"
expect_error "shard beyond 64 MiB"           merge "$work/sparse.json" --out "$work/out.json"
rm -f "$work/huge.json" "$work/sparse.json"

# A 10 MB sweep name, which names the output file when --out is not given: whatever refuses it, the error line
# stays short (at most 2000 bytes of message, main.cpp), not 10 MB.
{ printf '{"name": "'; printf '%*s' 10000000 '' | tr ' ' n; printf '", %s}' "$(tail -c +2 "$work/good.json" | head -c -1)"; } \
  >"$work/long_name.json"
cd "$work" || exit 1
want_rc=any  # what the name may be is another matter (it names a file); here only the length of the line counts
expect_error "10 MB name, no --out" sweep "$work/long_name.json"
want_rc=2
cd "$OLDPWD" || exit 1
cases=$((cases + 1))
if [ "$(wc -c <"$work/stderr")" -gt 2100 ]; then
  echo "FAIL [10 MB name, no --out]: a $(wc -c <"$work/stderr")-byte error line"
  failures=$((failures + 1))
fi

# And the good path writes the file.
cases=$((cases + 1))
if "$gibench" "${run[@]}" "${base[@]}" >/dev/null 2>&1 && [ -s "$work/out.json" ]; then
  echo "ok   [valid run writes its file]"
else
  echo "FAIL [valid run writes its file]"
  failures=$((failures + 1))
fi

echo "$cases cases, $failures failures"
[ "$failures" -eq 0 ]
