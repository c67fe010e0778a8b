#!/usr/bin/env bash
# Runs on the GPU machine over a carried build (.carry/: bin/ with eddy and eddy_gpu_tests, lib/ with
# oneTBB): the GPU tests (CPU/CUDA agreement), a short dam-break run and the benchmarks. Results land in
# $OUT (or ./gpu-results).
source "$(dirname "$0")/gpu_env.sh"
export EDDY_SOURCE_DIR="$PWD"
nvidia-smi --query-gpu=name,memory.total,driver_version,clocks.sm --format=csv | tee "$out/gpu.txt"
./.carry/bin/eddy --version
if [ "${EDDY_SKIP_TESTS:-0}" != 1 ]; then
  ./.carry/bin/eddy_gpu_tests 2>&1 | tee "$out/gpu_tests.log" | grep -E "^\[|agree|rel" | tail -n 40
fi
if [ "${EDDY_SKIP_RUN:-0}" != 1 ]; then
  ./.carry/bin/eddy run --backend cuda --frames 60 --out /tmp/eddy_run --quiet 2>&1 | tail -n 3
  cp /tmp/eddy_run/stats.jsonl "$out/run_stats.jsonl"
fi
sizes=${EDDY_BENCH_SIZES:-262144,1048576,4194304}
for solver in ${EDDY_BENCH_SOLVERS:-pbf wcsph}; do
  ./.carry/bin/eddy bench --solver "$solver" --backend cuda --particles "$sizes" \
    --json "$out/bench_${solver}.json" 2>&1 | tee "$out/bench_${solver}.log"
done
