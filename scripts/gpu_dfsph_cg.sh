#!/usr/bin/env bash
# GPU machine, carried build (scripts/gpu_carry.sh) and, where carried, a baseline build in
# .carry/base.tar.xz (eddy as eddy_base): DFSPH's constant-density solve as conjugate gradients against the
# papers' Jacobi iterations. EDDY_CG_PARTS picks parts:
#   tests     the GPU tests
#   rest      the tank at rest at 0.01 and 0.005 m (scripts/tank_probes.py, and each probe's spread from frame
#             to frame by scripts/column_probes.py) and the deep column, each build
#   bench     `eddy bench --solver dfsph` at 256k, 1M and 4M, the builds alternated twice
#   realtime  GPU time per simulated second of the 1M dam break, each build (and WCSPH's, the carried
#             build), and of the default 18,000-particle dam break with DFSPH
#   buchner   the Buchner wall pressure with DFSPH at H/40 and H/80 ($out/<build>_buchner_<spacing>.csv)
source "$(dirname "$0")/gpu_env.sh"
export EDDY_SOURCE_DIR="$PWD"
parts=${EDDY_CG_PARTS:-tests rest bench}
builds="eddy"
if [ -f .carry/base.tar.xz ]; then
  tar xJf .carry/base.tar.xz -C .carry/bin && builds="eddy_base eddy"
fi
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv | tee "$out/gpu.txt"
if [[ $parts == *tests* ]]; then
  ./.carry/bin/eddy_gpu_tests 2>&1 | tee "$out/gpu_tests.log" | grep -E "^\[  (PASSED|FAILED)|FAILED|tests ran" |
    tail -n 40
fi
if [[ $parts == *rest* ]]; then
  for b in $builds; do
    for s in 0.01 0.005; do
      echo "== $b tank $s"
      ./.carry/bin/$b run scenes/validation/tank_at_rest.json --backend cuda --set solver=dfsph \
        --set fluid.spacing="$s" --out "/tmp/${b}_tank_$s" --quiet 2>&1 | tail -n 1
      python3 scripts/tank_probes.py "/tmp/${b}_tank_$s" "$s"
      python3 scripts/column_probes.py "/tmp/${b}_tank_$s" 2.0 0.24
      tail -n 1 "/tmp/${b}_tank_$s/stats.jsonl" | cut -c 1-200
      grep -o '"step_ms_per_substep[^,]*\|"substeps"[^,]*' "/tmp/${b}_tank_$s/profile.json" | tr '\n' ' '
      echo
    done
    echo "== $b deep column"
    ./.carry/bin/$b run scenes/validation/deep_column.json --backend cuda --out "/tmp/${b}_column" --quiet 2>&1 |
      tail -n 1
    python3 scripts/column_probes.py "/tmp/${b}_column" 2.0
  done 2>&1 | tee "$out/rest.txt"
fi
if [[ $parts == *bench* ]]; then
  for rep in 1 2; do
    for b in $builds; do
      echo "== $b dfsph"
      ./.carry/bin/$b bench --solver dfsph --backend cuda --particles "${EDDY_CG_SIZES:-262144,1048576,4194304}" \
        2>&1 | grep -E "^ +[0-9]|MiB"
    done
  done 2>&1 | tee "$out/bench_ab.txt"
fi
if [[ $parts == *realtime* ]]; then
  # the dam break's 0.144 m^3 column at 1,048,576 particles: spacing 0.00524 m
  for b in $builds; do
    echo "== $b realtime"
    ./.carry/bin/$b bench --realtime --backend cuda --set solver=dfsph --set fluid.spacing=0.00524 \
      --set time.frames=30 2>&1 | tail -n 6
    echo "== $b realtime, the default dam break"
    ./.carry/bin/$b bench --realtime --backend cuda --set solver=dfsph 2>&1 | tail -n 6
  done 2>&1 | tee "$out/realtime.txt"
  echo "== eddy realtime wcsph" | tee -a "$out/realtime.txt"
  ./.carry/bin/eddy bench --realtime --backend cuda --set solver=wcsph --set fluid.spacing=0.00524 \
    --set time.frames=30 2>&1 | tail -n 6 | tee -a "$out/realtime.txt"
fi
if [[ $parts == *buchner* ]]; then
  for b in $builds; do
    for sp in 0.015 0.0075; do
      echo "== $b buchner $sp"
      ./.carry/bin/$b run scenes/validation/buchner_wall_pressure.json --backend cuda --quiet --set solver=dfsph \
        --set fluid.spacing=$sp --out "/tmp/${b}_buchner_$sp" 2>&1 | tail -n 2
      cp "/tmp/${b}_buchner_$sp/probes.csv" "$out/${b}_buchner_$sp.csv"
    done
  done 2>&1 | tee "$out/buchner.txt"
fi
