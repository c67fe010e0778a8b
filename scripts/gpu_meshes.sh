#!/usr/bin/env bash
# Mesh colliders on the GPU machine over a carried build (.carry/: bin/, lib/, and meshes/ with the shared
# meshes, which do not travel on their own). Parts, chosen by EDDY_MESH_PARTS (default: all of them):
#   sdf     the dragon's distance-field build times
#   tests   the mesh agreement tests and a field past 2^31 nodes (EDDY_GPU_FILTER)
#   dragon  the paper's dragon experiment at its six sizes, PBF and WCSPH
#   box     a mesh collider against the analytic box at 1M particles (bench/scenes/dam_break_box*.json)
# Results land in $OUT.
source "$(dirname "$0")/gpu_env.sh"
export EDDY_SOURCE_DIR="$PWD"
if [ ! -e ../shared/data/meshes ]; then
  mkdir -p ../shared/data && ln -sfn "$PWD/.carry/meshes" ../shared/data/meshes
fi
parts=" ${EDDY_MESH_PARTS:-sdf tests dragon box} "
dragon=../shared/data/meshes/stanford-dragon-100k.obj
if [[ $parts == *" sdf "* ]]; then
  {
    ./.carry/bin/eddy mesh-info "$dragon" --sdf-resolution 128,256,512
    # the band a scene asks for (1.5 h) at the pour's 32k spacing, in the mesh's units (scale 0.035)
    echo "band 0.617 (1.5 h at 32k particles):"
    ./.carry/bin/eddy mesh-info "$dragon" --sdf-resolution 256 --sdf-band 0.617 | grep sdf
  } 2>&1 | tee "$out/sdf_build.txt"
fi
if [[ $parts == *" tests "* ]]; then
  ./.carry/bin/eddy_gpu_tests --gtest_filter="${EDDY_GPU_FILTER:-GpuAgreement.Dragon*:GpuAgreement.Bunny*:GpuMeshField.*}" 2>&1 |
    tee "$out/gpu_tests_meshes.log" | grep -E "^\[|relative" | tail -n 20
fi
if [[ $parts == *" dragon "* ]]; then
  for solver in pbf wcsph; do
    ./.carry/bin/eddy bench --scene scenes/seed_dragon_pour.json --solver $solver --backend cuda \
      --particles 10000,16000,24000,32000,48000,64000 --json "$out/dragon_pour_$solver.json" 2>&1 | tail -n 8
  done
fi
if [[ $parts == *" box "* ]]; then
  # alternated twice, so a drift of the clocks shows as a difference between the rounds
  for round in 1 2; do
    for scene in dam_break_box dam_break_box_mesh; do
      ./.carry/bin/eddy bench --scene bench/scenes/$scene.json --solver pbf --backend cuda --particles 1048576 \
        --json "$out/${scene}_pbf_1m_$round.json" 2>&1 | tail -n 1
    done
  done
fi
