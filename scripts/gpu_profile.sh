#!/usr/bin/env bash
# Nsight Compute summary of the PBF neighbour kernels at 1M particles (GPU machine, carried build).
set -uo pipefail
cd "$(dirname "$0")/.."
out=${OUT:-gpu-results}
mkdir -p "$out"
export LD_LIBRARY_PATH="$PWD/.carry/lib:${LD_LIBRARY_PATH:-}"
ncu=$(command -v ncu || ls /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | head -1)
"$ncu" --kernel-name regex:forEachKernel --launch-skip 40 --launch-count 14 \
  --section SpeedOfLight --section Occupancy --section WarpStateStats --section MemoryWorkloadAnalysis \
  ./.carry/bin/eddy bench --solver pbf --backend cuda --particles 1048576 --substeps 2 --warmup 1 \
  > "$out/ncu.txt" 2>&1
grep -E "forEachKernel|Duration|Compute \(SM\) Throughput|Memory Throughput|L1/TEX Hit|L2 Hit|Achieved Occupancy|Registers Per|Stall Long|Stall Short|Warp Cycles Per Issued|DRAM Throughput" "$out/ncu.txt" | sed 's/(eddy::cuda::[^)]*)//' | cut -c1-150 | head -150
