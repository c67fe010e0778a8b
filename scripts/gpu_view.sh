#!/usr/bin/env bash
# Runs on the GPU machine over a carried build (.carry/: bins.tar.xz with eddy and eddy_gpu_tests, lib/ with
# oneTBB, libpng, GLFW and the X11 libraries it links) and the GL loader packages in .gl/: the GPU tests,
# then `eddy view --offscreen` at 1M particles and 1920x1080 in each render mode (the viewer's own frames,
# simulation + picture + panel, drawn through NVIDIA's EGL device platform). Results land in $OUT.
source "$(dirname "$0")/gpu_env.sh"
export EDDY_SOURCE_DIR="$PWD"
mkdir -p .carry/bin
tar xJf .carry/bins.tar.xz -C .carry/bin
[ -f .carry/vdb_libs.tar.xz ] && tar xJf .carry/vdb_libs.tar.xz -C .carry/lib
for f in .gl/*.deb; do dpkg -x "$f" /; done
ldconfig
[ -f /usr/local/nvidia/share/glvnd/egl_vendor.d/10_nvidia.json ] &&
  export __EGL_VENDOR_LIBRARY_FILENAMES=/usr/local/nvidia/share/glvnd/egl_vendor.d/10_nvidia.json
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv | tee "$out/gpu.txt"
./.carry/bin/eddy --version | tee -a "$out/gpu.txt"
if [ -z "${EDDY_SKIP_TESTS:-}" ]; then
  ./.carry/bin/eddy_gpu_tests --gtest_filter="${EDDY_GPU_FILTER:-*}" 2>&1 | tee "$out/gpu_tests.log" |
    grep -E "^\[  |^  " | tail -n 40
fi
for mode in ${EDDY_VIEW_MODES:-particles ssfr surface}; do
  ./.carry/bin/eddy view --offscreen --backend cuda --frames "${EDDY_VIEW_FRAMES:-240}" --no-vsync \
    --set fluid.spacing="${EDDY_VIEW_SPACING:-0.005157}" --size 1920x1080 --mode "$mode" \
    --screenshot "$out/view_$mode.png" 2>&1 | tee "$out/view_$mode.log"
done
