#!/usr/bin/env python3
"""Writes the small closed meshes that ship in scenes/meshes/, so that the example scenes need nothing from
outside the repository (the Stanford models of the dragon_* and bunny_tank scenes are not shipped).

    python3 scripts/make_meshes.py [OUT_DIR]      # default scenes/meshes

- blob_bunny.obj: a star-shaped blob (every ray from the origin crosses the surface once, so the mesh cannot
  intersect itself): an ellipsoid body with a head, two long ears and a tail raised as smooth radial bumps
  on a subdivided icosahedron. Closed, manifold, genus 0. It holds water as a tank (scenes/blob_bunny_tank.json).
- trefoil_knot.obj: a tube around the (2, 3) torus knot, closed, manifold, genus 1, with thin parts for the
  signed distance field to resolve (scenes/knot_pour.json). The tube is swept along a rotation-minimising frame
  (double reflection, Wang, Jüttler, Zheng & Liu 2008, ACM TOG 27(1)) whose leftover twist at the seam is spread
  evenly along the curve, and the script checks that the tube cannot touch itself (its radius is below the
  curve's radius of curvature and below half the distance between any two strands).

Only the Python standard library; the output is the same on every run (no randomness).
"""
import math
import os
import sys


def normalize(v):
    n = math.sqrt(sum(c * c for c in v))
    return tuple(c / n for c in v)


def sub(a, b):
    return tuple(x - y for x, y in zip(a, b))


def dot(a, b):
    return sum(x * y for x, y in zip(a, b))


def cross(a, b):
    return (a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0])


def icosphere(levels):
    t = (1 + math.sqrt(5)) / 2
    verts = [normalize(v) for v in [(-1, t, 0), (1, t, 0), (-1, -t, 0), (1, -t, 0), (0, -1, t), (0, 1, t),
                                    (0, -1, -t), (0, 1, -t), (t, 0, -1), (t, 0, 1), (-t, 0, -1), (-t, 0, 1)]]
    faces = [(0, 11, 5), (0, 5, 1), (0, 1, 7), (0, 7, 10), (0, 10, 11), (1, 5, 9), (5, 11, 4), (11, 10, 2),
             (10, 7, 6), (7, 1, 8), (3, 9, 4), (3, 4, 2), (3, 2, 6), (3, 6, 8), (3, 8, 9), (4, 9, 5), (2, 4, 11),
             (6, 2, 10), (8, 6, 7), (9, 8, 1)]
    for _ in range(levels):
        midpoint = {}

        def mid(a, b):
            key = (min(a, b), max(a, b))
            if key not in midpoint:
                verts.append(normalize(tuple((x + y) / 2 for x, y in zip(verts[a], verts[b]))))
                midpoint[key] = len(verts) - 1
            return midpoint[key]

        refined = []
        for a, b, c in faces:
            ab, bc, ca = mid(a, b), mid(b, c), mid(c, a)
            refined += [(a, ab, ca), (b, bc, ab), (c, ca, bc), (ab, bc, ca)]
        faces = refined
    return verts, faces


def blob_bunny():
    """Radius along each direction: an ellipsoid body plus Gaussian bumps in the angle to a few directions."""
    verts, faces = icosphere(4)
    body = (1.0, 0.72, 0.7)
    # (direction, height, angular width in radians): head, two ears, tail
    bumps = [(normalize((0.8, 0.45, 0.0)), 0.42, 0.38), (normalize((0.42, 0.9, 0.2)), 0.85, 0.16),
             (normalize((0.3, 0.92, -0.2)), 0.8, 0.16), (normalize((-1.0, 0.25, 0.0)), 0.18, 0.22)]
    out = []
    for d in verts:
        r = 1 / math.sqrt(sum((c / a) ** 2 for c, a in zip(d, body)))
        for axis, height, width in bumps:
            angle = math.acos(max(-1.0, min(1.0, dot(d, axis))))
            r += height * math.exp(-((angle / width) ** 2))
        out.append(tuple(r * c for c in d))
    return out, faces


def torus_knot(t, p=2, q=3):
    r = 2 + math.cos(q * t)
    return (r * math.cos(p * t), r * math.sin(p * t), -math.sin(q * t))


def trefoil_knot(segments=192, sides=12, tube=0.42):
    curve = [torus_knot(2 * math.pi * i / segments) for i in range(segments)]
    tangents = [normalize(sub(curve[(i + 1) % segments], curve[i - 1])) for i in range(segments)]
    check_tube(tube)
    # rotation-minimising frame by double reflection, then the twist it is left with at the seam spread evenly
    normal = normalize(cross(tangents[0], (0.0, 0.0, 1.0)))
    normals = [normal]
    for i in range(segments):
        j = (i + 1) % segments
        v1 = sub(curve[j], curve[i])
        c1 = dot(v1, v1)
        rl = sub(normals[i], tuple(2 / c1 * dot(v1, normals[i]) * c for c in v1))
        tl = sub(tangents[i], tuple(2 / c1 * dot(v1, tangents[i]) * c for c in v1))
        v2 = sub(tangents[j], tl)
        c2 = dot(v2, v2)
        normals.append(sub(rl, tuple(2 / c2 * dot(v2, rl) * c for c in v2)))
    closing = normals[segments]
    twist = math.atan2(dot(cross(normals[0], closing), tangents[0]), dot(normals[0], closing))
    verts = []
    for i in range(segments):
        angle = -twist * i / segments
        n = normalize(normals[i])
        b = cross(tangents[i], n)
        for k in range(sides):
            phi = 2 * math.pi * k / sides + angle
            verts.append(tuple(c + tube * (math.cos(phi) * x + math.sin(phi) * y)
                               for c, x, y in zip(curve[i], n, b)))
    faces = []
    for i in range(segments):
        j = (i + 1) % segments
        for k in range(sides):
            l = (k + 1) % sides
            a, b, c, d = i * sides + k, i * sides + l, j * sides + l, j * sides + k
            faces += [(a, b, c), (a, c, d)]
    return verts, faces


def check_tube(tube, samples=720):
    """The tube of this radius around the knot cannot touch itself: radius of curvature and strand distance."""
    pts = [torus_knot(2 * math.pi * i / samples) for i in range(samples)]
    h = 2 * math.pi / samples
    for i in range(samples):
        a, b, c = pts[i - 1], pts[i], pts[(i + 1) % samples]
        d1 = tuple((z - x) / (2 * h) for x, z in zip(a, c))
        d2 = tuple((x - 2 * y + z) / (h * h) for x, y, z in zip(a, b, c))
        curvature = math.sqrt(dot(cross(d1, d2), cross(d1, d2))) / dot(d1, d1) ** 1.5
        assert tube * curvature < 0.9, "the tube is wider than the knot's radius of curvature"
    # points farther apart along the curve than half a turn of the tube's cross-section
    step = math.sqrt(dot(sub(pts[1], pts[0]), sub(pts[1], pts[0])))
    gap = int(math.ceil(4 * tube / step)) + 1
    closest = min(math.dist(pts[i], pts[j]) for i in range(samples) for j in range(i + gap, samples)
                  if samples - (j - i) >= gap)
    assert closest > 2.2 * tube, f"strands {closest:.3f} apart: the tube of radius {tube} would touch itself"


def write_obj(path, verts, faces, comment):
    with open(path, "w", newline="\n") as f:
        f.write(f"# {comment}\n# written by scripts/make_meshes.py: {len(verts)} vertices, {len(faces)} triangles\n")
        for v in verts:
            f.write("v %s %s %s\n" % tuple(f"{round(c, 5) + 0.0:.5f}" for c in v))
        for a, b, c in faces:
            f.write(f"f {a + 1} {b + 1} {c + 1}\n")


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..", "scenes", "meshes")
    os.makedirs(out, exist_ok=True)
    v, f = blob_bunny()
    write_obj(os.path.join(out, "blob_bunny.obj"), v, f,
              "a bunny-like blob: ellipsoid body, head, two ears and a tail as radial bumps (closed, genus 0)")
    v, f = trefoil_knot()
    write_obj(os.path.join(out, "trefoil_knot.obj"), v, f,
              "a tube around the (2, 3) torus knot (closed, genus 1)")


if __name__ == "__main__":
    main()
