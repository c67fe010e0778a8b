#!/usr/bin/env bash
# The contact sheet of docs/: every shipped scene simulated to a moment of its action and drawn by
# `eddy render` (water as screen-space fluid, sand, snow and jelly as their own coloured grains, the floor
# and colliders behind), then the pictures tiled with their names.
#   bash scripts/contact_sheet.sh run DIR      simulate and draw into DIR (a GPU makes it take a minute)
#   bash scripts/contact_sheet.sh tile DIR OUT.png
set -euo pipefail
cd "$(dirname "$0")/.."
eddy=${EDDY:-build/bin/eddy}
# scene, and the frame drawn (60 frames per second)
shots=(dam_break:40 double_dam_break:50 sphere_obstacle:60 keyframed_paddle:60 jet_tank:120 bunny_tank:90
       dragon_pour:50 dragon_flow:60 half_box_surge:60 mpm_dam_break:40 mpm_elastic_ball_water:45
       knot_pour:60 blob_bunny_tank:90 mpm_sand_column:60 mpm_snowball_wall:40 mpm_nozzle_benchmark:60)
case "${1:-}" in
  run)
    dir=$2
    mkdir -p "$dir"
    for shot in "${shots[@]}"; do
      scene=${shot%%:*} frame=${shot##*:}
      "$eddy" run "scenes/$scene.json" --frames "$frame" --set output.every="$frame" --quiet \
        --out "$dir/$scene" || { echo "contact sheet: $scene did not run" >&2; continue; }
      "$eddy" render "$dir/$scene" --mode ssfr --size 640x360 --quiet --out "$dir/$scene/render"
      cp "$dir/$scene/render/frame_$(printf %06d "$frame").png" "$dir/$scene.png"
    done
    ;;
  tile)
    dir=$2 out=$3
    inputs=() labels=() n=0
    for shot in "${shots[@]}"; do
      scene=${shot%%:*}
      [ -f "$dir/$scene.png" ] || continue
      inputs+=(-i "$dir/$scene.png")
      labels+=("[$n:v]scale=480:270,drawtext=text='$scene':x=8:y=8:fontsize=18:fontcolor=black[v$n]")
      n=$((n + 1))
    done
    columns=3
    layout=() stack=""
    for ((k = 0; k < n; ++k)); do
      layout+=("$((k % columns * 480))_$((k / columns * 270))")
      stack+="[v$k]"
    done
    filter="$(IFS=';'; echo "${labels[*]}");${stack}xstack=inputs=$n:layout=$(IFS='|'; echo "${layout[*]}"):fill=white"
    ffmpeg -loglevel error -y "${inputs[@]}" -filter_complex "$filter" -frames:v 1 "$out"
    ;;
  *)
    echo "usage: bash scripts/contact_sheet.sh run DIR | tile DIR OUT.png" >&2
    exit 2
    ;;
esac
