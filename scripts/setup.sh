#!/usr/bin/env bash
# Installs the Debian/Ubuntu packages eddy needs, where missing. CUDA is optional and not installed here:
# with a toolkit in /usr/local/cuda (or nvcc on PATH) the CUDA backend is built as well. OpenVDB
# (libopenvdb-dev) is optional too (EDDY_OPENVDB=AUTO builds with it where found): .vdb level-set output and
# OpenVDB's reference surface for benchmarks. Debian's libopenvdb-dev lacks two of its own dependencies: its
# headers include Boost and its FindOpenVDB.cmake asks for Boost iostreams and zlib, hence the last two.
set -euo pipefail

packages=(build-essential cmake ninja-build pkg-config libtbb-dev nlohmann-json3-dev libcli11-dev
          libgtest-dev libgmock-dev libbenchmark-dev libtinyobjloader-dev
          libopenvdb-dev libboost-iostreams-dev zlib1g-dev)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "eddy setup: installing ${missing[*]}"
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
