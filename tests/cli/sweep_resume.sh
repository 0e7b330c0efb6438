#!/usr/bin/env bash
# One sweep, many routes, the same bytes: serial, two threads, three shards merged, killed with -9
# part-way and resumed (twice: once with a torn journal line), and, with "mpi" as the third argument,
# under mpirun -n 2. Every route must write a file identical to the serial one (--reproducible leaves
# date, host and command line out), leave no journal behind, and lose or repeat no cell.
# Usage: sweep_resume.sh path/to/gibench path/to/config.json [mpi]
set -u
gibench="$1"
config="$2"
mode="${3:-}"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0

check() {  # check <description> <command...>: the command must succeed
  local what="$1"; shift
  if "$@"; then echo "ok   [$what]"; else echo "FAIL [$what]"; failures=$((failures + 1)); fi
}

sweep() { "$gibench" sweep "$config" --reproducible "$@"; }
# Finished cells in a journal (its "start" records and header do not count).
journal_lines() { if [ -f "$1" ]; then grep -c '"phase":"accuracy"' "$1"; else echo 0; fi; }

# Starts a sweep, waits for at least $2 journal records, kills it with -9; the results file must not exist.
kill_part_way() {
  local out="$1" records="$2"
  "$gibench" sweep "$config" --reproducible --out "$out" --jobs 2 >/dev/null 2>&1 &
  local pid=$!  # gibench itself, not a subshell: kill -9 must hit the process that holds the journal
  for _ in $(seq 1 600); do
    [ "$(journal_lines "$out.journal")" -gt "$records" ] && break
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.05
  done
  kill -9 "$pid" 2>/dev/null
  wait "$pid" 2>/dev/null
  [ ! -e "$out" ] && [ "$(journal_lines "$out.journal")" -gt "$records" ] && [ "$(journal_lines "$out.journal")" -lt 12 ]
}

if [ "$mode" = "mpi" ]; then
  check "serial run" sweep --out "$work/serial.json" --jobs 1
  # Under AddressSanitizer (scripts/sanitize.sh), LeakSanitizer reports what OpenMPI allocates in MPI_Init
  # and keeps past MPI_Finalize, mostly from its unloaded plugins, whose frames cannot be named and so not
  # suppressed; leak checking is off for the ranks only; the serial run above keeps it.
  export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
  check "mpirun -n 2 gives the serial bytes" bash -c "mpirun -n 2 --oversubscribe --allow-run-as-root '$gibench' sweep '$config' --reproducible --out '$work/mpi.json' >'$work/mpi.log' 2>&1 && cmp '$work/serial.json' '$work/mpi.json' && grep -q 'on 2 MPI ranks' '$work/mpi.log'"
  [ "$failures" -eq 0 ] || tail -n 20 "$work/mpi.log"
  echo "$failures failures"
  [ "$failures" -eq 0 ]
  exit
fi

check "serial run"                      sweep --out "$work/serial.json" --jobs 1
check "no journal after a finished run" test ! -e "$work/serial.json.journal"
check "two threads give the same bytes" bash -c "'$gibench' sweep '$config' --reproducible --out '$work/threads.json' --jobs 2 >/dev/null && cmp '$work/serial.json' '$work/threads.json'"

for i in 0 1 2; do sweep --out "$work/shard$i.json" --shard "$i/3" --jobs 1 >/dev/null; done
check "three shards merge to the same bytes" bash -c "'$gibench' merge '$work/shard2.json' '$work/shard0.json' '$work/shard1.json' --reproducible --out '$work/merged.json' >/dev/null && cmp '$work/serial.json' '$work/merged.json'"

check "kill -9 part-way leaves a journal and no results file" kill_part_way "$work/killed.json" 3
check "a rerun without --resume refuses to overwrite the journal" bash -c "! '$gibench' sweep '$config' --out '$work/killed.json' 2>/dev/null"
done_before=$(journal_lines "$work/killed.json.journal")
check "resume finishes with the same bytes" bash -c "'$gibench' sweep '$config' --reproducible --out '$work/killed.json' --resume --jobs 2 >'$work/resume.log' && cmp '$work/serial.json' '$work/killed.json'"
check "resume took the finished cells from the journal" grep -q "($done_before from the journal)" "$work/resume.log"
check "no journal after the resumed run" test ! -e "$work/killed.json.journal"

check "second kill -9" kill_part_way "$work/torn.json" 2
printf '0123456789abcdef {"i": 3, "phase": "accu' >>"$work/torn.json.journal"  # a write torn by the crash
check "resume over a torn journal line gives the same bytes" bash -c "'$gibench' sweep '$config' --reproducible --out '$work/torn.json' --resume >/dev/null && cmp '$work/serial.json' '$work/torn.json'"

echo "$failures failures"
[ "$failures" -eq 0 ]
