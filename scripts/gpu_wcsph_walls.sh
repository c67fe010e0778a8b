#!/usr/bin/env bash
# GPU machine, carried build (scripts/gpu_carry.sh) and, where carried, a baseline build in
# .carry/base.tar.xz (eddy as eddy_base): WCSPH's walls with and without the mirror's pressure varying along
# them. The GPU tests, the Buchner scene at H/40 and H/80 (probes.csv as $OUT/<build>_buchner_<spacing>.csv),
# the tank at rest at 0.01 and 0.005 m (scripts/tank_probes.py), and WCSPH's benchmark alternated twice.
source "$(dirname "$0")/gpu_env.sh"
export EDDY_SOURCE_DIR="$PWD"
builds="eddy"
if [ -f .carry/base.tar.xz ]; then
  tar xJf .carry/base.tar.xz -C .carry/bin && builds="eddy_base eddy"
fi
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv | tee "$out/gpu.txt"
./.carry/bin/eddy_gpu_tests 2>&1 | tee "$out/gpu_tests.log" | grep -E "^\[  (PASSED|FAILED)|FAILED|tests ran" | tail -n 40
for b in $builds; do
  for s in 0.015 0.0075; do
    echo "== $b buchner $s"
    ./.carry/bin/$b run scenes/validation/buchner_wall_pressure.json --backend cuda --quiet \
      --set fluid.spacing="$s" --out "/tmp/${b}_buchner_$s" 2>&1 | tail -n 1
    cp "/tmp/${b}_buchner_$s/probes.csv" "$out/${b}_buchner_$s.csv"
  done
  for s in 0.01 0.005; do
    echo "== $b tank $s"
    ./.carry/bin/$b run scenes/validation/tank_at_rest.json --backend cuda --set fluid.spacing="$s" \
      --out "/tmp/${b}_tank_$s" --quiet 2>&1 | tail -n 1
    python3 scripts/tank_probes.py "/tmp/${b}_tank_$s" "$s"
  done
done 2>&1 | tee "$out/runs.txt"
for rep in 1 2; do
  for b in $builds; do
    echo "== $b wcsph"
    ./.carry/bin/$b bench --solver wcsph --backend cuda --particles "${EDDY_AB_SIZES:-16384,65536,262144,1048576,4194304}" 2>&1 |
      grep -E "^ +[0-9]|MiB"
  done
done 2>&1 | tee "$out/bench_ab.txt"
