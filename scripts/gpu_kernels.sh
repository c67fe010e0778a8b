#!/usr/bin/env bash
# Nsight Compute over a few substeps of the carried build: every kernel's duration (run on its own), waves
# per SM, registers and achieved occupancy. usage: gpu_kernels.sh [SOLVER] [PARTICLES] [SKIP] [COUNT]
# (SKIP launches are passed over first: a PBF substep has about 20, a WCSPH substep about 10)
source "$(dirname "$0")/gpu_env.sh"
m=gpu__time_duration.sum,launch__waves_per_multiprocessor,launch__registers_per_thread
m=$m,sm__warps_active.avg.pct_of_peak_sustained_active,launch__grid_size,launch__block_size
"$ncu" --clock-control none --cache-control none --kernel-name-base function --launch-skip "${3:-300}" \
  --launch-count "${4:-40}" --metrics "$m" --csv \
  ./.carry/bin/eddy bench --solver "${1:-pbf}" --backend cuda --particles "${2:-1048576}" --substeps 20 \
  --warmup 20 > "$out/ncu_kernels.csv" 2> "$out/ncu_kernels.err"
python3 - "$out/ncu_kernels.csv" <<'PY'
import csv, sys, collections
rows = [r for r in csv.reader(open(sys.argv[1])) if len(r) > 10]
if not rows:
    sys.exit("no kernel was profiled (fewer launches than SKIP?); see ncu_kernels.err")
head = rows[0]; rows = rows[1:]
ki, mi, vi = head.index("Kernel Name"), head.index("Metric Name"), head.index("Metric Value")
ii = head.index("ID")
k = collections.OrderedDict()
for r in rows:
    k.setdefault(r[ii], {"name": r[ki][:60]})[r[mi]] = r[vi]
for d in k.values():
    print(f'{d["name"]:60s} {d.get("gpu__time_duration.sum","?"):>9s} ns  waves {d.get("launch__waves_per_multiprocessor","?"):>6s}'
          f'  regs {d.get("launch__registers_per_thread","?"):>4s}  occ {d.get("sm__warps_active.avg.pct_of_peak_sustained_active","?"):>6s}'
          f'  grid {d.get("launch__grid_size","?")}')
PY
