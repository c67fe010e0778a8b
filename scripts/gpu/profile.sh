#!/usr/bin/env bash
# Profiles and checkers on the GPU machine over a build packed by scripts/gpu/carry.sh (Nsight Compute with the
# clocks as the card has them, --clock-control none).
# usage: bash scripts/gpu/profile.sh WHAT [ARGS]      results in $OUT (or ./gpu-results)
#   top [PARTICLES]        every kernel of `eddy bench` (2 substeps after 1 warm-up) of pbf, wcsph and mpm
#                          (EDDY_SOLVERS) at 1M particles: duration, DRAM bandwidth as a share of the peak,
#                          achieved occupancy, registers, as ncu_<solver>.csv; scripts/ncu_top.py DIR turns them
#                          into the table of each solver's heaviest kernels
#   small                  every kernel of a stretch of the default dam break (2 frames), the MPM nozzle benchmark
#                          (6 substeps) and `eddy bench` PBF at 16k (2 substeps), each run on its own, with the
#                          sums to set beside the wall time `eddy bench --realtime` gives
#   kernels REGEX [SKIP] [COUNT]  Nsight Compute's speed-of-light, occupancy, launch and memory sections of the
#                          kernels matching REGEX in `eddy bench --solver $EDDY_SOLVER` (pbf) at 1M particles
#   sanitize [FILTER]      compute-sanitizer's memcheck, racecheck and synccheck (EDDY_SANITIZE_TOOLS) over the
#                          GPU tests (gtest FILTER, default all), a log per tool
[ $# -gt 0 ] || { sed -n '2,15p' "${BASH_SOURCE[0]}"; exit 2; }
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"

# one CSV row per kernel and metric -> one line per launch, and their sum
summarise() {  # csv-file title
  python3 - "$1" "$2" <<'PY'
import csv, sys, collections
rows = [r for r in csv.reader(open(sys.argv[1])) if len(r) > 10]
if not rows:
    sys.exit("no kernel was profiled; see the .err file beside " + sys.argv[1])
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

case $1 in
  top)
    m=gpu__time_duration.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed
    m=$m,sm__warps_active.avg.pct_of_peak_sustained_active,launch__registers_per_thread
    for s in ${EDDY_SOLVERS:-pbf wcsph mpm}; do
      "$ncu" --clock-control none --kernel-name-base demangled --csv --page raw --metrics "$m" \
        $eddy bench --solver "$s" --backend cuda --particles "${2:-1048576}" --substeps 2 --warmup 1 \
        >"$out/ncu_$s.csv" 2>"$out/ncu_$s.err"
      echo "$s: $(grep -c forEach "$out/ncu_$s.csv") kernel launches profiled"
    done
    ;;
  small)
    m=gpu__time_duration.sum,launch__registers_per_thread,sm__warps_active.avg.pct_of_peak_sustained_active
    m=$m,launch__grid_size
    profile() {  # name skip count eddy-arguments...
      local name=$1 skip=$2 count=$3
      shift 3
      "$ncu" --clock-control none --cache-control none --kernel-name-base function --launch-skip "$skip" \
        --launch-count "$count" --metrics "$m" --csv $eddy "$@" >"$out/ncu_$name.csv" 2>"$out/ncu_$name.err"
      summarise "$out/ncu_$name.csv" "$name"
    }
    {
      # the dam break: launches 2000.. (frame 20 or so), 200 launches (about two frames)
      profile dam_break 2000 200 bench --scene scenes/dam_break.json --realtime --backend cuda
      # the MPM nozzle benchmark: 60 launches (about 6 substeps) well into the run
      profile mpm_nozzle 20000 60 bench --scene scenes/mpm_nozzle_benchmark.json --realtime --backend cuda
      # eddy bench's PBF substep at 16k particles: 40 launches (two substeps) after the warm-up
      profile pbf_16k 300 40 bench --solver pbf --backend cuda --particles 16384 --substeps 20 --warmup 20
    } | tee "$out/small.txt"
    ;;
  kernels)
    "$ncu" --clock-control none --kernel-name-base demangled --kernel-name "regex:${2:?REGEX}" --launch-skip "${3:-0}" \
      --launch-count "${4:-10}" --section SpeedOfLight --section Occupancy --section LaunchStats \
      --section MemoryWorkloadAnalysis $eddy bench --solver "${EDDY_SOLVER:-pbf}" --backend cuda \
      --particles 1048576 --substeps 3 --warmup 8 >"$out/ncu.txt" 2>&1
    grep -E "^  [a-zA-Z_].*\(|Duration|Achieved Occupancy|Registers Per" "$out/ncu.txt" | cut -c1-140
    ;;
  sanitize)
    cs=$(command -v compute-sanitizer || ls /usr/local/cuda*/bin/compute-sanitizer 2>/dev/null | head -1)
    for tool in ${EDDY_SANITIZE_TOOLS:-memcheck racecheck synccheck}; do
      "$cs" --tool "$tool" --error-exitcode 99 ./.carry/bin/eddy_gpu_tests --gtest_filter="${2:-*}" \
        >"$out/sanitize_$tool.txt" 2>&1
      echo "$tool: exit $? $(grep -E "ERROR SUMMARY|RACECHECK SUMMARY" "$out/sanitize_$tool.txt" | tail -n 1)" \
        "$(grep -E "^\[  (PASSED|FAILED)" "$out/sanitize_$tool.txt" | tr '\n' ' ')"
    done
    ;;
  *)
    echo "profile.sh: unknown profile '$1' (top small kernels sanitize)" >&2
    exit 2
    ;;
esac
