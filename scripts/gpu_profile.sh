#!/usr/bin/env bash
# Nsight Compute durations of chosen kernels at 1M particles, after warm-up (GPU machine, carried build).
# usage: gpu_profile.sh REGEX SKIP COUNT
source "$(dirname "$0")/gpu_env.sh"
"$ncu" --clock-control none --kernel-name-base demangled --kernel-name "regex:${1:-forEachKernel}" --launch-skip "${2:-0}" \
  --launch-count "${3:-10}" --section SpeedOfLight --section Occupancy --section LaunchStats --section MemoryWorkloadAnalysis \
  ./.carry/bin/eddy bench --solver ${EDDY_SOLVER:-pbf} --backend cuda --particles 1048576 --substeps 3 --warmup 8 \
  > "$out/ncu.txt" 2>&1
grep -E "^  [a-zA-Z_].*\(|Duration|Achieved Occupancy|Registers Per" "$out/ncu.txt" | sed 's/(eddy::cuda::[^)]*)//' | cut -c1-140
