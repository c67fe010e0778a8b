#!/usr/bin/env bash
# Mesh colliders on the GPU machine over a carried build (.carry/: bin/, lib/, and meshes/ with the shared
# meshes, which do not travel on their own): the dragon's distance-field build times, the mesh agreement
# tests and the paper's dragon experiment at its six sizes. Results land in $OUT.
source "$(dirname "$0")/gpu_env.sh"
export EDDY_SOURCE_DIR="$PWD"
if [ ! -e ../shared/data/meshes ]; then
  mkdir -p ../shared/data && ln -sfn "$PWD/.carry/meshes" ../shared/data/meshes
fi
dragon=../shared/data/meshes/stanford-dragon-100k.obj
{
  ./.carry/bin/eddy mesh-info "$dragon" --sdf-resolution 128,256,512
  # the band a scene asks for (1.5 h) at the pour's 32k spacing, in the mesh's units (scale 0.035)
  echo "band 0.617 (1.5 h at 32k particles):"
  ./.carry/bin/eddy mesh-info "$dragon" --sdf-resolution 256 --sdf-band 0.617 | grep sdf
} 2>&1 | tee "$out/sdf_build.txt"
./.carry/bin/eddy_gpu_tests --gtest_filter="${EDDY_GPU_FILTER:-GpuAgreement.Dragon*}" 2>&1 |
  tee "$out/gpu_tests_meshes.log" | grep -E "^\[|relative" | tail -n 12
for solver in pbf wcsph; do
  ./.carry/bin/eddy bench --scene scenes/seed_dragon_pour.json --set solver=$solver --backend cuda \
    --particles 10000,16000,24000,32000,48000,64000 --json "$out/dragon_pour_$solver.json" 2>&1 |
    tee "$out/dragon_pour_$solver.log"
done
