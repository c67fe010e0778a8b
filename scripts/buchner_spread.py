#!/usr/bin/env python3
"""How far the Buchner wall pressure scatters between runs: the spread table of docs/validation.md.

usage: buchner_spread.py DIR [--solvers wcsph dfsph] [--phases]

DIR holds the probes of `scripts/gpu/validate.sh buchner-spread`, buchner_<solver>_<spacing>_fps<F>.csv, runs of
scenes/validation/buchner_wall_pressure.json that differ only in their frame rate. For each solver and
spacing, and for P1 and P2 read at a point and over the sensor face, prints a Markdown row: the ranges
over the runs of the impact time, the first peak and the plateau (T 3.5-5.3), and the mean error over the
measured record as mean (smallest-largest), whole and split at T = 5.3, where the plunging wave starts.
The measures are scripts/buchner_compare.py's. --phases also prints the experiment and the runs' mean over
windows of T through the plunging wave, with the runs' curves read at the experiment's points.
"""
import argparse
import glob
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import buchner_compare  # noqa: E402  (the measures and the experiment's data)

SPLIT = 5.3  # the plunging wave's start
PHASES = [(5.3, 5.6), (5.6, 5.9), (5.9, 6.2), (6.2, 6.5), (6.5, 6.8), (6.8, 7.1), (7.1, 7.4)]


def read_probes(path, column):
    """(T, P) of one probe column of a probes.csv-style file"""
    return buchner_compare.read_run(os.path.dirname(path), column, os.path.basename(path))


def spread(values):
    return "%.2f–%.2f" % (min(values), max(values))


def mean_range(values):
    return "%.3f (%.3f–%.3f)" % (sum(values) / len(values), min(values), max(values))


def mean_error(curve, points):
    errors = [abs(buchner_compare.at(curve, t) - p) for t, p in points if t <= curve[-1][0]]
    return sum(errors) / len(errors) if errors else float("nan")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("dir")
    parser.add_argument("--solvers", nargs="+", default=["wcsph", "dfsph"])
    parser.add_argument("--phases", action="store_true")
    args = parser.parse_args()
    runs = {}  # (solver, spacing) -> files
    for path in sorted(glob.glob(os.path.join(args.dir, "buchner_*_*_fps*.csv"))):
        match = re.fullmatch(r"buchner_([a-z]+)_([0-9.]+)_fps([0-9]+)\.csv", os.path.basename(path))
        if match and match.group(1) in args.solvers:
            runs.setdefault((match.group(1), float(match.group(2))), []).append(path)
    if not runs:
        print(f"buchner_spread: {args.dir}: no buchner_<solver>_<spacing>_fps<F>.csv files of the solvers "
              f"{' '.join(args.solvers)} (DIR must hold the output of scripts/gpu/validate.sh buchner-spread)",
              file=sys.stderr)
        sys.exit(2)
    experiment = {sensor: buchner_compare.read_experiment(sensor) for sensor in ("P1", "P2")}
    print("| run | impact T | first peak | plateau | mean \\|P − P_exp\\| | T ≤ 5.3 | T > 5.3 |")
    print("|---|---|---|---|---|---|---|")
    for (solver, spacing), paths in sorted(runs.items(), key=lambda item: (item[0][0], -item[0][1])):
        label = "%s H/%d" % (solver.upper(), round(buchner_compare.H / spacing))
        for sensor in ("P1", "P2"):
            points = experiment[sensor]
            for suffix, reading in (("", "point"), ("face", "face")):
                measures = []
                for path in paths:
                    curve = read_probes(path, sensor + suffix)
                    t0, peak, plateau, error = buchner_compare.measures(curve, points)
                    early = mean_error(curve, [(t, p) for t, p in points if t <= SPLIT])
                    late = mean_error(curve, [(t, p) for t, p in points if t > SPLIT])
                    measures.append((t0, peak, plateau, error, early, late))
                columns = list(zip(*measures))
                print(f"| {label}, {sensor} {reading} ({len(paths)} runs) | {spread(columns[0])} | "
                      f"{spread(columns[1])} | {spread(columns[2])} | {mean_range(columns[3])} | "
                      f"{mean_range(columns[4])} | {mean_range(columns[5])} |")
    if args.phases:
        points = experiment["P1"]
        heads = [f"{solver.upper()} H/{round(buchner_compare.H / spacing)} {reading}"
                 for (solver, spacing) in sorted(runs, key=lambda r: (r[0], -r[1])) for reading in ("point", "face")]
        print("\nP1 through the plunging wave: the mean over each window of T, at the experiment's points\n")
        print("| T | experiment | " + " | ".join(heads) + " |")
        print("|---|---:|" + "---:|" * len(heads))
        for lo, hi in PHASES:
            inside = [(t, p) for t, p in points if lo <= t < hi]
            if not inside:
                continue
            row = [f"{lo:.1f}–{hi:.1f}", "%.2f" % (sum(p for _, p in inside) / len(inside))]
            for (solver, spacing) in sorted(runs, key=lambda r: (r[0], -r[1])):
                for suffix in ("", "face"):
                    values = [buchner_compare.at(read_probes(path, "P1" + suffix), t)
                              for path in runs[(solver, spacing)] for t, _ in inside]
                    row.append("%.2f" % (sum(values) / len(values)))
            print("| " + " | ".join(row) + " |")


if __name__ == "__main__":
    main()
