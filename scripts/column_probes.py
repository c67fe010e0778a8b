#!/usr/bin/env python3
"""Reads the wall probes of a run of scenes/validation/deep_column.json (or any scene whose probes are named
yNN, NN the height in cm): each probe's mean pressure from FROM_SECONDS on against rho g d, d measured from
SURFACE (default: the lattice's top, 0.96 m), and its spread from frame to frame (standard deviation over
the mean).

usage: column_probes.py RUN_DIR [FROM_SECONDS] [SURFACE]
"""
import csv
import math
import sys

RHO, G = 1000.0, 9.81


def main():
    run = sys.argv[1]
    start = float(sys.argv[2]) if len(sys.argv) > 2 else 2.0
    surface = float(sys.argv[3]) if len(sys.argv) > 3 else 0.96
    with open(f"{run}/probes.csv") as f:
        rows = [r for r in csv.DictReader(f) if float(r["time"]) >= start]
    if not rows:
        sys.exit(f"{run}/probes.csv: no rows from {start} s on")
    print("probe   depth m   mean Pa   rho g d Pa   error     spread")
    for name in rows[0]:
        if not (name.startswith("y") and name.endswith(".pressure")):
            continue
        values = [float(r[name]) for r in rows if r[name] != ""]
        mean = sum(values) / len(values)
        spread = math.sqrt(sum((v - mean) ** 2 for v in values) / len(values)) / mean
        depth = surface - int(name[1:3]) / 100
        expected = RHO * G * depth
        print(f"{name[:3]}     {depth:.3f}   {mean:8.1f}   {expected:8.1f}   {100 * (mean / expected - 1):+6.2f} %"
              f"   +-{100 * spread:5.1f} %")


if __name__ == "__main__":
    main()
