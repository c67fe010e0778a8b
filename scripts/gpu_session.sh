#!/usr/bin/env bash
# Runs on the GPU machine over a carried build (.carry/: bin/, lib/ with oneTBB): GPU tests (CPU/CUDA
# agreement included) and the benchmarks. Results land in $OUT (or ./gpu-results).
set -uo pipefail
cd "$(dirname "$0")/.."
out=${OUT:-gpu-results}
mkdir -p "$out"
export LD_LIBRARY_PATH="$PWD/.carry/lib:${LD_LIBRARY_PATH:-}"
export EDDY_SOURCE_DIR="$PWD"
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv | tee "$out/gpu.txt"
./.carry/bin/eddy --version
sizes=${EDDY_BENCH_SIZES:-262144,1048576,4194304}
if [ "${EDDY_SKIP_TESTS:-0}" != 1 ]; then
  ./.carry/bin/eddy_gpu_tests 2>&1 | tee "$out/gpu_tests.log" | tail -n 40
fi
for solver in pbf wcsph; do
  ./.carry/bin/eddy bench --solver "$solver" --backend cuda --particles "$sizes" \
    --json "$out/bench_${solver}.json" 2>&1 | tee "$out/bench_${solver}.log"
done
