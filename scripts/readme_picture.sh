#!/usr/bin/env bash
# The README's opening picture: the default dam break at a million particles, resolved in time
# (time.adaptive), 0.75 s after the column is released (frame 45), drawn by `eddy render` as screen-space
# fluid at 1280x720 into docs/images/dam_break_ssfr.png (or $1). Minutes on a GPU; hours on a CPU.
set -euo pipefail
cd "$(dirname "$0")/.."
eddy=${EDDY:-build/bin/eddy}
out=${1:-docs/images/dam_break_ssfr.png}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$eddy" run --frames 45 --set fluid.spacing=0.005157 --set time.adaptive=true --set output.every=45 --quiet \
  --out "$work/run"
"$eddy" render "$work/run" --mode ssfr --size 1280x720 --quiet --out "$work/pictures"
cp "$work/pictures/frame_000045.png" "$out"
echo "readme picture: $out"
