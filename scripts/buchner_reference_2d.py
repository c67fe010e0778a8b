#!/usr/bin/env python3
"""An independent two-dimensional delta-SPH run of the Buchner (2002) wall-pressure dam break, to compare
eddy's wall pressure with what a textbook weakly compressible SPH gives on the same set-up.

    python3 scripts/buchner_reference_2d.py OUT_DIR [--per-height 40] [--until 7.3]

It shares no code with eddy. The scheme is the one of Marrone et al. (2011), "delta-SPH model for
simulating violent impact flows", CMAME 200, with Molteni & Colagrossi's (2009) density diffusion (delta = 0.1,
without the renormalised gradient), Monaghan's artificial viscosity (alpha = 0.02) between fluid particles,
the Wendland C2 kernel with h = 2 spacings (support 4 spacings), Tait's equation of state (gamma = 7) at
c = 20 sqrt(gH) as in scenes/validation/buchner_wall_pressure.json, and four layers of dummy particles at the
walls whose pressure is extrapolated from the fluid with the hydrostatic term (Adami, Hu & Adams 2012,
"A generalized wall boundary condition for smoothed particle hydrodynamics", JCP 231), free slip. The column
(H = 0.6 m, 2H wide, tank 3.22 m) starts at rest with its hydrostatic density. Symplectic Euler: the density
first, then the velocity from the pressure of the new density, then the position.

OUT_DIR/probes.csv gets, every 10 steps, the pressure (Pa) at P1 (x = 3.22 m, y = 0.16 m) and P2 (y = 0.584 m)
read as eddy's point probes read it (a Shepard average of the fluid within the kernel support), and
P1face/P2face: the mean over ten points of a sensor face 0.09 m tall whose top is at the sensor's height (dry
points read 0), as TrixiParticles' validation of this case places its sensors (citing Adami et al. 2012 for the shift).
scripts/buchner_compare.py OUT_DIR then compares P1 and P2 with the measurements. Needs numpy (scipy's
k-d tree is used when present: about 6 minutes to T = 3.7 at H/40 on one core, twice that without).
"""
import argparse
import os
import sys
import time

try:
    import numpy as np
except ImportError:
    sys.exit("buchner_reference_2d: needs numpy (Debian: apt-get install python3-numpy; scipy, python3-scipy, "
             "makes it twice as fast)")

try:
    from scipy.spatial import cKDTree
except ImportError:
    cKDTree = None

H, LENGTH, WIDTH, G, RHO0 = 0.6, 3.22, 1.2, 9.81, 1000.0


def neighbour_pairs(x, reach):
    """pairs (i < j) closer than reach"""
    if cKDTree is not None:
        p = cKDTree(x).query_pairs(reach, output_type="ndarray")
        return p[:, 0], p[:, 1]
    cell = np.floor((x - x.min(0)) / reach).astype(np.int64)
    rows = cell[:, 1].max() + 3
    key = (cell[:, 0] + 1) * rows + cell[:, 1] + 1
    order = np.argsort(key, kind="stable")
    sorted_key = key[order]
    firsts, seconds = [], []
    for ox in (-1, 0, 1):
        for oy in (-1, 0, 1):
            other = key + ox * rows + oy
            begin = np.searchsorted(sorted_key, other, "left")
            count = np.searchsorted(sorted_key, other, "right") - begin
            total = int(count.sum())
            i = np.repeat(np.arange(len(x)), count)
            offset = np.repeat(np.cumsum(count) - count, count)
            j = order[np.repeat(begin, count) + np.arange(total) - offset]
            keep = i < j
            firsts.append(i[keep])
            seconds.append(j[keep])
    i, j = np.concatenate(firsts), np.concatenate(seconds)
    d = x[i] - x[j]
    close = (d * d).sum(1) < reach * reach
    return i[close], j[close]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("out_dir")
    ap.add_argument("--per-height", type=int, default=40, help="particles across H (40: H/40)")
    ap.add_argument("--until", type=float, default=7.3, help="end time in T = t sqrt(g/H)")
    a = ap.parse_args()
    os.makedirs(a.out_dir, exist_ok=True)

    dx = H / a.per_height
    h = 2 * dx
    reach = 2 * h
    c = 20 * np.sqrt(G * H)
    stiffness = RHO0 * c * c / 7
    alpha, delta = 0.02, 0.1
    mass = RHO0 * dx * dx
    top = 4.0  # the run-up climbs past 2 m

    xs, ys = np.meshgrid(np.arange(dx / 2, WIDTH, dx), np.arange(dx / 2, H, dx))
    fluid_x = np.stack([xs.ravel(), ys.ravel()], 1)
    nf = len(fluid_x)
    layers = [dx / 2 + k * dx for k in range(4)]
    side_x = [-o for o in layers] + [LENGTH + o for o in layers]
    floor_x = np.arange(dx / 2, LENGTH, dx)
    floor_y = [-o for o in layers]
    wall_y = list(np.arange(dx / 2, top, dx))
    walls = [(px, py) for px in side_x for py in floor_y + wall_y] + [(px, py) for px in floor_x for py in floor_y]
    x = np.concatenate([fluid_x, np.array(walls)])
    n = len(x)
    fluid = np.zeros(n, bool)
    fluid[:nf] = True
    v = np.zeros((n, 2))
    rho = np.full(n, RHO0)
    rho[:nf] = RHO0 * (1 + RHO0 * G * (H - fluid_x[:, 1]) / stiffness) ** (1 / 7)
    gravity = np.array([0.0, -G])

    norm = 7 / (4 * np.pi * h * h)

    def kernel(r):
        q = r / h
        return norm * np.clip(1 - q / 2, 0, None) ** 4 * (2 * q + 1)

    def kernel_slope(r):  # dW/dr
        q = r / h
        return norm * -5 * q * np.clip(1 - q / 2, 0, None) ** 3 / h

    def pressure_of(density):
        return stiffness * ((density / RHO0) ** 7 - 1)

    def shepard(p, point):
        d = np.linalg.norm(x[:nf] - point, axis=1)
        near = d < reach
        w = kernel(d[near]) * mass / rho[:nf][near]
        return (w * p[:nf][near]).sum() / w.sum() if w.sum() > 0 else 0.0

    def face(p, top_y):
        return float(np.mean([shepard(p, np.array([LENGTH, y])) for y in np.linspace(top_y, top_y - 0.09, 10)]))

    dt = 0.2 * h / c
    scale = np.sqrt(G / H)
    t, step, rows, started = 0.0, 0, [], time.time()
    while t * scale < a.until:
        i, j = neighbour_pairs(x, reach)
        keep = fluid[i] | fluid[j]
        i, j = i[keep], j[keep]
        d = x[i] - x[j]
        r = np.maximum(np.linalg.norm(d, axis=1), 1e-12)
        grad = (kernel_slope(r) / r)[:, None] * d  # grad_i W_ij
        both = fluid[i] & fluid[j]
        # continuity (the walls at rest) and density diffusion between fluid particles
        vij = v[i] - v[j]
        div = (vij * grad).sum(1)
        rate = np.zeros(n)
        np.add.at(rate, i, mass * div * rho[i] / rho[j])
        np.add.at(rate, j, mass * div * rho[j] / rho[i])
        diffusion = delta * h * c * 2 * (rho[j] - rho[i]) * (-d * grad).sum(1) / (r * r + 0.01 * h * h)
        diffusion = np.where(both, diffusion * mass / rho[j], 0.0)
        np.add.at(rate, i, diffusion)
        np.add.at(rate, j, -diffusion)
        rho[:nf] += dt * rate[:nf]
        p = pressure_of(rho)
        # the dummies' pressure from the fluid around them, with the hydrostatic step to each (Adami 2012)
        fw = np.where(fluid[i] & ~fluid[j], i, j)
        wf = np.where(fluid[i] & ~fluid[j], j, i)
        mixed = fluid[i] != fluid[j]
        fw, wf = fw[mixed], wf[mixed]
        w = kernel(np.linalg.norm(x[fw] - x[wf], axis=1))
        num, den = np.zeros(n), np.zeros(n)
        np.add.at(num, wf, (p[fw] + rho[fw] * ((x[wf] - x[fw]) @ gravity)) * w)
        np.add.at(den, wf, w)
        wall = ~fluid
        p[wall] = np.where(den[wall] > 0, num[wall] / np.maximum(den[wall], 1e-30), 0.0)
        rho[wall] = RHO0 * np.maximum(p[wall] / stiffness + 1, 1e-6) ** (1 / 7)
        # momentum: pressure, and artificial viscosity between fluid particles
        force = -(mass * (p[i] + p[j]) / (rho[i] * rho[j]))[:, None] * grad
        approach = (vij * d).sum(1)
        mu = h * approach / (r * r + 0.01 * h * h)
        pi = np.where((approach < 0) & both, -alpha * c * mu / (0.5 * (rho[i] + rho[j])), 0.0)
        force -= (mass * pi)[:, None] * grad
        acc = np.zeros((n, 2))
        np.add.at(acc, i, force)
        np.add.at(acc, j, -force)
        v[:nf] += dt * (acc[:nf] + gravity)
        x[:nf] += dt * v[:nf]
        t += dt
        step += 1
        if step % 10 == 0:
            rows.append((t, shepard(p, np.array([LENGTH, 0.16])), shepard(p, np.array([LENGTH, 0.584])),
                         face(p, 0.16), face(p, 0.584)))
        if step % 1000 == 0:
            print("T = %.2f, front x = %.3f m, %.0f s" % (t * scale, x[:nf, 0].max(), time.time() - started),
                  flush=True)
            if not np.isfinite(x[:nf]).all():
                sys.exit("buchner_reference_2d: the run blew up at T = %.2f" % (t * scale))
    path = os.path.join(a.out_dir, "probes.csv")
    with open(path + ".tmp", "w") as f:
        f.write("time,P1.pressure,P2.pressure,P1face.pressure,P2face.pressure\n")
        for row in rows:
            f.write(",".join("%.6g" % q for q in row) + "\n")
    os.replace(path + ".tmp", path)
    print("%d steps, %d fluid particles; wrote %s" % (step, nf, path))


if __name__ == "__main__":
    main()
