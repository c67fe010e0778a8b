#!/usr/bin/env bash
# The benchmarks behind bench/results/<machine>/, on the GPU machine over a build packed by scripts/gpu/carry.sh.
# usage: bash scripts/gpu/bench.sh WHAT [WHAT ...]      results in $OUT (or ./gpu-results)
#   pbf wcsph dfsph mpm  `eddy bench --solver S` at 16k-4M particles (EDDY_SIZES overrides; dfsph 256k-4M) into
#              S.txt and S.json; dfsph adds `eddy bench --realtime` of the dam break at 1M particles (DFSPH and
#              WCSPH) and of the default dam break with DFSPH. Where a baseline build was carried
#              (scripts/gpu/carry.sh BASE_BIN_DIR) the two builds alternate twice instead, into S_ab.txt.
#   realtime   `eddy bench --realtime`: the default dam break, scenes/mpm_nozzle_benchmark.json and the dam break
#              with WCSPH at 1M particles
#   largest    the dam break at 100M particles, each solver on its own (EDDY_LARGEST_SIZES; extra arguments for
#              one solver in EDDY_LARGEST_PBF, _WCSPH, _MPM; PBF needs --set time.substeps=40 there)
#   render     `eddy bench --render` in each mode at 1M and 4M particles, 1920x1080, and the dragon pour drawn
#              every frame (`eddy bench --realtime --render`)
#   view       `eddy view --offscreen` in each mode, the dam break at 1M particles (or EDDY_VIEW_SCENE)
#   surface    `eddy bench --surface` at 1M, 4M and 13.35M particles (settled; and the column before the fall)
#              and what `eddy run --surface` costs at 1M (13.35M takes 7 minutes: EDDY_SURFACE_SIZES)
#   sdf        the dragon's distance field at 256, 512, 1024 nodes, with the pour's band and as a shell
#   dragon     the dragon pour at the paper's six sizes, PBF and WCSPH
#   box        a 12-triangle mesh box against the analytic box in the 1M dam break, PBF, alternated twice
#   bodies     ten rigid bodies in the 1M WCSPH dam break (scenes/debris_dam_break.json) against none, twice
#   scenes     every shipped scene for EDDY_FRAMES (30) frames; the last stats line of each
# The GPU tests are scripts/gpu/run_tests.sh; validation runs scripts/gpu/validate.sh; profiles
# scripts/gpu/profile.sh.
[ $# -gt 0 ] || { sed -n '2,23p' "${BASH_SOURCE[0]}"; exit 2; }
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"

solver_bench() {  # solver default-sizes
  local s=$1 sizes=${EDDY_SIZES:-$2}
  if [ "$builds" = eddy ]; then
    $eddy bench --solver "$s" --backend cuda --particles "$sizes" --json "$out/$s.json" 2>&1 | tee "$out/$s.txt"
  else
    for round in 1 2; do
      for b in $builds; do
        echo "== $b $s, round $round"
        ./.carry/bin/$b bench --solver "$s" --backend cuda --particles "$sizes" 2>&1 | grep -E "^ +[0-9]|particles"
      done
    done 2>&1 | tee "$out/${s}_ab.txt"
  fi
}

realtime() {  # name eddy-bench-arguments...
  local name=$1
  shift
  for b in $builds; do
    echo "-- $name ($b)"
    ./.carry/bin/$b bench --realtime --backend cuda "$@" 2>&1 | tail -n 6
  done
}

# the dam break's 0.144 m^3 column at about 1M particles
million="--set fluid.spacing=0.00524"

for what in "$@"; do
  case $what in
    pbf | wcsph | mpm) solver_bench "$what" 16384,65536,262144,1048576,4194304 ;;
    dfsph)
      solver_bench dfsph 262144,1048576,4194304
      {
        realtime "the dam break at 1M particles, DFSPH" --set solver=dfsph $million --set time.frames=30
        realtime "the default dam break, DFSPH" --set solver=dfsph
        realtime "the dam break at 1M particles, WCSPH" --set solver=wcsph $million --set time.frames=30
      } | tee "$out/dfsph_realtime.txt"
      ;;
    realtime)
      {
        realtime "default dam break" --scene scenes/dam_break.json
        realtime "MPM nozzle benchmark" --scene scenes/mpm_nozzle_benchmark.json
        realtime "1M WCSPH dam break" --set solver=wcsph $million --set time.frames=10
      } | tee "$out/realtime.txt"
      ;;
    largest)
      for s in ${EDDY_LARGEST_SOLVERS:-wcsph mpm pbf}; do
        var="EDDY_LARGEST_${s^^}"
        SECONDS=0
        # shellcheck disable=SC2086 # the extra arguments are words
        $eddy bench --backend cuda --solver "$s" --particles "${EDDY_LARGEST_SIZES:-100000000}" --substeps 240 \
          --warmup 4 --json "$out/largest_$s.json" ${!var:-} 2>&1 | tee "$out/largest_$s.txt"
        echo "wall clock of the whole run, set-up included: ${SECONDS} s" | tee -a "$out/largest_$s.txt"
      done
      ;;
    render)
      for mode in particles ssfr ssfr-spheres surface; do
        extra=()
        [ "$mode" = ssfr-spheres ] && extra=(--set render.ellipsoids=false)
        $eddy bench --render --render-mode "${mode%-spheres}" --backend cuda --particles 1048576,4194304 \
          --settle-frames 60 --render-size 1920x1080 "${extra[@]}" 2>&1 | tee "$out/render_$mode.txt"
      done
      for mode in surface particles ssfr; do
        echo "== dragon $mode"
        $eddy bench --realtime --scene scenes/dragon_pour.json --backend cuda --render --render-mode $mode \
          2>&1 | grep -E "frame ms|picture"
      done | tee "$out/render_dragon.txt"
      ;;
    view)
      scene=(--set fluid.spacing=0.005157)
      [ -n "${EDDY_VIEW_SCENE:-}" ] && scene=("$EDDY_VIEW_SCENE")
      for mode in particles ssfr surface; do
        $eddy view --offscreen --backend cuda --frames 240 --no-vsync "${scene[@]}" --size 1920x1080 --mode "$mode" \
          --screenshot "$out/view_$mode.png" 2>&1 | tee "$out/view_$mode.txt"
      done
      ;;
    surface)
      sizes=${EDDY_SURFACE_SIZES:-1048576,4194304,13350000}
      # settled with the CFL step (with the scene's fixed 4 substeps the larger sizes are still spray after
      # 10 s): 10 s with 10 PBF iterations up to 4M particles; above, 7 s with the scene's 4 iterations, which
      # fits a 10-minute command (13350000 is best run on its own)
      for n in ${sizes//,/ }; do
        settle="--settle-frames 600 --set pbf.iterations=10"
        [ "$n" -gt 4194304 ] && settle="--settle-frames 420 --surface-repeats 3"
        # shellcheck disable=SC2086
        $eddy bench --surface --backend cuda --particles "$n" $settle --set pbf.xsph=0.1 --set time.adaptive=true \
          --json "$out/surface_$n.json" 2>&1 | tee "$out/surface_$n.txt"
      done
      $eddy bench --surface --backend cuda --particles "$sizes" --settle-frames 0 --json "$out/surface_column.json" \
        2>&1 | tee "$out/surface_column.txt"
      # the cost inside a run at 1M particles, with the CFL step (the scene's 4 substeps splash at this size)
      for mode in plain surface; do
        flag=""
        [ "$mode" = surface ] && flag="--surface"
        # shellcheck disable=SC2086
        $eddy run --backend cuda --frames 60 --set fluid.spacing=0.005157 --set time.adaptive=true \
          --set output.particles=false $flag --out "/tmp/run_$mode" 2>&1 | tail -n 14 | tee "$out/surface_run_$mode.txt"
      done
      ;;
    sdf)
      dragon=../shared/data/meshes/stanford-dragon-100k.obj
      {
        for round in 1 2 3; do
          echo "== round $round"
          $eddy mesh-info "$dragon" --sdf-resolution 256,512,1024 | grep sdf
          # the band a scene asks for (1.5 h) at the pour's 32k spacing, in the mesh's units (scale 0.035)
          $eddy mesh-info "$dragon" --sdf-resolution 256 --sdf-band 0.617 | grep sdf
          $eddy mesh-info "$dragon" --sdf-resolution 512 --sdf-thickness 0.05 | grep sdf
        done
      } 2>&1 | tee "$out/sdf_build.txt"
      ;;
    dragon)
      for s in pbf wcsph; do
        $eddy bench --scene scenes/dragon_pour.json --solver $s --backend cuda \
          --particles 10000,16000,24000,32000,48000,64000 --json "$out/dragon_pour_$s.json" 2>&1 | tail -n 8
      done
      ;;
    box)
      # alternated twice, so a drift of the clocks shows as a difference between the rounds
      for round in 1 2; do
        for scene in dam_break_box dam_break_box_mesh; do
          $eddy bench --scene bench/scenes/$scene.json --solver pbf --backend cuda --particles 1048576 \
            --json "$out/${scene}_pbf.json" 2>&1 | tail -n 1
        done
      done
      ;;
    bodies)
      # what ten rigid bodies cost a WCSPH substep: the debris dam break against the same dam break without
      # them, at 1M particles, alternated twice, into bodies.txt (the whole table of each run)
      for round in 1 2; do
        for scene in debris_dam_break dam_break; do
          echo "== $scene, round $round" >>"$out/bodies.txt"
          $eddy bench --scene scenes/$scene.json --set wcsph.speed_of_sound=30 --solver wcsph --backend cuda \
            --particles 1048576 --json "$out/${scene}_wcsph.json" >>"$out/bodies.txt" 2>&1
          tail -n 2 "$out/bodies.txt"
        done
      done
      ;;
    scenes)
      for scene in scenes/*.json scenes/validation/*.json; do
        name=$(basename "$scene" .json)
        $eddy run "$scene" --backend cuda --frames "${EDDY_FRAMES:-30}" --out "/tmp/scene_$name" --quiet \
          >"$out/scene_$name.txt" 2>&1
        echo "$name: rc $? $(tail -n 1 "/tmp/scene_$name/stats.jsonl" | cut -c1-160)"
      done
      ;;
    *)
      echo "bench.sh: unknown benchmark '$what' (pbf wcsph dfsph mpm realtime largest render view surface sdf dragon box scenes)" >&2
      exit 2
      ;;
  esac
done
