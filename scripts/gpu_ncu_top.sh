#!/usr/bin/env bash
# Nsight Compute over `eddy bench` at 1M particles for each solver (GPU machine, carried build): every
# kernel's duration, achieved DRAM bandwidth as a share of the peak, achieved occupancy and registers, as
# CSV in $OUT/ncu_<solver>.csv. The clocks are left as the card has them (--clock-control none).
# scripts/ncu_top.py turns the files into the table of each solver's heaviest kernels.
source "$(dirname "$0")/gpu_env.sh"
metrics=gpu__time_duration.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed
metrics=$metrics,sm__warps_active.avg.pct_of_peak_sustained_active,launch__registers_per_thread
for solver in ${EDDY_SOLVERS:-pbf wcsph mpm}; do
  "$ncu" --clock-control none --kernel-name-base demangled --csv --page raw --metrics "$metrics" \
    ./.carry/bin/eddy bench --solver "$solver" --backend cuda --particles "${EDDY_NCU_PARTICLES:-1048576}" \
    --substeps 2 --warmup 1 >"$out/ncu_$solver.csv" 2>"$out/ncu_$solver.log"
  echo "$solver: $(grep -c forEach "$out/ncu_$solver.csv") kernel launches profiled"
done
