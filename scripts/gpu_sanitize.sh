#!/usr/bin/env bash
# compute-sanitizer over the GPU tests of the carried build (GPU machine): memcheck over every test, then
# racecheck and synccheck (EDDY_SANITIZE_FILTER narrows the tests). Logs land in $OUT.
source "$(dirname "$0")/gpu_env.sh"
export EDDY_SOURCE_DIR="$PWD"
cs=$(command -v compute-sanitizer || ls /usr/local/cuda*/bin/compute-sanitizer 2>/dev/null | head -1)
filter=${EDDY_SANITIZE_FILTER:-*}
for tool in ${EDDY_SANITIZE_TOOLS:-memcheck racecheck synccheck}; do
  "$cs" --tool "$tool" --error-exitcode 99 ./.carry/bin/eddy_gpu_tests --gtest_filter="$filter" \
    > "$out/sanitize_$tool.log" 2>&1
  echo "$tool: exit $? $(grep -E "ERROR SUMMARY|RACECHECK SUMMARY" "$out/sanitize_$tool.log" | tail -n 1)" \
    "$(grep -E "^\[  (PASSED|FAILED)" "$out/sanitize_$tool.log" | tr '\n' ' ')"
done
