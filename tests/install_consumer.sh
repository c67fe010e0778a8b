#!/usr/bin/env bash
# Installs the build in $1 into a temporary prefix and builds the example consumer $2 against it with
# find_package(eddy); runs it on the built-in dam break. Fails when the package, its headers or its
# dependencies do not stand on their own (a header that reaches into src/, a dependency not found again).
# With a Python interpreter as $3, also installs the Python package and steps a scene through it.
set -euo pipefail
build=$1
example=$2
python=${3:-}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cmake --install "$build" --prefix "$work/prefix" --component library >/dev/null
# only the public headers travel
test -f "$work/prefix/include/eddy/simulation.h"
if find "$work/prefix/include" -type f ! -path "*/eddy/*" | grep -q .; then
  echo "install_consumer: files outside include/eddy were installed" >&2
  exit 1
fi
generator=()
command -v ninja >/dev/null && generator=(-G Ninja)
cmake -S "$example" -B "$work/build" "${generator[@]}" -DCMAKE_BUILD_TYPE=Release \
      -DCMAKE_PREFIX_PATH="$work/prefix" >"$work/configure.log" || { cat "$work/configure.log"; exit 1; }
cmake --build "$work/build" >"$work/build.log" || { cat "$work/build.log"; exit 1; }
out=$("$work/build/dam_break_stats" "" 3)
echo "$out"
# three frames of statistics, the last one frame 3 with particles in it
test "$(echo "$out" | grep -c '"frame"')" -eq 3
echo "$out" | tail -1 | grep -q '"frame": *3'
if [ -n "$python" ]; then
  cmake --install "$build" --prefix "$work/prefix" --component python >/dev/null
  site=$(dirname "$(find "$work/prefix" -name __init__.py -path "*/eddy/*" | head -1)")/..
  (cd "$work" && PYTHONPATH="$site" "$python" -c "
import eddy
assert eddy.__file__.startswith('$work/prefix'), eddy.__file__
sim = eddy.Simulation(backend='cpu', set={'fluid.spacing': 0.05})
sim.step(2)
print('installed Python package:', eddy.__file__, sim.stats()['frame'], 'frames')")
fi
