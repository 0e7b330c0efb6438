#!/usr/bin/env bash
# core/method.hpp and core/model.hpp are included by most of the library, so whatever they include every
# translation unit parses. They declare what they need of nlohmann/json (json_fwd.hpp) and of Eigen's sparse
# module (a forward declaration) and leave the full headers to the files that use them (issue 19, item 8).
# Fails, naming the chain of project headers, when either reaches nlohmann/json.hpp, Eigen/Sparse* or
# Eigen/Eigen (which includes the sparse modules) through the project headers it includes.
# Usage: light_core_headers.sh <source root>
set -u
root=${1:?usage: light_core_headers.sh <source root>}
forbidden='^(nlohmann/json\.hpp|Eigen/Sparse.*|Eigen/Eigen)$'
include_re='^[[:space:]]*#[[:space:]]*include[[:space:]]*[<"]([^">]+)[">]'

declare -A seen
hits=""
# walk <header relative to root> <chain that led to it>
walk() {
  local file=$1 chain=$2 line inc target
  [ -n "${seen[$file]:-}" ] && return
  seen[$file]=1
  [ -r "$root/$file" ] || { echo "cannot read $root/$file"; exit 2; }
  while IFS= read -r line; do
    [[ $line =~ $include_re ]] || continue
    inc=${BASH_REMATCH[1]}
    if [[ $inc =~ $forbidden ]]; then
      hits+="$chain -> <$inc>"$'\n'
      continue
    fi
    # Project headers are named from the source root ("core/so3.hpp") or, rarely, from the including file.
    target=""
    if [ -f "$root/$inc" ]; then
      target=$inc
    elif [ -f "$root/$(dirname "$file")/$inc" ]; then
      target=$(realpath -m --relative-to="$root" "$root/$(dirname "$file")/$inc")
    fi
    [ -n "$target" ] && walk "$target" "$chain -> $target"
  done < "$root/$file"
}

for top in core/method.hpp core/model.hpp; do
  walk "$top" "$top"
done
if [ -n "$hits" ]; then
  echo "a header included by most of the library includes a heavy header (declare what it needs; include the"
  echo "full header in the files that use it):"
  printf '%s' "$hits"
  exit 1
fi
echo "core/method.hpp and core/model.hpp reach neither nlohmann/json.hpp nor Eigen's sparse modules (${#seen[@]} project headers)"
