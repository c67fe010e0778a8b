#!/usr/bin/env bash
# Runs on the GPU machine over a carried build (scripts/gpu_carry.sh): the dam break of `eddy bench` at the
# largest sizes, each solver on its own (EDDY_LARGEST_SIZES, default 100M particles; EDDY_LARGEST_SOLVERS,
# default "wcsph mpm pbf"; EDDY_LARGEST_SUBSTEPS timed substeps, default 40), with the device memory each
# used and the wall time of the whole run, set-up included. Extra `eddy bench` arguments for one solver go
# in EDDY_LARGEST_PBF / _WCSPH / _MPM (for example "--set pbf.max_neighbors=64"). Results land in $OUT.
source "$(dirname "$0")/gpu_env.sh"
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv | tee "$out/gpu.txt"
for solver in ${EDDY_LARGEST_SOLVERS:-wcsph mpm pbf}; do
  var="EDDY_LARGEST_${solver^^}"
  SECONDS=0
  # shellcheck disable=SC2086 # the extra arguments are words
  ./.carry/bin/eddy bench --backend cuda --solver "$solver" --particles "${EDDY_LARGEST_SIZES:-100000000}" \
    --substeps "${EDDY_LARGEST_SUBSTEPS:-40}" --warmup 4 --json "$out/largest_$solver.json" ${!var:-} 2>&1 |
    tee "$out/largest_$solver.log"
  echo "wall clock of the whole run, set-up included: ${SECONDS} s" |
    tee -a "$out/largest_$solver.log"
  nvidia-smi --query-gpu=memory.used --format=csv,noheader | sed 's/^/device memory in use after the run: /'
done
