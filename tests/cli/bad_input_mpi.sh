#!/usr/bin/env bash
# Bad input under mpirun -n 2: every rank reads the same arguments and config, but only rank 0 prints the
# error, so the user sees one "gibench: error:" line (mpirun adds its own report of the exit code), and the
# job exits 2. Usage: bad_input_mpi.sh path/to/gibench
set -u
gibench="$1"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0

# expect_one_error <description> <gibench arguments...>
expect_one_error() {
  local what="$1"; shift
  mpirun -n 2 --oversubscribe --allow-run-as-root "$gibench" "$@" >"$work/stdout" 2>"$work/stderr"
  local rc=$? lines
  lines=$(grep -c '^gibench: ' "$work/stderr")
  if [ "$rc" -ne 2 ] || [ "$lines" -ne 1 ] || ! grep -q '^gibench: error: ' "$work/stderr" || [ -e "$work/out.json" ]; then
    echo "FAIL [$what]: exit $rc, $lines gibench lines on stderr"
    sed 's/^/    stderr: /' "$work/stderr"
    failures=$((failures + 1))
  else
    echo "ok   [$what]: $(grep '^gibench: ' "$work/stderr")"
  fi
}

printf '{"problems": [' >"$work/truncated.json"
expect_one_error "malformed config" sweep "$work/truncated.json" --out "$work/out.json"
expect_one_error "bad --jobs" sweep "$work/truncated.json" --out "$work/out.json" --jobs 65536

[ "$failures" -eq 0 ]
