#!/usr/bin/env bash
# GPU machine, carried build (scripts/gpu_carry.sh): how far the Buchner wall pressure moves between runs that
# differ only in their frame rate (the substeps' lengths), each solver at H/40 and H/80, and the tank at rest
# averaged over three seconds instead of half a second. EDDY_SPREAD_PARTS picks parts: buchner tank;
# EDDY_SPREAD_SOLVERS the solvers (dfsph wcsph).
# Writes $out/buchner_<solver>_<spacing>_fps<F>.csv (probes.csv), $out/spread.md (scripts/buchner_spread.py's
# table of them) and $out/tank.txt.
source "$(dirname "$0")/gpu_env.sh"
parts=${EDDY_SPREAD_PARTS:-buchner tank}
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv | tee "$out/gpu.txt"
if [[ $parts == *buchner* ]]; then
  for solver in ${EDDY_SPREAD_SOLVERS:-dfsph wcsph}; do
    for sp in 0.015 0.0075; do
      for fps in ${EDDY_SPREAD_FPS:-46 48 50 52}; do
        echo "== $solver $sp fps $fps"
        ./.carry/bin/eddy run scenes/validation/buchner_wall_pressure.json --backend cuda --quiet \
          --set solver=$solver --set fluid.spacing=$sp --set time.fps=$fps --out "/tmp/b_${solver}_${sp}_$fps" \
          2>&1 | tail -n 1
        cp "/tmp/b_${solver}_${sp}_$fps/probes.csv" "$out/buchner_${solver}_${sp}_fps$fps.csv"
      done
    done
  done 2>&1 | tee "$out/buchner.txt"
  python3 scripts/buchner_spread.py "$out" --solvers ${EDDY_SPREAD_SOLVERS:-dfsph wcsph} --phases | tee "$out/spread.md"
fi
if [[ $parts == *tank* ]]; then
  for solver in ${EDDY_SPREAD_SOLVERS:-dfsph wcsph}; do
    for s in 0.01 0.005; do
      echo "== $solver tank $s, 5 s, averaged from 2 s"
      ./.carry/bin/eddy run scenes/validation/tank_at_rest.json --backend cuda --set solver=$solver \
        --set fluid.spacing="$s" --set time.frames=300 --out "/tmp/tank_${solver}_$s" --quiet 2>&1 | tail -n 1
      python3 scripts/tank_probes.py "/tmp/tank_${solver}_$s" "$s" 2.0
      python3 scripts/column_probes.py "/tmp/tank_${solver}_$s" 2.0 0.24
      for from in 2.0 3.0 4.0; do
        echo "-- from $from s to $(python3 -c "print($from+1)") s"
        python3 - "/tmp/tank_${solver}_$s" "$from" <<'PY'
import csv, sys
run, a = sys.argv[1], float(sys.argv[2])
rows = [r for r in csv.DictReader(open(f"{run}/probes.csv")) if a <= float(r["time"]) < a + 1]
for name, y in (("y16", 0.16), ("y13", 0.13), ("y10", 0.10), ("y07", 0.07), ("y04", 0.04)):
    p = sum(float(r[f"{name}.pressure"]) for r in rows) / len(rows)
    print(f"{name} {100 * (p / (1000 * 9.81 * (0.24 - y)) - 1):+.2f} %", end="  ")
print()
PY
      done
    done
  done 2>&1 | tee "$out/tank.txt"
fi
