#!/usr/bin/env python3
"""The pressure beside a wall, layer by layer, from a run's particle files (PLY with a pressure column).

usage: wall_layers.py RUN_DIR FIRST LAST [--wall X] [--spacing S] [--rho-g-h P] [--bands LO-HI,...]

Averages frames FIRST..LAST-1 (particles_NNNNNN.ply). For bands of height, prints the mean pressure of the
particles by distance from the wall at x = X (the Buchner scene's far wall, 3.22 m, by default), in layers
one spacing thick, divided by P (rho g H of the Buchner scene, 1000 * 9.81 * 0.6, by default), and the
share of the first layer that sits nearer the wall than half a spacing. --bands sets the bands of height in
metres (by default 0-0.06,0.06-0.12,0.14-0.18: around P1; 0.55-0.62 is around P2). docs/validation.md ("What the
particles beside the wall read") uses it on scenes/validation/buchner_wall_pressure.json.
"""
import argparse
import os
import struct
import sys

FIELDS = {"float": "f", "uint": "I", "int": "i", "double": "d", "uchar": "B"}


def read_ply(path):
    """x, y and pressure of every particle in a binary little-endian PLY file"""
    with open(path, "rb") as f:
        data = f.read()
    end = data.index(b"end_header\n") + len(b"end_header\n")
    names, codes = [], "<"
    for line in data[:end].decode().splitlines():
        words = line.split()
        if words[:1] == ["property"]:
            names.append(words[2])
            codes += FIELDS.get(words[1], "?")
    if "pressure" not in names or "?" in codes or b"binary_little_endian" not in data[:end]:
        print(f"wall_layers: {path}: not a binary little-endian PLY with a pressure column (a solver with "
              "pressure: wcsph or dfsph)", file=sys.stderr)
        sys.exit(2)
    x, y, p = names.index("x"), names.index("y"), names.index("pressure")
    return [(r[x], r[y], r[p]) for r in struct.iter_unpack(codes, data[end:])]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("run")
    parser.add_argument("first", type=int)
    parser.add_argument("last", type=int)
    parser.add_argument("--wall", type=float, default=3.22)
    parser.add_argument("--spacing", type=float, default=0.015)
    parser.add_argument("--rho-g-h", type=float, default=1000 * 9.81 * 0.6)
    parser.add_argument("--bands", default="0-0.06,0.06-0.12,0.14-0.18")
    args = parser.parse_args()
    try:
        bands = [tuple(float(v) for v in band.split("-")) for band in args.bands.split(",")]
        if any(len(band) != 2 or not band[0] < band[1] for band in bands):
            raise ValueError
    except ValueError:
        print(f"wall_layers: --bands ({args.bands}) must be LO-HI pairs of heights in metres, LO below HI, "
              "separated by commas (0.14-0.18,0.55-0.62)", file=sys.stderr)
        sys.exit(2)
    if not args.spacing > 0:
        print(f"wall_layers: --spacing ({args.spacing}) must be above 0", file=sys.stderr)
        sys.exit(2)
    if args.last <= args.first:
        print(f"wall_layers: LAST ({args.last}) must be above FIRST ({args.first})", file=sys.stderr)
        sys.exit(2)
    for frame in (args.first, args.last - 1):
        path = f"{args.run}/particles_{frame:06d}.ply"
        if not os.path.isfile(path):
            print(f"wall_layers: {path}: no such file (RUN_DIR must hold the PLY particle files of an eddy run "
                  "with output.particles true, frames FIRST to LAST - 1)", file=sys.stderr)
            sys.exit(2)
    layers = 4
    # per band: the sum over frames of each layer's mean pressure, and the frames where the layer is wet
    sums = [[0.0] * layers for _ in bands]
    counts = [[0] * layers for _ in bands]
    near = [0] * len(bands)
    first_layer = [0] * len(bands)
    for frame in range(args.first, args.last):
        frame_sum = [[0.0] * layers for _ in bands]
        frame_count = [[0] * layers for _ in bands]
        for x, y, pressure in read_ply(f"{args.run}/particles_{frame:06d}.ply"):
            distance = (args.wall - x) / args.spacing
            if not 0 <= distance < layers:
                continue
            for b, (lo, hi) in enumerate(bands):
                if lo <= y < hi:
                    k = int(distance)
                    frame_sum[b][k] += pressure
                    frame_count[b][k] += 1
                    if k == 0:
                        first_layer[b] += 1
                        near[b] += distance < 0.5
        for b in range(len(bands)):
            for k in range(layers):
                if frame_count[b][k]:
                    sums[b][k] += frame_sum[b][k] / frame_count[b][k] / args.rho_g_h
                    counts[b][k] += 1
    print(f"{args.run}, frames {args.first}..{args.last - 1}: mean p / rho g H by layer from the wall")
    print("height m      " + "  ".join(f"layer {k + 1}" for k in range(layers)) + "   first layer within s/2")
    for b, (lo, hi) in enumerate(bands):
        values = [sums[b][k] / max(counts[b][k], 1) for k in range(layers)]
        share = 100 * near[b] / max(first_layer[b], 1)
        print(f"{lo:.2f}-{hi:.2f}    " + "  ".join(f"{v:7.3f}" for v in values) + f"   {share:5.1f} %")


if __name__ == "__main__":
    main()
