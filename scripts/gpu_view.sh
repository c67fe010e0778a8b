#!/usr/bin/env bash
# Runs on the GPU machine over a carried build (scripts/gpu_carry.sh): `eddy view --offscreen` in each render
# mode (the viewer's own frames: simulation + picture + panel, drawn through NVIDIA's EGL device platform),
# at 1920x1080: the dam break at 1M particles (EDDY_VIEW_SPACING), or the scene EDDY_VIEW_SCENE as written
# (the dragon pour's end-to-end frame: simulation, surface or ellipsoids, picture). The GPU tests first
# unless EDDY_SKIP_TESTS. Results land in $OUT.
source "$(dirname "$0")/gpu_env.sh"
export EDDY_SOURCE_DIR="$PWD"
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv | tee "$out/gpu.txt"
if [ -z "${EDDY_SKIP_TESTS:-}" ]; then
  ./.carry/bin/eddy_gpu_tests --gtest_filter="${EDDY_GPU_FILTER:-*}" 2>&1 | tee "$out/gpu_tests.log" |
    grep -E "^\[  |^  " | tail -n 40
fi
scene=()
name=dam_break_1m
if [ -n "${EDDY_VIEW_SCENE:-}" ]; then
  scene=("$EDDY_VIEW_SCENE")
  name=$(basename "$EDDY_VIEW_SCENE" .json)
else
  scene=(--set fluid.spacing="${EDDY_VIEW_SPACING:-0.005157}")
fi
for mode in ${EDDY_VIEW_MODES:-particles ssfr surface}; do
  ./.carry/bin/eddy view --offscreen --backend cuda --frames "${EDDY_VIEW_FRAMES:-240}" --no-vsync \
    "${scene[@]}" --size "${EDDY_VIEW_SIZE:-1920x1080}" --mode "$mode" \
    --screenshot "$out/view_${name}_$mode.png" 2>&1 | tee "$out/view_${name}_$mode.log"
done
