#!/usr/bin/env bash
# results/ stays under the README's size budget ("Results size"): the committed files in total, each JSON file and
# each PNG, and every figure and rank results file already in the storage form a rerun writes (gibench compact
# finds nothing to do). Limits come from the arguments so the test can be shown to fail with smaller ones.
# usage: results_budget.sh GIBENCH REPO TOTAL_MB JSON_KB PNG_KB
set -euo pipefail
gibench=$1 repo=$2 total_mb=$3 json_kb=$4 png_kb=$5
cd "$repo"
# The committed files (a clean clone's results/), not runs or the reference cache a local session leaves there.
if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  mapfile -t files < <(git ls-files results)
else
  mapfile -t files < <(find results -type f ! -path 'results/cache/*' ! -path 'results/runs/*' | sort)
fi
fail=0
total=0
for f in "${files[@]}"; do
  [[ -f $f ]] || continue
  size=$(stat -c %s "$f")
  total=$((total + size))
  case $f in
    *.json) if ((size > json_kb * 1000)); then echo "FAIL $f: $((size / 1000)) kB > $json_kb kB"; fail=1; fi ;;
    *.png) if ((size > png_kb * 1000)); then echo "FAIL $f: $((size / 1000)) kB > $png_kb kB"; fail=1; fi ;;
  esac
done
echo "results/: ${#files[@]} files, $((total / 1000000)) MB (budget $total_mb MB)"
if ((total > total_mb * 1000000)); then echo "FAIL results/ total $((total / 1000000)) MB > $total_mb MB"; fail=1; fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
compactable=()
for f in "${files[@]}"; do
  [[ $f == *.json && -f $f ]] || continue
  if grep -q '"kind": *"gibench\.\(figure\|rank\|conformance\)"' "$f"; then
    mkdir -p "$tmp/$(dirname "$f")"
    cp "$f" "$tmp/$f"
    compactable+=("$tmp/$f")
  fi
done
if ((${#compactable[@]} > 0)); then
  if "$gibench" compact "${compactable[@]}" | grep -v '^unchanged' | sed "s|$tmp/||; s|^|FAIL not in storage form (run gibench compact): |"; then
    fail=1
  fi
fi
echo "${#compactable[@]} figure, rank and battery files checked for storage form"
exit $fail
