#!/usr/bin/env bash
# Generic harness code never branches on a model kind: everything kind-specific lives in the kind traits
# (harness/model_kinds*), reached through visit_kind / for_each_kind. A downcast to a kind's problem class, a
# comparison with a ModelKind value, an `if constexpr` on the kind or a kind's traits named outside them is the
# special-casing that made adding a kind cost 21 edit sites (issue 19). Paper-specific code (papers/) may know
# its kind. Usage: kind_branches.sh <source root>
set -u
root="$1"
pattern='dynamic_cast<const (RigidBody|Particles|Newtonian|VectorField)Problem|ModelKind::|is_same_v<Kind|\b(RigidBody|Particles|Newtonian|VectorField)Kind\b'
hits=$(cd "$root" && grep -rnE "$pattern" harness bench --include='*.cpp' --include='*.hpp' | grep -vE '^harness/model_kinds(_[a-z_]+)?\.(hpp|cpp):')
if [ -n "$hits" ]; then
  echo "kind branches outside the kind traits (harness/model_kinds*):"
  echo "$hits"
  exit 1
fi
echo "no kind branches in harness/ or bench/ outside harness/model_kinds*"
