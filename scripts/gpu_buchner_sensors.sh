#!/usr/bin/env bash
# GPU machine, carried build (scripts/gpu_carry.sh): the Buchner (2002) wall-pressure scene at H/40 and H/80
# with WCSPH and DFSPH, its wall probes wall04 .. wall13 moved to read P1 as the published set-ups do
# (docs/validation.md, "How the published curves read P1"):
#   wall04  a point at P1's height, 0.16 m, half a spacing inside the wall (TrixiParticles samples there);
#   wall07  the 0.09 m face from 0.07 to 0.16 m, half a spacing inside the wall (Marrone et al.'s sensor, as
#           TrixiParticles' set-up of their case gives it);
#   wall10  the 9 mm face of Buchner's transducer centred 0.1555 m, half a spacing inside the wall;
#   wall13  a point at 0.2 H = 0.12 m on the wall (PySPH's and SPHinXsys' probe of this case).
# Each run's probes.csv lands in $OUT as buchner_<solver>_<spacing>.csv; compare them here with
# `python3 scripts/buchner_compare.py DIR --errors P1,P1face,wall04,wall07,wall10,wall13 [--every 0.02]`.
source "$(dirname "$0")/gpu_env.sh"
for solver in ${EDDY_BUCHNER_SOLVERS:-wcsph dfsph}; do
  for s in ${EDDY_BUCHNER_SPACINGS:-0.015 0.0075}; do
    x=$(python3 -c "print(3.22 - $s / 2)")
    ./.carry/bin/eddy run scenes/validation/buchner_wall_pressure.json --backend cuda --quiet \
      --set solver="$solver" --set fluid.spacing="$s" \
      --set "probes.4.position=[$x,0.16,0.03]" \
      --set "probes.5.position=[$x,0.115,0.03]" --set "probes.5.face=[0,0.09,0]" \
      --set "probes.6.position=[$x,0.1555,0.03]" --set "probes.6.face=[0,0.009,0]" \
      --set "probes.7.position=[3.22,0.12,0.03]" \
      --out "/tmp/buchner_${solver}_$s" 2>&1 | tail -n 2
    cp "/tmp/buchner_${solver}_$s/probes.csv" "$out/buchner_${solver}_$s.csv"
  done
done
