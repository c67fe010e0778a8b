#!/usr/bin/env bash
# Runs on the GPU machine over a carried build (.carry/: bin/eddy, bin/eddy_gpu_tests, lib/ with oneTBB and
# libpng) and the GL loader packages in .gl/ (libegl1, libopengl0, libglvnd0, ...: the machine has NVIDIA's
# driver but no loaders): the GPU render test and `eddy bench --render` at 1M and 4M particles, 1920x1080.
# Results land in $OUT (or ./gpu-results).
source "$(dirname "$0")/gpu_env.sh"
export EDDY_SOURCE_DIR="$PWD"
[ -f .carry/vdb_libs.tar.xz ] && tar xJf .carry/vdb_libs.tar.xz -C .carry/lib  # eddy links OpenVDB
for f in .gl/*.deb; do dpkg -x "$f" /; done
ldconfig
# NVIDIA's EGL vendor file where the container keeps it
[ -f /usr/local/nvidia/share/glvnd/egl_vendor.d/10_nvidia.json ] &&
  export __EGL_VENDOR_LIBRARY_FILENAMES=/usr/local/nvidia/share/glvnd/egl_vendor.d/10_nvidia.json
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv | tee "$out/gpu.txt"
./.carry/bin/eddy --version | tee -a "$out/gpu.txt"
./.carry/bin/eddy_gpu_tests --gtest_filter="${EDDY_GPU_FILTER:-GpuRender*}" 2>&1 | tee "$out/gpu_tests.log" |
  grep -E "^\[  |^  " | tail -n 30
./.carry/bin/eddy bench --render --backend cuda --particles "${EDDY_RENDER_SIZES:-1048576,4194304}" \
  --settle-frames "${EDDY_SETTLE:-60}" --render-size "${EDDY_RENDER_SIZE:-1920x1080}" 2>&1 |
  tee "$out/bench_render.log"
# a picture of the dam break at 1M particles, for a person to look at
./.carry/bin/eddy run --backend cuda --frames 40 --set fluid.spacing=0.005157 --set output.every=40 \
  --quiet --out /tmp/dam && ./.carry/bin/eddy render /tmp/dam --size 1280x720 --out "$out/render" 2>&1 | tail -n 4
