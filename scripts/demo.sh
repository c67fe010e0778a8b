#!/usr/bin/env bash
# Installs what is missing, builds the eddy command alone, and runs the built-in dam-break demo into
# output/dam_break. The CUDA backend is built only where a GPU can run it; elsewhere the CPU backend alone,
# which takes a few minutes on two cores (scripts/build.sh builds everything, tests included).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
if command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi -L >/dev/null 2>&1; then
  preset=default folder=build
else
  preset=cpu folder=build-cpu
fi
cmake --preset "$preset" >/dev/null
cmake --build --preset "$preset" -j "$(nproc)" --target eddy_cli
"./$folder/bin/eddy" run --out output/dam_break "$@"
