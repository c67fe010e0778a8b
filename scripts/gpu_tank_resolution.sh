#!/usr/bin/env bash
# GPU machine, carried build (scripts/gpu_carry.sh): the tank at rest (scenes/validation/tank_at_rest.json)
# at three spacings with WCSPH and DFSPH; scripts/tank_probes.py compares its wall probes with rho g d
# after 2 s of settling. EDDY_TANK_SPACINGS and EDDY_TANK_SOLVERS choose.
source "$(dirname "$0")/gpu_env.sh"
for solver in ${EDDY_TANK_SOLVERS:-wcsph dfsph}; do
  for spacing in ${EDDY_TANK_SPACINGS:-0.02 0.01 0.005}; do
    echo "== $solver, spacing $spacing"
    ./.carry/bin/eddy run scenes/validation/tank_at_rest.json --backend cuda --set solver="$solver" \
      --set fluid.spacing="$spacing" --out "/tmp/tank_${solver}_${spacing}" --quiet 2>&1 | tail -n 1
    python3 scripts/tank_probes.py "/tmp/tank_${solver}_${spacing}" "$spacing"
  done
done 2>&1 | tee "$out/tank_resolution.txt"
