#!/usr/bin/env bash
# The whole test suite under a sanitizer: scripts/sanitize.sh address|undefined [ctest arguments]
# Further arguments go to ctest, to run part of the suite: scripts/sanitize.sh address -R sweep
# Configures build-asan or build-ubsan (g++, -O1 -g, the sanitizer made fatal), builds gibench and
# gibench_tests, and runs ctest there. Environment: JOBS (build and ctest parallelism, default 1 for the
# build and 2 for ctest), TIMEOUT (seconds per test, default 3000: instrumented code is several times slower).
set -euo pipefail
cd "$(dirname "$0")/.."

mode="${1:-}"
shift || true
case "$mode" in
  address)
    dir=build-asan
    flags="-fsanitize=address -fno-sanitize-recover=all"
    ;;
  undefined)
    dir=build-ubsan
    # float-cast-overflow is undefined behaviour too (a double too large for the integer it is cast to),
    # but GCC leaves it out of -fsanitize=undefined; config values reach such casts.
    flags="-fsanitize=undefined -fsanitize=float-cast-overflow -fno-sanitize-recover=all"
    ;;
  *)
    echo "usage: $0 address|undefined" >&2
    exit 2
    ;;
esac

start=$(date +%s)
cmake -S . -B "$dir" -G Ninja \
  -DCMAKE_C_COMPILER=gcc -DCMAKE_CXX_COMPILER=g++ \
  -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g -fno-omit-frame-pointer -DNDEBUG" \
  -DCMAKE_CXX_FLAGS="$flags" \
  -DCMAKE_EXE_LINKER_FLAGS="$flags" \
  -DGIBENCH_BUILD_BENCHMARKS=OFF \
  -DGIBENCH_TEST_TIMEOUT="${TIMEOUT:-3000}" >/dev/null
nice -n 10 cmake --build "$dir" --parallel "${JOBS:-1}" --target gibench gibench_tests
built=$(date +%s)
echo "sanitize.sh: $mode build took $((built - start)) s"

# The tests' numerical references are cached on disk; this build keeps its own cache, so a sanitizer run
# neither reads results computed by another build nor races the main build's tests writing them.
export GIBENCH_CACHE_DIR="$PWD/$dir/reference-cache"
export ASAN_OPTIONS="detect_leaks=1:abort_on_error=1:strict_init_order=1:detect_stack_use_after_return=1${ASAN_OPTIONS:+:$ASAN_OPTIONS}"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1${UBSAN_OPTIONS:+:$UBSAN_OPTIONS}"
status=0
nice -n 10 ctest --test-dir "$dir" --output-on-failure --parallel "${CTEST_JOBS:-2}" --timeout "${TIMEOUT:-3000}" "$@" || status=$?
echo "sanitize.sh: $mode tests took $(($(date +%s) - built)) s (build $((built - start)) s), ctest exit $status"
exit "$status"
