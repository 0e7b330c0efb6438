#!/usr/bin/env bash
# Installs the Debian 12 packages gibench needs. Idempotent: does nothing when all are present.
set -euo pipefail

packages=(
  build-essential cmake ninja-build git pkg-config
  libeigen3-dev          # dense linear algebra, 3x3 rotations
  libboost-dev           # Odeint (classical RK baselines), Math (Jacobi elliptic / elliptic integrals)
  nlohmann-json3-dev     # results and config JSON
  libcli11-dev           # gibench command line
  catch2                 # unit tests and the conformance battery (Catch2 v2)
  libbenchmark-dev       # Google Benchmark per-step cost
  libopenmpi-dev openmpi-bin   # sweeps across machines (mpirun -n K gibench sweep), tested with 2 ranks
  python3 python3-matplotlib python3-numpy python3-pil   # plots/ scripts (run with /usr/bin/python3); PIL: palette PNGs
  python3-plotly         # plotly.js, bundled into the report's pages for its interactive plots (gibench report)
  chromium chromium-driver python3-selenium   # the report tested in headless Chromium (tests/browser)
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all ${#packages[@]} packages present"
  exit 0
fi

if [ "$(id -u)" -ne 0 ]; then
  echo "install-deps: missing packages (${missing[*]}); run as root or install them with apt-get" >&2
  exit 1
fi

echo "install-deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${missing[@]}"
