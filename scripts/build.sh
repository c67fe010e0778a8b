#!/usr/bin/env bash
# Configures and builds eddy into build/ (CUDA backend where a toolkit is found).
set -euo pipefail
cd "$(dirname "$0")/.."
cmake --preset default >/dev/null
cmake --build --preset default -j "$(nproc)"
