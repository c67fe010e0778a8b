#!/usr/bin/env python3
"""The drafts of floating boxes against Archimedes, from an `eddy run` output folder.

usage: python3 scripts/floating_drafts.py OUT [--from SECONDS]

OUT holds a run of a scene whose rigid bodies are boxes (scenes/floating_boxes.json): its scene.json, its
bodies.csv and at least one particle file (PLY; `--set output.every=N` keeps just every N-th frame). A box
of density rho_b floats with rho_b / rho_f of its height under water (Archimedes). The water's surface is
taken from the last particle file: the highest particle of each column of one spacing, over the columns at
least three spacings clear of every body, plus half a spacing (the particles are the centres of cubes of
one spacing). A body's draft is that surface less its bottom, averaged over the rows of bodies.csv from
--from seconds (default: the last second). Prints a table; exits 2 naming the file on input it cannot read.
"""
import glob
import json
import os
import sys

import numpy as np


def fail(message):
    print(f"floating_drafts.py: {message}", file=sys.stderr)
    sys.exit(2)


def read_ply(path):
    with open(path, "rb") as f:
        data = f.read()
    end = data.find(b"end_header\n")
    if end < 0 or b"binary_little_endian" not in data[:end]:
        fail(f"{path}: not a binary little-endian PLY file")
    header = data[:end].decode("ascii", "replace").splitlines()
    count, fields = 0, []
    types = {"float": "<f4", "uint": "<u4", "int": "<i4", "double": "<f8"}
    for line in header:
        words = line.split()
        if words[:2] == ["element", "vertex"]:
            count = int(words[2])
        elif words[:1] == ["property"] and len(words) == 3:
            if words[1] not in types:
                fail(f"{path}: property type '{words[1]}' is not one eddy writes")
            fields.append((words[2], types[words[1]]))
    if not {"x", "y", "z"} <= {name for name, _ in fields}:
        fail(f"{path}: no x, y, z properties")
    body = data[end + len(b"end_header\n"):]
    kind = np.dtype(fields)
    if len(body) < count * kind.itemsize:
        fail(f"{path}: {count} particles announced, {len(body) // kind.itemsize} present")
    return np.frombuffer(body, dtype=kind, count=count)


def main(argv):
    if not argv or argv[0].startswith("-"):
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        sys.exit(2)
    out, start = argv[0], None
    if len(argv) == 3 and argv[1] == "--from":
        try:
            start = float(argv[2])
        except ValueError:
            fail(f"--from: '{argv[2]}' is not a number of seconds")
    elif len(argv) != 1:
        fail("usage: floating_drafts.py OUT [--from SECONDS]")
    scene_path = os.path.join(out, "scene.json")
    try:
        with open(scene_path) as f:
            scene = json.load(f)
    except (OSError, ValueError) as e:
        fail(f"{scene_path}: {e}")
    spacing = float(scene["fluid"]["spacing"])
    rho_f = float(scene["fluid"].get("rest_density", 1000))
    boxes = []
    for i, c in enumerate(scene.get("colliders", [])):
        if float(c.get("density", 0)) <= 0:
            continue
        shape = c.get("shape", {})
        if shape.get("type", "box") != "box":
            fail(f"{scene_path}: /colliders/{i} is a rigid {shape.get('type')}; only boxes have a draft here")
        name = c.get("name") or f"collider{i}"
        boxes.append((name, float(c["density"]), [float(v) for v in shape["half_extents"]]))
    if not boxes:
        fail(f"{scene_path}: no rigid bodies (colliders with a density)")

    bodies_path = os.path.join(out, "bodies.csv")
    try:
        rows = np.genfromtxt(bodies_path, delimiter=",", names=True, deletechars="")
    except (OSError, ValueError) as e:
        fail(f"{bodies_path}: {e}")
    if rows.size < 2:
        fail(f"{bodies_path}: fewer than two rows")
    time = rows["time"]
    if start is None:
        start = time[-1] - 1.0
    window = time >= start
    if not window.any():
        fail(f"--from: {start} s is after the last row of {bodies_path} ({time[-1]} s)")

    files = sorted(glob.glob(os.path.join(out, "particles_*.ply")))
    if not files:
        fail(f"{out}: no PLY particle files (particles_NNNNNN.ply); run with output.particles true and "
             "output.format ply")
    try:
        frame = int(os.path.basename(files[-1])[len("particles_"):-len(".ply")])
    except ValueError:
        fail(f"{files[-1]}: not named particles_NNNNNN.ply")
    frame_time = frame / float(scene.get("time", {}).get("fps", 60))
    if frame_time < start:
        fail(f"{files[-1]}: the last particle file is of {frame_time:.2f} s, before the bodies' window from "
             f"{start:.2f} s; the surface must be read when they have settled (output.every a divisor of "
             "the frames)")
    particles = read_ply(files[-1])
    x, y, z = particles["x"], particles["y"], particles["z"]
    clear = np.ones(len(x), dtype=bool)
    last = rows[-1]
    for name, _, half in boxes:
        reach = max(half) * 1.8 + 3 * spacing  # a box's footprint, turned any way, and three spacings
        clear &= np.hypot(x - last[f"{name}.x"], z - last[f"{name}.z"]) > reach
    if not clear.any():
        fail(f"{files[-1]}: no water three spacings clear of the bodies to read the surface from")
    columns = {}
    for cx, cz, cy in zip(np.floor(x[clear] / spacing), np.floor(z[clear] / spacing), y[clear]):
        key = (int(cx), int(cz))
        columns[key] = max(columns.get(key, -np.inf), float(cy))
    tops = np.array(list(columns.values()))
    surface = float(np.median(tops)) + spacing / 2

    print(f"{out}: {scene.get('solver', 'pbf')}, spacing {spacing} m; surface {surface:.4f} m "
          f"(the median of {len(tops)} columns' top particles in {os.path.basename(files[-1])}, plus half a "
          f"spacing); bodies from {start:.2f} s to {time[-1]:.2f} s")
    print(f"| body | density kg/m³ | draft m | Archimedes m | difference, % of the height | largest speed m/s |")
    print(f"|---|---:|---:|---:|---:|---:|")
    for name, rho_b, half in boxes:
        bottom = rows[f"{name}.y"][window] - half[1]
        draft = surface - float(np.mean(bottom))
        expected = 2 * half[1] * rho_b / rho_f
        speed = np.sqrt(rows[f"{name}.vx"] ** 2 + rows[f"{name}.vy"] ** 2 + rows[f"{name}.vz"] ** 2)[window]
        print(f"| {name} | {rho_b:.0f} | {draft:.4f} | {expected:.4f} | "
              f"{100 * (draft - expected) / (2 * half[1]):+.1f} | {float(np.max(speed)):.3f} |")


if __name__ == "__main__":
    main(sys.argv[1:])
