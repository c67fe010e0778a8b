#!/usr/bin/env bash
# Runs on the GPU machine over a carried build (scripts/gpu_carry.sh: .carry/ and the GL loader packages in
# .gl/; the machine has NVIDIA's driver but no loaders): the GPU tests (EDDY_GPU_FILTER, default the render
# tests), then `eddy bench --render` in each mode at 1M and 4M particles, 1920x1080: particles, ssfr with
# the Yu-Turk ellipsoids, ssfr with spheres, surface. Results land in $OUT (or ./gpu-results).
source "$(dirname "$0")/gpu_env.sh"
export EDDY_SOURCE_DIR="$PWD"
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv | tee "$out/gpu.txt"
./.carry/bin/eddy --version | tee -a "$out/gpu.txt"
if [ -z "${EDDY_SKIP_TESTS:-}" ]; then
  ./.carry/bin/eddy_gpu_tests --gtest_filter="${EDDY_GPU_FILTER:-GpuRender*}" 2>&1 | tee "$out/gpu_tests.log" |
    grep -E "^\[  |^  " | tail -n 40
fi
for mode in ${EDDY_RENDER_MODES:-particles ssfr ssfr-spheres surface}; do
  extra=()
  [ "$mode" = ssfr-spheres ] && extra=(--set render.ellipsoids=false)
  ./.carry/bin/eddy bench --render --render-mode "${mode%-spheres}" --backend cuda \
    --particles "${EDDY_RENDER_SIZES:-1048576,4194304}" --settle-frames "${EDDY_SETTLE:-60}" \
    --render-size "${EDDY_RENDER_SIZE:-1920x1080}" "${extra[@]}" 2>&1 | tee "$out/bench_render_$mode.log"
done
