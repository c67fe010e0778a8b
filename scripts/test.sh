#!/usr/bin/env bash
# Installs what is missing, builds, and runs the test suite (GPU tests skip where there is no GPU).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
bash scripts/build.sh
ctest --preset default "$@"
