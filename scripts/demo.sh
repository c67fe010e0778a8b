#!/usr/bin/env bash
# Installs what is missing, builds the eddy command alone into build/, and runs the built-in dam-break demo
# into output/dam_break. The CUDA backend is built only where a GPU can run it; elsewhere the CPU backend
# alone (scripts/build.sh builds everything, tests included, with CUDA wherever a toolkit is found).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
# a build/ configured before (by scripts/build.sh, say) keeps its configuration, so nothing is rebuilt twice
if [ ! -f build/CMakeCache.txt ]; then
  cuda=OFF
  if command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi -L >/dev/null 2>&1; then cuda=AUTO; fi
  cmake --preset default -DEDDY_CUDA="$cuda" >/dev/null
fi
cmake --build --preset default -j "$(nproc)" --target eddy_cli
./build/bin/eddy run --out output/dam_break "$@"
