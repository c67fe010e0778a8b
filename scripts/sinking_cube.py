#!/usr/bin/env python3
"""Compares the cube of scenes/validation/sinking_cube.json with the experiment of Wu et al. (2014).

usage: sinking_cube.py RUN_DIR [EXPERIMENT_CSV]

Reads RUN_DIR/bodies.csv (the column cube.y, the height of the cube's centre above the floor) and the
measured heights, docs/data/wu2014_sinking_cube.csv unless another file is given. The simulated height is
interpolated linearly between the run's frames at each measured time after the release up to 0.34 s (the
cube lands at about 0.36 s). Prints the table and the RMS and largest differences in mm and as a share of
the 0.117 m the cube falls (from 0.131 m to 0.014 m, where the experiment has it resting). Exit status 2 on
a missing or unreadable file. Standard library only.
"""
import csv
import math
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
EXPERIMENT = os.path.join(HERE, "..", "docs", "data", "wu2014_sinking_cube.csv")
BODY = "cube"
UNTIL = 0.34  # s: the comparison stops before the cube reaches the floor
FALL = 0.117  # m: the height the cube falls in the experiment


def fail(message):
    print("sinking_cube: " + message, file=sys.stderr)
    sys.exit(2)


def read_experiment(path):
    if not os.path.isfile(path):
        fail("%s: no such file (the measured heights, columns time_s,centre_height_m)" % path)
    rows = []
    with open(path, encoding="utf-8") as f:
        lines = [line for line in f if line.strip() and not line.startswith("#")]
    if not lines or lines[0].strip() != "time_s,centre_height_m":
        fail("%s: the first line after the comments must be the header time_s,centre_height_m" % path)
    for number, line in enumerate(lines[1:], start=2):
        try:
            t, z = (float(v) for v in line.strip().split(","))
        except ValueError:
            fail("%s: data line %d ('%s') is not two numbers, time_s,centre_height_m" % (path, number, line.strip()))
        rows.append((t, z))
    if not rows:
        fail("%s: no data rows" % path)
    return rows


def read_run(run_dir):
    path = os.path.join(run_dir, "bodies.csv")
    if not os.path.isfile(path):
        fail("%s: no such file (RUN_DIR must hold the bodies.csv of an eddy run of "
             "scenes/validation/sinking_cube.json)" % path)
    column = BODY + ".y"
    times, heights = [], []
    with open(path, encoding="utf-8") as f:
        reader = csv.DictReader(f)
        if reader.fieldnames is None or "time" not in reader.fieldnames or column not in reader.fieldnames:
            fail("%s: no columns 'time' and '%s' (the scene's body must be named \"%s\")" % (path, column, BODY))
        for number, row in enumerate(reader, start=2):
            try:
                times.append(float(row["time"]))
                heights.append(float(row[column]))
            except (TypeError, ValueError):
                fail("%s: line %d: time or %s is not a number" % (path, number, column))
    if len(times) < 2:
        fail("%s: fewer than two rows" % path)
    return times, heights


def interpolate(times, values, t):
    """linear interpolation in increasing times, t within them"""
    k = 1
    while k < len(times) - 1 and times[k] < t:
        k += 1
    a, b = times[k - 1], times[k]
    return values[k - 1] + (values[k] - values[k - 1]) * (t - a) / (b - a)


def main():
    if len(sys.argv) not in (2, 3) or sys.argv[1] in ("-h", "--help"):
        fail("usage: sinking_cube.py RUN_DIR [EXPERIMENT_CSV]")
    experiment = read_experiment(sys.argv[2] if len(sys.argv) == 3 else EXPERIMENT)
    times, heights = read_run(sys.argv[1])
    # the first point lies a fraction of a millisecond before the release: the start the scene sets
    points = [(t, z) for t, z in experiment if 0 < t <= UNTIL]
    if not points:
        fail("the experiment has no points between 0 and %.2f s" % UNTIL)
    if times[0] > points[0][0] + 1e-9:
        fail("bodies.csv starts at %.3f s, after the first compared time %.3f s" % (times[0], points[0][0]))
    if times[-1] < points[-1][0] - 1e-9:
        fail("the run ends at %.3f s, before the last compared time %.3f s (run 0.4 s: 40 frames at 100 fps)"
             % (times[-1], points[-1][0]))
    print("%8s %12s %12s %12s" % ("time s", "experiment m", "eddy m", "diff mm"))
    diff = []
    for t, z in points:
        sim = interpolate(times, heights, t)
        diff.append(sim - z)
        print("%8.3f %12.4f %12.4f %+12.1f" % (t, z, sim, diff[-1] * 1e3))
    rms = math.sqrt(sum(d * d for d in diff) / len(diff))
    worst = max(abs(d) for d in diff)
    print("RMS difference %.1f mm (%.1f %% of the %.3f m fall), largest %.1f mm (%.1f %%), over %d points to %.2f s"
          % (rms * 1e3, 100 * rms / FALL, FALL, worst * 1e3, 100 * worst / FALL, len(diff), UNTIL))

if __name__ == "__main__":
    main()
