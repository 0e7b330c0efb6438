#!/usr/bin/env bash
# The unity build (GIBENCH_UNITY_BUILD) compiles test files in batches, so two files' helpers with one name (a `make`,
# a `Case`) would collide depending on which batch a new file shifts them into. Each test file therefore keeps all its
# code, after its includes, in `namespace gibench_<file stem> { ... }`, and includes nothing after it opens.
# Fails naming each file that does not.
# Usage: test_file_namespaces.sh <tests directory>
set -u
dir=${1:?usage: test_file_namespaces.sh <tests directory>}
bad=0
for f in "$dir"/test_*.cpp; do
  stem=$(basename "$f" .cpp)
  open=$(grep -n "^namespace gibench_${stem} {" "$f" | head -1 | cut -d: -f1)
  if [ -z "$open" ]; then
    echo "$f: no 'namespace gibench_${stem} {' around the file's code (unity build batches would share its names)"
    bad=1
    continue
  fi
  if tail -n +"$open" "$f" | grep '^#include' | grep -vq '\.inc"$'; then
    echo "$f: includes a header inside namespace gibench_${stem}: move it above the namespace"
    bad=1
  fi
done
exit $bad
