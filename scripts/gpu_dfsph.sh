#!/usr/bin/env bash
# DFSPH on the GPU machine over a carried build (.carry/bin): ms per substep and pressure iterations of
# `eddy bench` for DFSPH, WCSPH and PBF at 256k, 1M and 4M particles, then the GPU time per simulated
# second of the dam break at 1M particles (`eddy bench --realtime`, each solver's own substeps: WCSPH's
# acoustic CFL, DFSPH's on velocity, PBF's adaptive ones), then the Buchner wall pressure with DFSPH at
# H/40 and H/80 (probes.csv of each as $out/buchner_dfsph_<spacing>.csv). EDDY_DFSPH_PARTS picks parts
# (bench realtime buchner).
source "$(dirname "$0")/gpu_env.sh"
eddy=./.carry/bin/eddy
parts=${EDDY_DFSPH_PARTS:-bench realtime buchner}
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader | tee "$out/gpu.txt"
if [[ $parts == *bench* ]]; then
  for s in dfsph wcsph pbf; do
    $eddy bench --solver $s --backend cuda --particles 262144,1048576,4194304 --json "$out/bench_$s.json" \
      2>&1 | tee "$out/bench_$s.txt"
  done
fi
if [[ $parts == *realtime* ]]; then
  # the dam break's 0.144 m^3 column at 1,048,576 particles: spacing 0.00524 m
  for s in dfsph wcsph pbf; do
    extra=""
    [ $s = pbf ] && extra="--set time.adaptive=true"
    # shellcheck disable=SC2086
    $eddy bench --realtime --backend cuda --set solver=$s --set fluid.spacing=0.00524 --set time.frames=30 \
      $extra 2>&1 | tee "$out/realtime_$s.txt"
  done
fi
if [[ $parts == *buchner* ]]; then
  for sp in 0.015 0.0075; do
    $eddy run scenes/validation/buchner_wall_pressure.json --backend cuda --quiet --set solver=dfsph \
      --set fluid.spacing=$sp --out "/tmp/buchner_dfsph_$sp" 2>&1 | tail -n 2
    cp "/tmp/buchner_dfsph_$sp/probes.csv" "$out/buchner_dfsph_$sp.csv"
  done
fi
