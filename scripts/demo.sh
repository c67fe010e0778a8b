#!/usr/bin/env bash
# Installs what is missing, builds, and runs the built-in dam-break demo into output/dam_break.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
bash scripts/build.sh
./build/bin/eddy run --out output/dam_break "$@"
