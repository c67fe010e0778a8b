set -uo pipefail
export LD_LIBRARY_PATH="$PWD/.carry/lib:${LD_LIBRARY_PATH:-}"
ncu=$(command -v ncu || ls /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | head -1)
for solver in pbf wcsph; do
"$ncu" --clock-control none --kernel-name-base function --launch-skip 300 --launch-count 70 --section SpeedOfLight \
  ./.carry/bin/eddy bench --solver $solver --backend cuda --particles 1048576 --substeps 20 --warmup 20 > $OUT/ncu_$solver.txt 2>&1
grep -E "^  [a-zA-Z_].*\(|Duration" $OUT/ncu_$solver.txt | paste - - | awk '{n=$1; for(i=1;i<=NF;i++) if($i=="Duration") d=$(i+2)" "$(i+1); print substr(n,1,60), d}' > $OUT/k_$solver.txt
head -80 $OUT/k_$solver.txt
done
