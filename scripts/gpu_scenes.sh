#!/usr/bin/env bash
# Runs every shipped scene on the GPU for a few frames (carried build) and keeps the last stats line.
source "$(dirname "$0")/gpu_env.sh"
for scene in scenes/*.json scenes/validation/*.json; do
  name=$(basename "$scene" .json)
  /usr/bin/time -f "%e s" ./.carry/bin/eddy run "$scene" --backend cuda --frames "${EDDY_FRAMES:-30}" \
    --out "/tmp/scene_$name" --quiet > "$out/scene_$name.log" 2>&1
  echo "$name: rc $? $(tail -n 1 "$out/scene_$name.log") $(tail -n 1 /tmp/scene_$name/stats.jsonl | cut -c1-160)"
done
