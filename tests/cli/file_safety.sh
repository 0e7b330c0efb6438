#!/usr/bin/env bash
# Where gibench writes, through the real binary (README, File safety): every refused output must exit 2
# with exactly one stderr line starting "gibench: error: " and leave the scratch directory exactly as it
# was (same names, types, link targets, modes and bytes: no temporary, no journal, no input or link target
# touched). Everything happens in a fresh mktemp -d directory; nothing outside it is touched (/dev
# included: the special files are made here). Usage: file_safety.sh path/to/gibench
set -u
gibench=$(realpath "$1")
case_timeout="${GIBENCH_CASE_TIMEOUT:-60}"
work=$(mktemp -d)
trap 'chmod -R u+rwx "$work" 2>/dev/null; rm -rf "$work"' EXIT
export GIBENCH_NO_REFERENCE_CACHE=1
cases=0
failures=0

scratch="$work/scratch"  # what must not change
cwd="$scratch/cwd"       # where gibench runs: a name like ../x would land in $scratch, where it shows
mkdir -p "$cwd/sub" && cd "$cwd" || exit 1

# Names, types, modes, link targets and content of everything under the scratch directory.
snapshot() {
  (cd "$scratch" && find . -mindepth 1 -printf '%y %m %s %p -> %l\n' | LC_ALL=C sort &&
     find . -type f -exec md5sum {} + | LC_ALL=C sort)
}

fail() { failures=$((failures + 1)); echo "FAIL $1"; }

# Inputs and planted files as the cases expect them: a case that failed (old code replaced a FIFO or a
# link, overwrote a config) must not make the next one pass or fail for the wrong reason.
reset_fixtures() {
  [ -d "${pristine:-}" ] || return 0
  cp -p "$pristine"/* "$cwd"/
  rm -rf "$cwd/fifo.json" "$cwd/outdir" "$cwd/link.json" "$cwd/dangling.json"
  mkfifo "$cwd/fifo.json" && mkdir "$cwd/outdir" && ln -s victim.txt "$cwd/link.json" && ln -s nowhere.json "$cwd/dangling.json"
  if [ -d "$scratch/root" ]; then
    cp -p "$pristine_root/mini.json" "$scratch/root/harness/baselines/mini.json"
  fi
}

# expect_refusal <description> <gibench arguments...>
expect_refusal() {
  local what="$1"; shift
  cases=$((cases + 1))
  local before after rc err first problems=""
  reset_fixtures
  before=$(snapshot)
  timeout "$case_timeout" "$gibench" "$@" </dev/null >"$work/stdout" 2>"$work/stderr"
  rc=$?
  after=$(snapshot)
  mapfile -t err <"$work/stderr"
  [ "$rc" -eq 2 ] || problems+=" exit $rc (want 2);"
  [ "${#err[@]}" -eq 1 ] || problems+=" ${#err[@]} stderr lines (want 1);"
  first="${err[0]:-}"
  [ "${first:0:16}" = "gibench: error: " ] || problems+=" stderr does not start with 'gibench: error: ';"
  if [ "$before" != "$after" ]; then
    problems+=" the scratch directory changed:"
    problems+=$(diff <(echo "$before") <(echo "$after") | grep '^[<>]' | head -6 | sed 's/^/ /' | tr '\n' ';')
  fi
  if [ -n "$problems" ]; then
    fail "[$what]:$problems"
    local line
    for line in "${err[@]:0:3}"; do echo "    stderr: ${line:0:300}"; done
  else
    echo "ok   [$what]: ${first:16:200}"
  fi
}

# expect_success <description> <test of the result> <gibench arguments...>
expect_success() {
  local what="$1" test="$2"; shift 2
  cases=$((cases + 1))
  timeout "$case_timeout" "$gibench" "$@" </dev/null >"$work/stdout" 2>"$work/stderr"
  local rc=$?
  local left
  left=$(cd "$scratch" && find . \( -name '*.tmp*' -o -name '*.journal' -o -name '.*.tmp.*' \) | head -3)
  if [ "$rc" -ne 0 ] || ! eval "$test" || [ -n "$left" ]; then
    fail "[$what]: exit $rc, test '$test', left behind: ${left:-nothing}"
    sed 's/^/    stderr: /' "$work/stderr" | head -3
  else
    echo "ok   [$what]"
  fi
}

sweep_cfg() {  # sweep_cfg <name JSON value>: a sweep of two cells that runs in milliseconds
  printf '{"name": %s, "problems": [{"problem": "free_rigid_body"}], "methods": ["rkmk4"], "h": [0.1, 0.05], "T": 0.2}\n' "$1"
}
sweep_cfg '"tiny"' >cfg.json
printf '{"problem": "free_rigid_body", "method": "rkmk4", "h": 0.1, "T": 0.2}\n' >run.json
run=(run --problem free_rigid_body --method rkmk4 --h 0.1 --T 0.2)
echo "somebody else's data" >victim.txt
echo "not a directory" >plain.txt

# --- the good paths first (they also make the shard files for merge) ---
expect_success "run writes a new file" '[ -s new.json ]' "${run[@]}" --out new.json
echo "old content" >existing.json
expect_success "run replaces an existing regular file" 'grep -q "\"rows\"" existing.json' "${run[@]}" --out existing.json
expect_success "sweep writes --out, no journal left" '[ -s res.json ]' sweep cfg.json --out res.json
expect_success "sweep without --out writes <name>.json" '[ -s tiny.json ]' sweep cfg.json
expect_success "sweep into a directory it creates" '[ -s sub/new/dir/res.json ]' sweep cfg.json --out sub/new/dir/res.json
expect_success "shard 0/2" '[ -s s0.json ]' sweep cfg.json --shard 0/2 --out s0.json
expect_success "shard 1/2" '[ -s s1.json ]' sweep cfg.json --shard 1/2 --out s1.json
expect_success "merge" '[ -s merged.json ]' merge s0.json s1.json --out merged.json
rm -rf sub/new tiny.json
pristine="$work/pristine"
mkdir "$pristine" && cp -p cfg.json run.json s0.json s1.json victim.txt plain.txt "$pristine"/

# --- targets that are not regular files (made by reset_fixtures) ---
expect_refusal "run --out a FIFO"                 "${run[@]}" --out fifo.json
expect_refusal "sweep --out a FIFO"               sweep cfg.json --out fifo.json
expect_refusal "run --out a directory"            "${run[@]}" --out outdir
expect_refusal "sweep --out a directory"          sweep cfg.json --out outdir
expect_refusal "merge --out a directory"          merge s0.json s1.json --out outdir
expect_refusal "sweep --out a directory/"         sweep cfg.json --out outdir/
expect_refusal "run --out a symlink"              "${run[@]}" --out link.json
expect_refusal "sweep --out a symlink"            sweep cfg.json --out link.json
expect_refusal "merge --out a symlink"            merge s0.json s1.json --out link.json
expect_refusal "run --out a dangling symlink"     "${run[@]}" --out dangling.json
expect_refusal "reference --out a FIFO"           reference --problem free_rigid_body --times 1 --out fifo.json
expect_refusal "particles-dump --out a directory" particles-dump --out outdir
expect_refusal "conformance --out a symlink"      conformance --method rkmk4 --out link.json
expect_refusal "rank --out a FIFO"                rank --problem free_rigid_body --out fifo.json --no-plots
expect_refusal "precision-study --out a FIFO"     precision-study --out fifo.json
expect_refusal "precision-study --out x.md (the markdown would replace it)" precision-study --out x.md
if mknod chardev.json c 1 3 2>/dev/null; then  # the numbers of /dev/null, made here, never opened
  expect_refusal "run --out a character device"  "${run[@]}" --out chardev.json
  expect_refusal "sweep --out a character device" sweep cfg.json --out chardev.json
else
  echo "skip [--out a character device]: mknod is not permitted here"
fi

# --- places that cannot be written ---
expect_refusal "run --out under a regular file"   "${run[@]}" --out plain.txt/out.json
expect_refusal "sweep --out under a regular file" sweep cfg.json --out plain.txt/deeper/out.json
long=$(printf 'x%.0s' $(seq 1 300))
expect_refusal "run --out a 305-byte name"        "${run[@]}" --out "$long.json"
expect_refusal "sweep --out a 305-byte name"      sweep cfg.json --out "$long.json"
name250=$(printf 'y%.0s' $(seq 1 250))
expect_refusal "sweep --out whose journal name is too long" sweep cfg.json --out "$name250.json"
name200=$(printf 'z%.0s' $(seq 1 200))
deep=$(printf "$name200/%.0s" $(seq 1 21))
expect_refusal "sweep --out a path longer than PATH_MAX" sweep cfg.json --out "${deep}out.json"
expect_refusal "run --out ''"                     "${run[@]}" --out ''
mkdir ro && chmod 555 ro
if touch ro/.probe 2>/dev/null; then
  rm -f ro/.probe
  echo "skip [--out in a read-only directory]: running as root, chmod does not stop writes"
else
  expect_refusal "run --out in a read-only directory"   "${run[@]}" --out ro/out.json
  expect_refusal "sweep --out in a read-only directory" sweep cfg.json --out ro/sub/out.json
  expect_refusal "reproduce --out-dir read-only"        reproduce buss2001-fig3 --out-dir ro/figs
fi
expect_refusal "reproduce --out-dir naming a file" reproduce buss2001-fig3 --out-dir plain.txt
expect_refusal "reproduce --out-dir under a file"  reproduce buss2001-fig3 --out-dir plain.txt/figs

# --- the journal beside --out ---
ln -s victim.txt j.json.journal
expect_refusal "journal is a symlink"              sweep cfg.json --out j.json
expect_refusal "journal is a symlink, --restart"   sweep cfg.json --out j.json --restart
expect_refusal "journal is a symlink, --resume"    sweep cfg.json --out j.json --resume
rm -f j.json.journal
mkfifo j.json.journal
expect_refusal "journal is a FIFO, --restart"      sweep cfg.json --out j.json --restart
rm -f j.json.journal
cp victim.txt j.json.journal
expect_refusal "--restart over a file that is no journal" sweep cfg.json --out j.json --restart
rm -f j.json.journal

# --- sweep names are names, not paths ---
echo "unrelated" >x
cp -p x "$pristine"/
for spec in 'nul:"x\u0000y"' 'parent:"../x"' "absolute:\"$scratch/abs\"" 'slash:"sub/x"' 'hidden:".x"' 'empty:""' \
            "101 bytes:\"$(printf 'n%.0s' $(seq 1 101))\"" "300 bytes:\"$long\""; do
  sweep_cfg "${spec#*:}" >named.json
  expect_refusal "sweep name ${spec%%:*}"            sweep named.json
  expect_refusal "sweep name ${spec%%:*}, --restart" sweep named.json --restart
done
rm named.json

# --- an output that is an input ---
ln cfg.json hardlink.json
expect_refusal "sweep --out its config"              sweep cfg.json --out cfg.json
expect_refusal "sweep --out ./its config"            sweep cfg.json --out ./cfg.json
expect_refusal "sweep --out a hard link of its config" sweep cfg.json --out hardlink.json
expect_refusal "sweep --out its config via sub/.."   sweep cfg.json --out sub/../cfg.json
expect_refusal "sweep --shard --out its config"      sweep cfg.json --shard 0/2 --out cfg.json
cp "$pristine/cfg.json" o.json.journal
expect_refusal "sweep whose journal is its config"   sweep o.json.journal --out o.json --restart
rm -f o.json.journal
expect_refusal "run --out its --config"              run --config run.json --out run.json
expect_refusal "merge --out its first shard"         merge s0.json s1.json --out s0.json
expect_refusal "merge --out its second shard"        merge s0.json s1.json --out "$cwd/s1.json"
rm hardlink.json

# --- check: outputs that are its own inputs (a project root of our own, not the source tree) ---
root="$scratch/root"
mkdir -p "$root/harness/baselines" "$root/results/baselines"
printf '{"name": "mini", "protects": "nothing", "metrics": ["state_err_final"], "sweeps": [%s]}\n' "$(sweep_cfg '"mini"')" \
  >"$root/harness/baselines/mini.json"
pristine_root="$work/pristine_root"
mkdir "$pristine_root" && cp -p "$root/harness/baselines/mini.json" "$pristine_root"/
echo '{}' >"$root/results/baselines/mini.json"
export GIBENCH_ROOT="$root"
expect_refusal "check --out its baseline definition" check --out "$root/harness/baselines/mini.json"
expect_refusal "check --out its recorded baseline"   check --out "$root/results/baselines/mini.json"
rm "$root/results/baselines/mini.json"
ln -s "$cwd/victim.txt" "$root/results/baselines/mini.json"
expect_refusal "check --update into a symlink"       check --update
unset GIBENCH_ROOT

echo "$cases cases, $failures failures"
[ "$failures" -eq 0 ]
