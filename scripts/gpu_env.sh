# Sourced by the gpu_*.sh scripts (GPU machine, carried build in .carry/): the repository root as working
# directory, the results folder $out, the carried libraries, and ncu where Nsight Compute is installed.
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
out=${OUT:-gpu-results}
mkdir -p "$out"
export LD_LIBRARY_PATH="$PWD/.carry/lib:${LD_LIBRARY_PATH:-}"
ncu=$(command -v ncu || ls /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | head -1)
