#!/usr/bin/env python3
"""Compare the wall pressure of an `eddy run` of scenes/validation/buchner_wall_pressure.json with Buchner's
(2002) measurements (shared/data/validation): impact time, first peak, plateau and mean error, in the
units of the data (T = t sqrt(g/H), P = p / (rho g H)).

    python3 scripts/buchner_compare.py RUN_DIR [--label NAME] [--curve OUT.csv] [--suffix face]
                                       [--windows NAME,...] [--errors NAME,...] [--every SECONDS]

RUN_DIR holds probes.csv with columns P1.pressure and P2.pressure (with --suffix S, P1S.pressure and
P2S.pressure: the scene's sensor faces P1face and P2face, which scripts/buchner_reference_2d.py writes
too). Prints a Markdown table; --curve writes the simulated curves, resampled every 0.02 in T, for plotting
beside the measurements. --windows P1,P1face,wall10 prints instead, for each named probe, the mean P and the
mean |P - P1_exp| over windows of T at P1's measured points (the scene's wall04 .. wall13 read the far wall
below P1, at 0.04, 0.07, 0.10 and 0.13 m). --errors P1,P1face,... prints, for each named probe against P1's
record, the impact T and the mean |P - P_exp| before the plunging wave (T <= 5.3) and over the whole record,
the bars of docs/validation.md. --every S reads the run as if it had been sampled every S seconds (the
published curves were written every 0.02 s), the curve between samples linear."""
import argparse
import csv
import os
import sys

H, G, RHO = 0.6, 9.81, 1000.0
TIME_SCALE = (G / H) ** 0.5
SHARED = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "shared", "data", "validation")


def read_experiment(sensor):
    path = os.path.join(SHARED, "buchner-2002-dam-break-wall-pressure-%s.csv" % sensor)
    if not os.path.isfile(path):
        print("buchner_compare: %s: no such file (shared/ must lie beside the checkout)" % path, file=sys.stderr)
        sys.exit(2)
    points = []
    with open(path) as f:
        for line in f:
            if line.startswith("#") or line.startswith("T,"):
                continue
            t, p = line.strip().split(",")
            points.append((float(t), float(p)))
    return points


def read_run(run_dir, sensor, name="probes.csv", every=0.0):
    path = os.path.join(run_dir, name)
    if not os.path.isfile(path):
        print("buchner_compare: %s: no such file (RUN_DIR must hold the probes.csv of an eddy run of "
              "scenes/validation/buchner_wall_pressure.json)" % path, file=sys.stderr)
        sys.exit(2)
    curve = []
    due = 0.0  # with every > 0: the first sample at or after each multiple of it
    with open(path) as f:
        for row in csv.DictReader(f):
            value = row.get(sensor + ".pressure", "")
            if value == "":
                continue
            if every > 0:
                if float(row["time"]) < due - 1e-9:
                    continue
                due = (int(float(row["time"]) / every + 1e-6) + 1) * every
            curve.append((float(row["time"]) * TIME_SCALE, float(value) / (RHO * G * H)))
    if not curve:
        print("buchner_compare: %s: no %s.pressure samples (the scene's probes are P1, P2, P1face, "
              "P2face and wall04 .. wall13)" % (path, sensor), file=sys.stderr)
        sys.exit(2)
    return curve


def at(curve, t):
    """linear interpolation of a (T, P) curve sorted by T"""
    lo, hi = 0, len(curve) - 1
    if t <= curve[0][0]:
        return curve[0][1]
    if t >= curve[-1][0]:
        return curve[-1][1]
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if curve[mid][0] <= t:
            lo = mid
        else:
            hi = mid
    (t0, p0), (t1, p1) = curve[lo], curve[hi]
    return p0 + (p1 - p0) * (t - t0) / (t1 - t0)


def impact(curve, threshold=0.1):
    for t, p in curve:
        if p > threshold:
            return t
    return float("nan")


def measures(curve, experiment, plateau=(3.5, 5.3)):
    """impact time, first peak (largest P within 1 of impact), plateau mean, mean |P - P_exp| over the
    experiment's record (its points, the simulation interpolated)"""
    t0 = impact(curve)
    peak = max((p for t, p in curve if t0 <= t <= t0 + 1.0), default=float("nan"))
    window = [p for t, p in curve if plateau[0] <= t <= plateau[1]]
    mean_plateau = sum(window) / len(window) if window else float("nan")
    record = [(t, p) for t, p in experiment if t <= curve[-1][0]]
    error = sum(abs(at(curve, t) - p) for t, p in record) / len(record) if record else float("nan")
    return t0, peak, mean_plateau, error


WINDOWS = ((2.0, 2.5), (2.5, 2.8), (2.8, 3.2), (3.2, 3.6), (3.6, 4.4), (4.4, 5.3), (5.3, 7.4), (2.0, 5.3))


def print_windows(run_dir, names, experiment):
    """each probe's mean P and mean |P - P_exp| over windows of T, at the experiment's points within the run"""
    curves = [(name, read_run(run_dir, name)) for name in names]
    print("| P1 window T | " + " | ".join("%.1f-%.1f" % w for w in WINDOWS) + " |")
    print("|---|" + "---:|" * len(WINDOWS))
    rows = [("experiment", None)] + curves
    for name, curve in rows:
        cells = []
        for lo, hi in WINDOWS:
            points = [(t, p) for t, p in experiment if lo < t <= hi and (curve is None or t <= curve[-1][0])]
            if not points:
                cells.append("")
                continue
            values = [p if curve is None else at(curve, t) for t, p in points]
            mean = sum(values) / len(values)
            error = sum(abs(v - p) for v, (t, p) in zip(values, points)) / len(points)
            cells.append("%.2f" % mean if curve is None else "%.2f / %.3f" % (mean, error))
        print("| %s | %s |" % (name, " | ".join(cells)))


def print_errors(run_dir, names, experiment, every):
    """each probe's impact T and mean |P - P_exp| over T <= 5.3 and over the record, against P1's points"""
    curves = [(name, read_run(run_dir, name, every=every)) for name in names]  # every file before printing
    print("| probe | impact T | mean abs error, T <= 5.3 | whole record |")
    print("|---|---:|---:|---:|")
    for name, curve in curves:
        record = [(t, p) for t, p in experiment if t <= curve[-1][0]]
        early = [(t, p) for t, p in record if t <= 5.3]
        error = lambda points: sum(abs(at(curve, t) - p) for t, p in points) / len(points)
        print("| %s | %.2f | %.3f | %.3f |" % (name, impact(curve), error(early), error(record)))


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("run_dir")
    parser.add_argument("--label", default=None)
    parser.add_argument("--curve", default=None)
    parser.add_argument("--suffix", default="", help="compare the run's columns P1<suffix> and P2<suffix>")
    parser.add_argument("--windows", default=None, help="probes to read window by window against P1's record")
    parser.add_argument("--errors", default=None, help="probes whose errors against P1's record to print")
    parser.add_argument("--every", type=float, default=0.0, help="read the run as sampled every EVERY seconds")
    args = parser.parse_args()
    if args.errors is not None:
        names = [name for name in args.errors.split(",") if name]
        if not names:
            print("buchner_compare: --errors needs probe names separated by commas (P1,P1face)", file=sys.stderr)
            sys.exit(2)
        print_errors(args.run_dir, names, read_experiment("P1"), args.every)
        return
    if args.windows is not None:
        names = [name for name in args.windows.split(",") if name]
        if not names:
            print("buchner_compare: --windows needs probe names separated by commas (P1,P1face)", file=sys.stderr)
            sys.exit(2)
        print_windows(args.run_dir, names, read_experiment("P1"))
        return
    label = args.label or os.path.basename(os.path.normpath(args.run_dir))
    # every file read and checked before anything is printed or written
    experiments = {sensor: read_experiment(sensor) for sensor in ("P1", "P2")}
    curves = {sensor: read_run(args.run_dir, sensor + args.suffix) for sensor in ("P1", "P2")}
    print("| %s | impact T | first peak | plateau T 3.5-5.3 | mean abs error |" % label)
    print("|---|---:|---:|---:|---:|")
    for sensor in ("P1", "P2"):
        e = measures(experiments[sensor], experiments[sensor])
        s = measures(curves[sensor], experiments[sensor])
        print("| %s experiment | %.2f | %.2f | %.2f | |" % (sensor, e[0], e[1], e[2]))
        print("| %s eddy | %.2f | %.2f | %.2f | %.3f |" % (sensor + args.suffix, s[0], s[1], s[2], s[3]))
    if args.curve:
        end = min(c[-1][0] for c in curves.values())
        # written under a temporary name, then renamed: a reader never sees half a file
        partial = args.curve + ".partial"
        with open(partial, "w") as f:
            f.write("T,P1,P2\n")
            t = 0.0
            while t <= end:
                f.write("%.2f,%.4f,%.4f\n" % (t, at(curves["P1"], t), at(curves["P2"], t)))
                t += 0.02
        os.replace(partial, args.curve)


if __name__ == "__main__":
    main()
