#!/usr/bin/env bash
# The Buchner (2002) wall-pressure validation on the GPU machine over a carried build (.carry/bin/eddy):
# scenes/validation/buchner_wall_pressure.json at H/40 and H/80 (EDDY_BUCHNER_SPACINGS; EDDY_BUCHNER_SETS
# adds --set overrides), each run's probes.csv copied to $OUT as buchner_<spacing>.csv. Compare them here
# with `python3 scripts/buchner_compare.py DIR` (DIR holding the file as probes.csv).
source "$(dirname "$0")/gpu_env.sh"
for s in ${EDDY_BUCHNER_SPACINGS:-0.015 0.0075}; do
  # shellcheck disable=SC2086
  ./.carry/bin/eddy run scenes/validation/buchner_wall_pressure.json --backend cuda --quiet \
    --set fluid.spacing="$s" ${EDDY_BUCHNER_SETS:-} --out "/tmp/buchner_$s" 2>&1 | tail -n 2
  cp "/tmp/buchner_$s/probes.csv" "$out/buchner_$s.csv"
done
