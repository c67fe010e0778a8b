set -uo pipefail
export LD_LIBRARY_PATH="$PWD/.carry/lib:${LD_LIBRARY_PATH:-}"
for rep in 1 2; do for v in none unroll; do for s in pbf wcsph; do echo "== $v $s"; ./.carry/bin/eddy_$v bench --solver $s --backend cuda --particles ${SIZES:-262144,1048576,4194304} 2>&1 | grep -E "^ +[0-9]"; done; done; done
