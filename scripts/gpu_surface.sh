#!/usr/bin/env bash
# Runs on the GPU machine over a carried build (.carry/: bin/eddy, bin/eddy_gpu_tests, lib/ with oneTBB):
# the GPU tests (EDDY_GPU_FILTER, default the surface ones), `eddy bench --surface` at 1M, 4M and 13.35M
# particles (the dam break settled, and its column before the fall), and the cost of `eddy run --surface`
# on the dam break at 1M particles (profile.json of a run with and without).
# Results land in $OUT (or ./gpu-results).
source "$(dirname "$0")/gpu_env.sh"
export EDDY_SOURCE_DIR="$PWD"
# OpenVDB and the libraries it needs travel compressed (57 MB unpacked: too large to carry as they are)
[ -f .carry/vdb_libs.tar.xz ] && tar xJf .carry/vdb_libs.tar.xz -C .carry/lib
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv | tee "$out/gpu.txt"
./.carry/bin/eddy --version | tee -a "$out/gpu.txt"
./.carry/bin/eddy_gpu_tests --gtest_filter="${EDDY_GPU_FILTER:-*Surface*}" 2>&1 | tee "$out/gpu_tests.log" |
  grep -E "^\[  |^  " | tail -n 30
sizes=${EDDY_SURFACE_SIZES:-1048576,4194304,13350000}
# the dam break settled with the CFL step (time.adaptive; with the scene's fixed 4 substeps the larger sizes
# are still spray after 10 s): 10 s with 10 PBF iterations and XSPH 0.1 up to 4M particles; 7 s with the
# scene's 4 iterations above that, which fits the device's 10-minute limit (give 13350000 a device call of
# its own: EDDY_SURFACE_SIZES=13350000 EDDY_SKIP_RUN=1)
for n in ${sizes//,/ }; do
  settle="--settle-frames 600 --set pbf.iterations=10"
  [ "$n" -gt 4194304 ] && settle="--settle-frames 420 --surface-repeats 3"  # 7 minutes on an H100
  # shellcheck disable=SC2086
  ./.carry/bin/eddy bench --surface --backend cuda --particles "$n" $settle --set pbf.xsph=0.1 \
    --set time.adaptive=true --json "$out/bench_surface_$n.json" 2>&1 | tee "$out/bench_surface_$n.log"
done
./.carry/bin/eddy bench --surface --backend cuda --particles "$sizes" --settle-frames 0 \
  --json "$out/bench_surface_column.json" 2>&1 | tee "$out/bench_surface_column.log"
# the in-run cost at 1M particles (spacing from the dam break's 0.144 m^3 column)
if [ "${EDDY_SKIP_RUN:-0}" != 1 ]; then
  for mode in plain surface; do
    flag=""
    [ "$mode" = surface ] && flag="--surface --set output.particles=false"
    # time.adaptive: at 1M particles the scene's 4 fixed substeps per frame break the CFL limit and the
    # water bursts into a spray that fills the tank; with the CFL step it flows as a dam break should
    ./.carry/bin/eddy run --backend cuda --frames "${EDDY_RUN_FRAMES:-60}" --set fluid.spacing=0.005157 \
      --set time.adaptive=true --set output.particles=false $flag --out "/tmp/run_$mode" 2>&1 |
      tail -n 14 | tee "$out/run_$mode.log"
    cp "/tmp/run_$mode/profile.json" "$out/run_${mode}_profile.json"
  done
fi
