#!/usr/bin/env bash
# A results file made with `--method-file` names the file and the FNV-1a hash of its text in its manifest
# (results/SCHEMA.md, manifest.method_files), so a run of other coefficients under the same id is told apart; a run
# without method files has no such key.
# Usage: method_file_manifest.sh path/to/gibench path/to/docs/examples
set -u
gibench="$1" examples="$2"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
py=/usr/bin/python3
fail=0
run() {  # run <out> [args...]
  local out=$1; shift
  "$gibench" run --problem free_rigid_body --preset kjer2017 --h 0.1 --T 1 --out "$out" "$@" >/dev/null 2>"$work/err" ||
    { echo "FAIL: run $*: $(cat "$work/err")"; fail=1; }
}
cp "$examples/rkmk3_heun.json" "$work/heun.json"
run "$work/a.json" --method-file "$work/heun.json" --method rkmk3_heun
# The same method with its comment edited: the text, so the hash, differs.
"$py" - "$work/heun.json" "$work/heun_edited.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1])); d["comment"] = "edited"; open(sys.argv[2], "w").write(json.dumps(d))
PY
run "$work/b.json" --method-file "$work/heun_edited.json" --method rkmk3_heun
run "$work/c.json" --method rkmk3
"$py" - "$work" <<'PY' || fail=1
import json, sys
work = sys.argv[1]
def fnv1a(data):
    h = 14695981039346656037
    for b in data:
        h = ((h ^ b) * 1099511628211) % 2**64
    return "%016x" % h
ok = True
a = json.load(open(work + "/a.json"))["manifest"].get("method_files")
b = json.load(open(work + "/b.json"))["manifest"].get("method_files")
c = json.load(open(work + "/c.json"))["manifest"]
want = fnv1a(open(work + "/heun.json", "rb").read())
if a != [{"id": "rkmk3_heun", "path": work + "/heun.json", "fnv1a": want}]:
    print("FAIL: manifest.method_files of the run with the file:", a, "want hash", want); ok = False
if not b or b[0]["fnv1a"] == want or b[0]["fnv1a"] != fnv1a(open(work + "/heun_edited.json", "rb").read()):
    print("FAIL: the edited file's hash:", b); ok = False
if "method_files" in c:
    print("FAIL: a run without --method-file has method_files:", c["method_files"]); ok = False
sys.exit(0 if ok else 1)
PY
[ "$fail" -eq 0 ] && echo "method_files in the manifest: ok"
exit "$fail"
