#!/usr/bin/env python3
"""The surge front of an `eddy run` of scenes/validation/martin_moyce.json against Martin & Moyce (1952),
"An experimental study of the collapse of liquid columns on a rigid horizontal plane", Phil. Trans. R. Soc. A
244, 312-324, for the a = 2.25 in column (a = 0.05715 m): Z = x / a against T = t sqrt(2 g / a).

    python3 scripts/martin_moyce_front.py RUN_DIR [RUN_DIR ...] [--frames] [--fit-delay]
                                          [--percentile 99.8] [--below 1]

The front of a frame is the 99.8th percentile of x among the particles lower than y = a (--below, in units of
a): the furthest particle alone, as tests/test_martin_moyce.cpp reads it, follows the
few particles thrown ahead of the surge (1.4 to 2.6 points more mean error on the same runs; --percentile 100
--below 0.25 gives that reading). The front is read in every frame and interpolated linearly in T at the 11 measured
points (those the 0.6 m tank holds, Z < 10.5); the figure of merit is the mean of |Z_sim - Z_exp| / Z_exp.

RUN_DIR holds particles_NNNNNN.ply (binary little-endian, as eddy writes them: float x y z vx vy vz density,
optional float pressure, uint id, optional uint material) and stats.jsonl, whose lines give each frame's
time; without stats.jsonl the time is the frame number over scene.json's time.fps. Prints, per run, a
Markdown table of the measured points (and with --frames the front of every frame), then one line per run
with its mean error. Needs only the standard library (the frames of this scene hold 3,200 particles).

--fit-delay adds to each run's line the constant delay dT (0 to 0.6 in T, steps of 0.01) by which the run's
curve, started that much later, fits the measurements best, and the mean error it leaves. It is a diagnosis,
not a correction: the simulation releases the whole column at t = 0, the experiment's release took time, and
a front that differs from the measured one only by such a delay leaves a small error after it, while one
that spreads at another rate does not.
"""
import argparse
import glob
import json
import os
import re
import struct
import sys

A = 0.05715  # column width (m); the column is 2a high
G = 9.81

# Martin & Moyce's a = 2.25 in series (shared/data/validation/martin-moyce-1952-surge-front.csv), the points
# whose front lies inside the tank; the same table as tests/test_martin_moyce.cpp
POINTS = [(0.832, 1.217), (1.219, 1.474), (1.997, 2.292), (2.547, 2.995), (3.345, 4.134), (4.034, 4.944),
          (4.418, 5.881), (5.091, 6.980), (5.685, 7.945), (6.306, 8.966), (6.822, 9.986)]

PLY_TYPES = {"float": ("f", 4), "float32": ("f", 4), "double": ("d", 8), "uint": ("I", 4), "uint32": ("I", 4),
             "int": ("i", 4), "int32": ("i", 4), "uchar": ("B", 1), "uint8": ("B", 1)}


def fail(message):
    print("martin_moyce_front: " + message, file=sys.stderr)
    sys.exit(2)


def read_ply_xy(path):
    """x and y of every vertex of a binary little-endian PLY file."""
    with open(path, "rb") as f:
        data = f.read()
    end = data.find(b"end_header\n")
    if end < 0:
        fail("%s: no end_header" % path)
    header = data[:end].decode("ascii").splitlines()
    if "format binary_little_endian 1.0" not in header:
        fail("%s: only binary little-endian PLY is read" % path)
    count, props = 0, []
    for line in header:
        words = line.split()
        if words[:2] == ["element", "vertex"]:
            count = int(words[2])
        elif words[:1] == ["property"]:
            if words[1] not in PLY_TYPES:
                fail("%s: property type '%s' is not read" % (path, words[1]))
            props.append((words[2], words[1]))
    fmt = "<" + "".join(PLY_TYPES[t][0] for _, t in props)
    names = [n for n, _ in props]
    if "x" not in names or "y" not in names:
        fail("%s: the vertices need x and y" % path)
    ix, iy = names.index("x"), names.index("y")
    size = struct.calcsize(fmt)
    body = data[end + len(b"end_header\n"):]
    if len(body) < count * size:
        fail("%s: %d vertices announced, %d bytes present" % (path, count, len(body)))
    rows = struct.iter_unpack(fmt, body[:count * size])
    return [(r[ix], r[iy]) for r in rows]


def percentile(values, q):
    """numpy's default (linear) percentile of a non-empty list."""
    s = sorted(values)
    pos = q / 100.0 * (len(s) - 1)
    lo = int(pos)
    hi = min(lo + 1, len(s) - 1)
    return s[lo] + (pos - lo) * (s[hi] - s[lo])


def frame_times(run):
    """frame number -> time (s), from stats.jsonl, else from scene.json's fps."""
    times = {}
    stats = os.path.join(run, "stats.jsonl")
    if os.path.isfile(stats):
        with open(stats) as f:
            for line in f:
                if line.strip():
                    j = json.loads(line)
                    times[int(j["frame"])] = float(j["time"])
    fps = None
    scene = os.path.join(run, "scene.json")
    if os.path.isfile(scene):
        with open(scene) as f:
            fps = json.load(f).get("time", {}).get("fps")
    return times, fps


def front_curve(run, q, below):
    """[(T, Z)] over the run's frames."""
    files = sorted(glob.glob(os.path.join(run, "particles_*.ply")))
    if not files:
        fail("%s: no particles_NNNNNN.ply" % run)
    times, fps = frame_times(run)
    scale = (2 * G / A) ** 0.5
    curve = []
    for path in files:
        frame = int(re.search(r"particles_(\d+)\.ply$", path).group(1))
        if frame in times:
            t = times[frame]
        elif frame == 0:
            t = 0.0
        elif fps:
            t = frame / float(fps)
        else:
            fail("%s: frame %d has no time (no stats.jsonl line, no scene.json fps)" % (run, frame))
        low = [x for x, y in read_ply_xy(path) if y < below * A]
        z = percentile(low, q) / A if low else float("nan")
        curve.append((t * scale, z))
    return curve


def at(curve, t):
    """Z at T, linear between frames; None past the run's last frame."""
    for (t0, z0), (t1, z1) in zip(curve, curve[1:]):
        if t0 <= t <= t1:
            return z0 + (t - t0) / (t1 - t0) * (z1 - z0)
    return None


def best_delay(curve):
    """(dT, mean error) of the delay in [0, 0.6] that fits the measured points best, the run's curve read at
    T - dT; None where the run does not reach the last point."""
    best = None
    for k in range(61):
        values = [at(curve, t - 0.01 * k) for t, _ in POINTS]
        if None in values:
            return None
        mean = sum(abs(s - z) / z for s, (_, z) in zip(values, POINTS)) / len(POINTS)
        if best is None or mean < best[1]:
            best = (0.01 * k, mean)
    return best


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("runs", nargs="+", metavar="RUN_DIR")
    ap.add_argument("--percentile", type=float, default=99.8, help="front percentile of x (default 99.8)")
    ap.add_argument("--below", type=float, default=1.0, help="only particles with y < BELOW a (default 1)")
    ap.add_argument("--frames", action="store_true", help="print the front of every frame too")
    ap.add_argument("--fit-delay", action="store_true", help="the delay in T that fits each run best")
    args = ap.parse_args()
    summary = []
    for run in args.runs:
        curve = front_curve(run, args.percentile, args.below)
        print("\n%s (front: %.1fth percentile of x below y = %g a)\n" % (run, args.percentile, args.below))
        if args.frames:
            print("| T | Z sim |\n|---:|---:|")
            for t, z in curve:
                print("| %.3f | %.3f |" % (t, z))
            print()
        print("| T | Z exp | Z sim | rel. error |\n|---:|---:|---:|---:|")
        errors = []
        for t, z in POINTS:
            s = at(curve, t)
            if s is None:
                print("| %.3f | %.3f | — | — |" % (t, z))
                continue
            errors.append(abs(s - z) / z)
            print("| %.3f | %.3f | %.3f | %+.1f %% |" % (t, z, s, 100 * (s - z) / z))
        if len(errors) < len(POINTS):
            print("\n(the run ends at T = %.3f: %d of %d points)" % (curve[-1][0], len(errors), len(POINTS)))
        mean = sum(errors) / len(errors) if errors else float("nan")
        print("\nmean relative error %.1f %%" % (100 * mean))
        summary.append((run, mean, len(errors), best_delay(curve) if args.fit_delay else None))
    print()
    for run, mean, n, delay in summary:
        line = "%-40s mean relative error %5.1f %% (%d points)" % (run, 100 * mean, n)
        if delay:
            line += "; delayed by dT = %.2f (%.1f ms): %.1f %%" % (delay[0], 1e3 * delay[0] / (2 * G / A) ** 0.5,
                                                                    100 * delay[1])
        print(line)


if __name__ == "__main__":
    main()
