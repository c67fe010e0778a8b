#!/usr/bin/env bash
# Alternating A/B benchmark of two carried builds on the GPU machine: .carry/bin/eddy_base and
# .carry/bin/eddy, twice each, for pbf and wcsph (EDDY_AB_SIZES sets the particle counts, EDDY_AB_SCENE a
# bench scene, EDDY_AB_SOLVERS the solvers).
source "$(dirname "$0")/gpu_env.sh"
for rep in 1 2; do
  for bin in eddy_base eddy; do
    for solver in ${EDDY_AB_SOLVERS:-pbf wcsph}; do
      echo "== $bin $solver"
      ./.carry/bin/$bin bench ${EDDY_AB_SCENE:+--scene "$EDDY_AB_SCENE"} --solver $solver --backend cuda --particles "${EDDY_AB_SIZES:-262144,1048576}" 2>&1 |
        grep -E "^ +[0-9]"
    done
  done
done
