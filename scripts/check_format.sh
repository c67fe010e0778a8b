#!/usr/bin/env bash
# Checks that every C++ and CUDA source in the repository is formatted by its .clang-format; with --fix,
# formats them. CI runs the check.
set -euo pipefail
cd "$(dirname "$0")/.."
mapfile -t files < <(git ls-files '*.h' '*.hpp' '*.cpp' '*.cu' '*.cuh')
if [ "${1:-}" = "--fix" ]; then
  clang-format -i "${files[@]}"
  exit 0
fi
if ! clang-format --dry-run --Werror "${files[@]}" 2>/tmp/eddy_format.$$; then
  grep -E '^[^ ].*: (warning|error):' /tmp/eddy_format.$$ | cut -d: -f1 | sort -u | sed 's/^/not formatted: /' >&2
  rm -f /tmp/eddy_format.$$
  echo "run: bash scripts/check_format.sh --fix" >&2
  exit 1
fi
rm -f /tmp/eddy_format.$$
echo "format: ${#files[@]} files formatted by .clang-format"
