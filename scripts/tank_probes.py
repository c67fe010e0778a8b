#!/usr/bin/env python3
"""Compares the wall probes of scenes/validation/tank_at_rest.json with rho g d once the tank has settled.

usage: tank_probes.py RUN_DIR SPACING [FROM_SECONDS]

Averages probes.csv and forces.csv from FROM_SECONDS (default 2.0) to the end. The depth d is measured
from the lattice's top, N spacing^3 over the tank's floor area (the emitter's block, 0.24 m), and, as a
second column, from the gauge's reading. Prints one line per probe and the force on
the domain against the weight.
"""
import csv
import json
import math
import sys

RHO, G, AREA = 1000.0, 9.81, 0.3 * 0.3


def lattice_mass(spacing, support_ratio=2.0):
    """eddy's particle mass: a particle inside a full cubic lattice sums to the rest density (poly6)."""
    h = support_ratio * spacing
    reach = math.ceil(support_ratio)
    total = 0.0
    for x in range(-reach, reach + 1):
        for y in range(-reach, reach + 1):
            for z in range(-reach, reach + 1):
                r2 = (x * x + y * y + z * z) * spacing * spacing
                if r2 < h * h:
                    total += 315.0 / (64.0 * math.pi * h**9) * (h * h - r2) ** 3
    return RHO / total


def mean_columns(path, start):
    sums, count = {}, 0
    with open(path) as f:
        for row in csv.DictReader(f):
            if float(row["time"]) < start:
                continue
            for k, v in row.items():
                if k != "time" and v != "":
                    sums[k] = sums.get(k, 0.0) + float(v)
            count += 1
    if count == 0:
        sys.exit(f"{path}: no rows after t = {start} s")
    return {k: v / count for k, v in sums.items()}


def main():
    run, spacing = sys.argv[1], float(sys.argv[2])
    start = float(sys.argv[3]) if len(sys.argv) > 3 else 2.0
    probes = mean_columns(f"{run}/probes.csv", start)
    forces = mean_columns(f"{run}/forces.csv", start)
    with open(f"{run}/stats.jsonl") as f:
        last = json.loads(f.readlines()[-1])
    n = last["particles"]
    surface = n * spacing**3 / AREA  # the lattice's top
    gauge = probes["surface.elevation"]
    print(f"particles {n}, spacing {spacing} m, lattice top {surface:.4f} m, gauge {gauge:.4f} m, "
          f"top particle + half a spacing {last['bounds_max'][1] + spacing / 2:.4f} m")
    print("probe   height m   depth m   p measured Pa   rho g d Pa   error   error (gauge depth)")
    for name, y in (("y16", 0.16), ("y13", 0.13), ("y10", 0.10), ("y07", 0.07), ("y04", 0.04)):
        p = probes[f"{name}.pressure"]
        d = surface - y
        expected = RHO * G * d
        by_gauge = RHO * G * (gauge - y)
        print(f"{name}     {y:.2f}      {d:.4f}   {p:12.1f}   {expected:10.1f}   {100 * (p / expected - 1):+6.2f} %"
              f"   {100 * (p / by_gauge - 1):+6.2f} %")
    weight = n * lattice_mass(spacing) * G
    print(f"force on the domain {-forces['domain.fy']:.2f} N, weight {weight:.2f} N "
          f"({100 * (-forces['domain.fy'] / weight - 1):+.2f} %)")


if __name__ == "__main__":
    main()
