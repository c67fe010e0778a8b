set -uo pipefail
export LD_LIBRARY_PATH="$PWD/.carry/lib:${LD_LIBRARY_PATH:-}"
./.carry/bin/eddy_gpu_tests 2>&1 | grep -E "largest|OK|FAILED" | head -30
for rep in 1 2; do for bin in eddy_base eddy; do for s in pbf wcsph; do echo "== $bin $s"; ./.carry/bin/$bin bench --solver $s --backend cuda --particles ${SIZES:-65536,262144,1048576} 2>&1 | grep -E "^ +[0-9]"; done; done; done
