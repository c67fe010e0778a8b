#!/usr/bin/env bash
# Nsight Compute over the small real-time scenes of issue 12 (carried build): every kernel of one stretch
# of the default dam break (PBF, 18k particles: a frame is 4 substeps and the statistics) and of the seed's
# MPM benchmark (20k particles, 50^3 grid), each kernel's duration run on its own, its grid, registers and
# achieved occupancy; then the sums, to set beside the wall time per frame or substep that
# `eddy bench --realtime` gives. usage: gpu_small_profile.sh (results in $OUT or gpu-results/)
source "$(dirname "$0")/gpu_env.sh"
m=gpu__time_duration.sum,launch__registers_per_thread,sm__warps_active.avg.pct_of_peak_sustained_active
m=$m,launch__grid_size
profile() {  # name skip count eddy-arguments...
  local name=$1 skip=$2 count=$3
  shift 3
  "$ncu" --clock-control none --cache-control none --kernel-name-base function --launch-skip "$skip" \
    --launch-count "$count" --metrics "$m" --csv ./.carry/bin/eddy "$@" > "$out/ncu_$name.csv" 2> "$out/ncu_$name.err"
  python3 - "$out/ncu_$name.csv" "$name" <<'PY'
import csv, sys, collections
rows = [r for r in csv.reader(open(sys.argv[1])) if len(r) > 10]
if not rows: sys.exit("no kernel was profiled; see the .err file")
head = rows[0]; rows = rows[1:]
ki, mi, vi, ii = head.index("Kernel Name"), head.index("Metric Name"), head.index("Metric Value"), head.index("ID")
k = collections.OrderedDict()
for r in rows:
    k.setdefault(r[ii], {"name": r[ki][:70]})[r[mi]] = r[vi].replace(",", "")
total = 0
print(f"== {sys.argv[2]}: {len(k)} launches")
for d in k.values():
    ns = float(d.get("gpu__time_duration.sum", 0)); total += ns
    print(f'{d["name"]:70s} {ns/1000:7.2f} us  grid {d.get("launch__grid_size","?"):>6s}  regs {d.get("launch__registers_per_thread","?"):>4s}'
          f'  occ {float(d.get("sm__warps_active.avg.pct_of_peak_sustained_active",0)):5.1f} %')
print(f"sum of the kernels run one by one: {total/1000:.1f} us over {len(k)} launches")
PY
}
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
# the dam break: launches 2000.. (frame 20 or so), 200 launches (about two frames)
profile dam_break 2000 200 bench --scene scenes/dam_break.json --realtime --backend cuda
# the seed MPM benchmark: 60 launches (about 6 substeps) well into the run
profile mpm_seed 20000 60 bench --scene scenes/mpm_seed_benchmark.json --realtime --backend cuda
# eddy bench's PBF substep at 16k particles: 40 launches (two substeps) after the warm-up
profile pbf_16k 300 40 bench --solver pbf --backend cuda --particles 16384 --substeps 20 --warmup 20
for s in dam_break mpm_seed_benchmark; do ./.carry/bin/eddy bench --scene scenes/$s.json --realtime --backend cuda; done
