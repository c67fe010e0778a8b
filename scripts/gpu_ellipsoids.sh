#!/usr/bin/env bash
# Runs on the GPU machine over a carried build (scripts/gpu_carry.sh): what the Yu-Turk ellipsoids of the
# screen-space fluid cost and look like for kernel radii (surface.radius, in spacings; the neighbourhood is
# twice it) of EDDY_RADII: `eddy bench --render --render-mode ssfr` at 1M and 4M particles, 1920x1080, and
# the dam break at 1M after 0.67 s drawn with each. Results land in $OUT.
source "$(dirname "$0")/gpu_env.sh"
export EDDY_SOURCE_DIR="$PWD"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$out/gpu.txt"
./.carry/bin/eddy run --backend cuda --frames 40 --set fluid.spacing=0.005157 --set time.adaptive=true \
  --set output.every=40 --quiet --out /tmp/dam
for radius in ${EDDY_RADII:-2 1.5 1.25}; do
  ./.carry/bin/eddy bench --render --render-mode ssfr --backend cuda --particles "${EDDY_RENDER_SIZES:-1048576,4194304}" \
    --settle-frames 60 --render-size 1920x1080 --set surface.radius="$radius" 2>&1 | tee "$out/ssfr_radius_$radius.log"
  ./.carry/bin/eddy render /tmp/dam --mode ssfr --size 1280x720 --set surface.radius="$radius" --quiet \
    --out /tmp/pictures_$radius && cp /tmp/pictures_$radius/frame_000040.png "$out/dam_ssfr_radius_$radius.png"
done
./.carry/bin/eddy render /tmp/dam --mode ssfr --size 1280x720 --set render.ellipsoids=false --quiet \
  --out /tmp/pictures_spheres && cp /tmp/pictures_spheres/frame_000040.png "$out/dam_ssfr_spheres.png"
