#!/usr/bin/env bash
# The validation runs behind bench/results/<machine>/ and docs/validation.md, on the GPU machine over a build
# packed by scripts/gpu/carry.sh (with a baseline build carried, each run is made with both builds).
# usage: bash scripts/gpu/validate.sh WHAT [WHAT ...]      results in $OUT (or ./gpu-results)
#   buchner          scenes/validation/buchner_wall_pressure.json at H/40 and H/80 (EDDY_SPACINGS), each solver
#                    of EDDY_SOLVERS (wcsph dfsph): probes.csv as <build>_buchner_<solver>_<spacing>.csv. Read
#                    them here with scripts/buchner_compare.py (DIR holding the file as probes.csv; --windows).
#   buchner-sensors  the same with the wall probes wall04..wall13 moved to read P1 as the published set-ups do:
#                    wall04 a point at P1's height, 0.16 m, half a spacing inside the wall (TrixiParticles);
#                    wall07 the 0.09 m face from 0.07 to 0.16 m (Marrone et al.'s sensor); wall10 the 9 mm face
#                    of Buchner's transducer centred 0.1555 m; wall13 a point at 0.2 H = 0.12 m (PySPH,
#                    SPHinXsys). Then scripts/buchner_compare.py DIR --errors P1,P1face,wall04,wall07,wall10,wall13
#   buchner-spread   four runs each that differ only in time.fps (EDDY_FPS: 46 48 50 52), and
#                    scripts/buchner_spread.py's table of how far P1 and P2 move between them (spread.md)
#   layers           the Buchner scene to frame 75 with particle files, and scripts/wall_layers.py's pressure by
#                    layer beside the far wall (frames 44-65, and the band 0.55-0.62 m over frames 68-73)
#   tank             scenes/validation/tank_at_rest.json at EDDY_TANK_SPACINGS (0.01 0.005) for 5 s:
#                    scripts/tank_probes.py from 2 s, scripts/column_probes.py's spread, and each second apart
#   column           scenes/validation/deep_column.json (DFSPH, 48 spacings deep): scripts/column_probes.py
#   martin-moyce     scenes/validation/martin_moyce.json with pbf, wcsph, dfsph and mpm, read by
#                    scripts/martin_moyce_front.py
[ $# -gt 0 ] || { sed -n '2,21p' "${BASH_SOURCE[0]}"; exit 2; }
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"
solvers=${EDDY_SOLVERS:-wcsph dfsph}
spacings=${EDDY_SPACINGS:-0.015 0.0075}
buchner=scenes/validation/buchner_wall_pressure.json

buchner_run() {  # build solver spacing name extra-arguments...: probes.csv as $out/name.csv
  local b=$1 solver=$2 s=$3 name=$4
  shift 4
  echo "== $name"
  ./.carry/bin/$b run $buchner --backend cuda --quiet --set solver="$solver" --set fluid.spacing="$s" "$@" \
    --out "/tmp/$name" 2>&1 | tail -n 1
  cp "/tmp/$name/probes.csv" "$out/$name.csv"
}

seconds() {  # run-dir: the tank's probes against rho g d over each second from 2 s (depth from 0.24 m)
  for from in 2.0 3.0 4.0; do
    echo "-- from $from s to $(python3 -c "print($from + 1)") s"
    python3 - "$1" "$from" <<'PY'
import csv, sys
run, a = sys.argv[1], float(sys.argv[2])
rows = [r for r in csv.DictReader(open(f"{run}/probes.csv")) if a <= float(r["time"]) < a + 1]
for name, y in (("y16", 0.16), ("y13", 0.13), ("y10", 0.10), ("y07", 0.07), ("y04", 0.04)):
    p = sum(float(r[f"{name}.pressure"]) for r in rows) / len(rows)
    print(f"{name} {100 * (p / (1000 * 9.81 * (0.24 - y)) - 1):+.2f} %", end="  ")
print()
PY
  done
}

for what in "$@"; do
  case $what in
    buchner)
      for b in $builds; do
        for solver in $solvers; do
          for s in $spacings; do buchner_run "$b" "$solver" "$s" "${b}_buchner_${solver}_$s"; done
        done
      done 2>&1 | tee "$out/buchner.txt"
      ;;
    buchner-sensors)
      for b in $builds; do
        for solver in $solvers; do
          for s in $spacings; do
            x=$(python3 -c "print(3.22 - $s / 2)")
            buchner_run "$b" "$solver" "$s" "${b}_sensors_${solver}_$s" \
              --set "probes.4.position=[$x,0.16,0.03]" \
              --set "probes.5.position=[$x,0.115,0.03]" --set "probes.5.face=[0,0.09,0]" \
              --set "probes.6.position=[$x,0.1555,0.03]" --set "probes.6.face=[0,0.009,0]" \
              --set "probes.7.position=[3.22,0.12,0.03]"
          done
        done
      done 2>&1 | tee "$out/buchner_sensors.txt"
      ;;
    buchner-spread)
      for solver in $solvers; do
        for s in 0.015 0.0075; do
          for fps in ${EDDY_FPS:-46 48 50 52}; do
            buchner_run eddy "$solver" "$s" "buchner_${solver}_${s}_fps$fps" --set time.fps="$fps"
          done
        done
      done 2>&1 | tee "$out/buchner_spread_runs.txt"
      # shellcheck disable=SC2086
      python3 scripts/buchner_spread.py "$out" --solvers $solvers --phases | tee "$out/spread.md"
      ;;
    layers)
      for b in $builds; do
        for solver in $solvers; do
          for s in $spacings; do
            echo "== $b $solver $s"
            ./.carry/bin/$b run $buchner --backend cuda --quiet --set solver="$solver" --set fluid.spacing="$s" \
              --set time.frames=75 --set output.particles=true --out "/tmp/${b}_layers" 2>&1 | tail -n 1
            python3 scripts/wall_layers.py "/tmp/${b}_layers" 44 66 --spacing "$s"
            python3 scripts/wall_layers.py "/tmp/${b}_layers" 68 74 --spacing "$s" --bands 0.55-0.62
          done
        done
      done 2>&1 | tee "$out/layers.txt"
      ;;
    tank)
      for b in $builds; do
        for solver in $solvers; do
          for s in ${EDDY_TANK_SPACINGS:-0.01 0.005}; do
            echo "== $b $solver tank $s, 5 s, averaged from 2 s"
            ./.carry/bin/$b run scenes/validation/tank_at_rest.json --backend cuda --set solver="$solver" \
              --set fluid.spacing="$s" --set time.frames=300 --out "/tmp/${b}_tank_$s" --quiet 2>&1 | tail -n 1
            python3 scripts/tank_probes.py "/tmp/${b}_tank_$s" "$s" 2.0
            python3 scripts/column_probes.py "/tmp/${b}_tank_$s" 2.0 0.24
            seconds "/tmp/${b}_tank_$s"
          done
        done
      done 2>&1 | tee "$out/tank.txt"
      ;;
    column)
      for b in $builds; do
        echo "== $b deep column"
        ./.carry/bin/$b run scenes/validation/deep_column.json --backend cuda --out "/tmp/${b}_column" --quiet 2>&1 |
          tail -n 1
        python3 scripts/column_probes.py "/tmp/${b}_column" 2.0
      done 2>&1 | tee "$out/column.txt"
      ;;
    martin-moyce)
      dirs=()
      for solver in pbf wcsph dfsph mpm; do
        ./.carry/bin/eddy run scenes/validation/martin_moyce.json --backend cuda --quiet --set solver=$solver \
          --out "/tmp/$solver" 2>&1 | tail -n 1
        dirs+=("/tmp/$solver")
      done
      python3 scripts/martin_moyce_front.py "${dirs[@]}" | tee "$out/martin_moyce.txt"
      ;;
    *)
      echo "validate.sh: unknown run '$what' (buchner buchner-sensors buchner-spread layers tank column martin-moyce)" >&2
      exit 2
      ;;
  esac
done
