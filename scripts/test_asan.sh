#!/usr/bin/env bash
# CI's sanitizer pass: builds the asan preset (AddressSanitizer + UndefinedBehaviorSanitizer, CPU only) into
# build-asan/ and runs the tests labelled "cpu_fast" under it: scene input, the fuzz corpus, the CLI,
# output, mesh files, colliders, kernels, emitters and the neighbour search. `ctest --preset asan` runs
# every CPU test.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
cmake --preset asan >/dev/null
cmake --build --preset asan -j "$(nproc)"
ctest --preset asan-fast "$@"
