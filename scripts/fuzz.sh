#!/usr/bin/env bash
# libFuzzer on the two input parsers (fuzz/): scripts/fuzz.sh [seconds per target, default 60]
# Builds build-fuzz with clang (ASan + UBSan + coverage), seeds each target from the bad-input corpus
# (tests/bad_inputs), the figure and baseline sweeps and fuzz/seeds, runs each target for the given time and
# prints the executions and every finding (crash, sanitizer report, exception other than InputError, timeout
# over 10 s, memory over 2 GB) with a line to reproduce it. Exits 1 when there is a finding.
# The run keeps going after a finding (libFuzzer's fork mode), so one bug does not hide the next.
# Environment: JOBS (build parallelism, default 1).
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-60}"
dir=build-fuzz

CC=clang CXX=clang++ cmake -S . -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DGIBENCH_FUZZ=ON -DGIBENCH_BUILD_TESTS=OFF -DGIBENCH_BUILD_BENCHMARKS=OFF -DGIBENCH_MPI=OFF >/dev/null
nice -n 10 cmake --build "$dir" --parallel "${JOBS:-1}" --target fuzz_sweep_config fuzz_set_assignments

# Problems that build a numerical reference must not write into the source tree's cache while fuzzing.
export GIBENCH_NO_REFERENCE_CACHE=1
export ASAN_OPTIONS="detect_leaks=1:abort_on_error=1${ASAN_OPTIONS:+:$ASAN_OPTIONS}"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1${UBSAN_OPTIONS:+:$UBSAN_OPTIONS}"

seed_sweep_config() {  # <corpus dir>
  local f
  for f in tests/bad_inputs/sweep/*.json tests/bad_inputs/run/*.json fuzz/seeds/sweep/*.json; do
    cp "$f" "$1/$(basename "$(dirname "$f")")-${f##*/}"  # sweep/ and run/ hold files of the same name
  done
  # Every sweep of the figure specs and baseline definitions, one file each: the valid configs in use.
  /usr/bin/python3 - "$1" harness/figures/*.json harness/baselines/*.json <<'EOF'
import json, pathlib, sys
out = pathlib.Path(sys.argv[1])
for f in sys.argv[2:]:
    for i, sweep in enumerate(json.loads(pathlib.Path(f).read_text()).get("sweeps", [])):
        (out / f"{pathlib.Path(f).stem}-{i}.json").write_text(json.dumps(sweep))
EOF
}

seed_set_assignments() {  # <corpus dir>: the first line names the problem, the --set items follow
  local d f problem
  for d in tests/bad_inputs/set/*/; do
    problem=$(basename "$d")
    for f in "$d"*.txt; do
      { echo "$problem"; cat "$f"; } >"$1/$problem-$(basename "$f")"
    done
  done
  cp fuzz/seeds/set/*.txt "$1"/
}

findings=0
summary=()
fuzz_target() {  # <target> <max input length>
  local target="$1" max_len="$2"
  local bin="$dir/fuzz/$target" corpus="$dir/corpus/$target" artifacts="$dir/findings/$target"
  local log="$dir/$target.log"
  rm -rf "$artifacts"  # findings are this run's: a fixed bug must not be reported again
  mkdir -p "$corpus" "$artifacts"
  "seed_${target#fuzz_}" "$corpus"
  echo "fuzz.sh: $target for $seconds s ($(ls "$corpus" | wc -l) inputs in the corpus)"
  (cd "$dir" && "$PWD/fuzz/$target" -fork=1 -ignore_crashes=1 -ignore_timeouts=1 -ignore_ooms=1 \
     -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len="$max_len" \
     -dict="$OLDPWD/fuzz/$target.dict" -artifact_prefix="$PWD/findings/$target/" \
     "$PWD/corpus/$target") >"$log" 2>&1 || true
  # Fork mode prints a status line "#<executions>: cov: ... crash: ..." per job; the last has the totals.
  local last
  last=$(grep -aE '^#[0-9]+: cov' "$log" | tail -n 1)
  echo "fuzz.sh: $target: ${last:-no status line, see $log}"
  summary+=("$target: ${last:-no status}")
  local a why
  for a in "$artifacts"/*; do
    [ -e "$a" ] || continue
    findings=$((findings + 1))
    # Rerun the input alone for its first diagnostic line.
    why=$("$bin" -timeout=10 -rss_limit_mb=2048 "$a" 2>&1 |
          grep -aE -m1 'runtime error|ERROR: AddressSanitizer|ERROR: LeakSanitizer|fuzz finding|ERROR: libFuzzer|deadly signal' || true)
    echo "FINDING $target: $a"
    echo "    ${why:-(does not reproduce alone)}"
    echo "    input: $(head -c 200 "$a" | cat -v | tr '\n' ' ')"
    echo "    reproduce: $bin $a"
  done
}

fuzz_target fuzz_sweep_config 16384
fuzz_target fuzz_set_assignments 4096
printf 'fuzz.sh: %s\n' "${summary[@]}"
echo "fuzz.sh: $findings findings (inputs kept under $dir/findings/)"
[ "$findings" -eq 0 ]
