#!/usr/bin/env python3
"""The pressure beside a wall, layer by layer, from a run's particle files (PLY with a pressure column).

usage: wall_layers.py RUN_DIR FIRST LAST [--wall X] [--spacing S] [--rho-g-h P]

Averages frames FIRST..LAST-1 (particles_NNNNNN.ply). For bands of height, prints the mean pressure of the
particles by distance from the wall at x = X (the Buchner scene's far wall, 3.22 m, by default), in layers
one spacing thick, divided by P (rho g H of the Buchner scene, 1000 * 9.81 * 0.6, by default), and the
share of the first layer that sits nearer the wall than half a spacing. docs/validation.md ("What the
particles beside the wall read") uses it on scenes/validation/buchner_wall_pressure.json.
"""
import argparse

import numpy as np

FIELDS = {"float": "<f4", "uint": "<u4", "int": "<i4", "double": "<f8", "uchar": "u1"}


def read_ply(path):
    data = open(path, "rb").read()
    end = data.index(b"end_header\n") + len(b"end_header\n")
    names = []
    for line in data[:end].decode().splitlines():
        words = line.split()
        if words[:1] == ["property"]:
            names.append((words[2], FIELDS[words[1]]))
    return np.frombuffer(data[end:], dtype=np.dtype(names))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("run")
    parser.add_argument("first", type=int)
    parser.add_argument("last", type=int)
    parser.add_argument("--wall", type=float, default=3.22)
    parser.add_argument("--spacing", type=float, default=0.015)
    parser.add_argument("--rho-g-h", type=float, default=1000 * 9.81 * 0.6)
    args = parser.parse_args()
    bands = [(0.0, 0.06), (0.06, 0.12), (0.14, 0.18)]
    layers = 4
    sums = np.zeros((len(bands), layers))
    counts = np.zeros((len(bands), layers))
    near = np.zeros(len(bands))
    first_layer = np.zeros(len(bands))
    for frame in range(args.first, args.last):
        p = read_ply(f"{args.run}/particles_{frame:06d}.ply")
        distance = (args.wall - p["x"]) / args.spacing
        for b, (lo, hi) in enumerate(bands):
            band = (p["y"] >= lo) & (p["y"] < hi)
            for k in range(layers):
                m = band & (distance >= k) & (distance < k + 1)
                if m.any():
                    sums[b, k] += p["pressure"][m].mean() / args.rho_g_h
                    counts[b, k] += 1
            m = band & (distance < 1)
            first_layer[b] += m.sum()
            near[b] += (m & (distance < 0.5)).sum()
    print(f"{args.run}, frames {args.first}..{args.last - 1}: mean p / rho g H by layer from the wall")
    print("height m      " + "  ".join(f"layer {k + 1}" for k in range(layers)) + "   first layer within s/2")
    for b, (lo, hi) in enumerate(bands):
        values = sums[b] / np.maximum(counts[b], 1)
        share = 100 * near[b] / max(first_layer[b], 1)
        print(f"{lo:.2f}-{hi:.2f}    " + "  ".join(f"{v:7.3f}" for v in values) + f"   {share:5.1f} %")


if __name__ == "__main__":
    main()
