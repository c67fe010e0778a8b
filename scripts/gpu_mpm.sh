#!/usr/bin/env bash
# MPM on the GPU machine over a carried build (.carry/): agreement tests, the 1M/128^3 and 8M/256^3
# benchmarks and the seed's benchmark scene (one simulated second, wall time). Results land in $OUT.
source "$(dirname "$0")/gpu_env.sh"
if [ "${EDDY_SKIP_TESTS:-0}" != 1 ]; then
  ./.carry/bin/eddy_gpu_tests --gtest_filter="${EDDY_GPU_FILTER:-*Mpm*}" 2>&1 | tee "$out/gpu_tests_mpm.log" |
    grep -E "^\[|largest|rel" | tail -n 30
fi
./.carry/bin/eddy bench --solver mpm --backend cuda --particles "${EDDY_MPM_SIZES:-1048576,8388608}" \
  --substeps "${EDDY_MPM_SUBSTEPS:-100}" --json "$out/bench_mpm.json" 2>&1 | tee "$out/bench_mpm.log"
if [ "${EDDY_SKIP_SEED:-0}" != 1 ]; then
  /usr/bin/time -f "seed benchmark wall %e s" ./.carry/bin/eddy run scenes/mpm_seed_benchmark.json --backend cuda \
    --out /tmp/eddy_seed --quiet ${EDDY_SEED_ARGS:-} 2>&1 | tail -n 3 | tee "$out/seed.log"
  tail -n 1 /tmp/eddy_seed/stats.jsonl >> "$out/seed.log"
fi
