#!/usr/bin/env bash
# Nsight Compute durations of every kernel of a few substeps (carried build): which kernels a phase is made
# of and how long each runs on its own. usage: gpu_kernels.sh [SOLVER] [PARTICLES] [SKIP] [COUNT]
set -uo pipefail
cd "$(dirname "$0")/.."
out=${OUT:-gpu-results}
mkdir -p "$out"
export LD_LIBRARY_PATH="$PWD/.carry/lib:${LD_LIBRARY_PATH:-}"
ncu=$(command -v ncu || ls /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | head -1)
"$ncu" --clock-control none --cache-control none --kernel-name-base function --launch-skip "${3:-300}" \
  --launch-count "${4:-30}" --section SpeedOfLight \
  ./.carry/bin/eddy bench --solver "${1:-pbf}" --backend cuda --particles "${2:-1048576}" --substeps 20 \
  --warmup 20 > "$out/ncu_kernels.txt" 2>&1
grep -E "^  [a-zA-Z_].*\(|Duration" "$out/ncu_kernels.txt" | paste - - |
  awk '{for (i = 1; i <= NF; i++) if ($i == "Duration") d = $(i + 2) " " $(i + 1); print substr($1 " " $2, 1, 70), d}'
