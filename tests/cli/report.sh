#!/usr/bin/env bash
# gibench report (issue 21 items 3 and 4): the site from the committed results, built twice, is the same bytes; a
# rebuild replaces a site gibench wrote and leaves nothing beside it; a link at --out is refused; and the site
# passes the browser checks (tests/browser/report_browser.py: links, console errors, interactive plots, filters,
# screenshots) in headless Chromium.
# usage: report.sh GIBENCH REPO PYTHON
set -euo pipefail
gibench=$1 repo=$2 python=$3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0

"$gibench" report "$repo/results" --out "$tmp/a" > "$tmp/a.log"
"$gibench" report "$repo/results" --out "$tmp/b" > /dev/null
if ! diff -r -q "$tmp/a" "$tmp/b"; then echo "FAIL two builds of the same inputs differ"; fail=1; fi
pages=$(find "$tmp/a" -name '*.html' | wc -l)
echo "site: $pages pages, $(du -sm "$tmp/a" | cut -f1) MB; $(head -1 "$tmp/a.log")"

# One page per registered method and problem (the catalog gibench list --json gives the report).
for what in methods problems; do
  want=$("$gibench" list "$what" --json | "$python" -c 'import json, sys; print(len(json.load(sys.stdin)))')
  have=$(find "$tmp/a/$what" -name '*.html' | wc -l)
  if ((want != have)); then echo "FAIL $have $what pages for $want registered $what"; fail=1; fi
done

# A rebuild over the first site: replaced whole, no staging or old directory left beside it.
touch "$tmp/a/stale-file"
"$gibench" report "$repo/results" --out "$tmp/a" > /dev/null
if [[ -e $tmp/a/stale-file ]]; then echo "FAIL a rebuild kept a file of the old site"; fail=1; fi
left=$(find "$tmp" -maxdepth 1 -name '.*' ! -name . | wc -l)
if ((left != 0)); then echo "FAIL a rebuild left $left staging or old directories"; fail=1; fi

# A link at --out is somebody's decision: refused with exit 2, the link and its target untouched.
mkdir "$tmp/target" && ln -s "$tmp/target" "$tmp/link"
rc=0
"$gibench" report "$repo/results" --out "$tmp/link" > /dev/null 2> "$tmp/err" || rc=$?
if ((rc != 2)) || [[ -n $(ls -A "$tmp/target") ]]; then echo "FAIL --out a link: exit $rc, target has $(ls -A "$tmp/target" | wc -l) files"; fail=1; fi

"$python" "$repo/tests/browser/report_browser.py" "$tmp/a" || fail=1
exit $fail
