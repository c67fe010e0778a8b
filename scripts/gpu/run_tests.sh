#!/usr/bin/env bash
# The GPU tests (CPU/CUDA agreement of every solver, checkpoints, the mesh field past 2^31 nodes, rendering,
# surfaces) on the GPU machine over a build packed by scripts/gpu/carry.sh: eddy_gpu_tests, its whole output in
# $OUT/gpu_tests.txt (bench/results/<machine>/gpu_tests.txt), the summary printed.
# usage: bash scripts/gpu/run_tests.sh [GTEST_FILTER]      (default: every test)
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"
./.carry/bin/eddy_gpu_tests --gtest_filter="${1:-*}" >"$out/gpu_tests.txt" 2>&1
rc=$?
grep -E "^\[  (PASSED|FAILED)|tests ran" "$out/gpu_tests.txt"
exit $rc
