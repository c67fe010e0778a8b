"""A parameter sweep: PBF's constraint iterations against the water's compression, one simulation each.

    python3 examples/python/parameter_sweep.py [--frames 30] [--spacing 0.03] [--iterations 1 2 4 8]

Prints, for each setting, the largest density error over the run and the wall time it took.
"""
import argparse
import time

import eddy


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--frames", type=int, default=30)
    parser.add_argument("--spacing", type=float, default=0.03, help="particle spacing, m")
    parser.add_argument("--iterations", type=int, nargs="+", default=[1, 2, 4, 8])
    parser.add_argument("--backend", default="auto", choices=["auto", "cpu", "cuda"])
    args = parser.parse_args()

    base = eddy.Scene.default(set={"fluid.spacing": args.spacing})
    print("iterations  max_density_error  wall_s")
    for n in args.iterations:
        sim = eddy.Simulation(base, set={"pbf.iterations": n}, backend=args.backend)
        start = time.perf_counter()
        worst = 0.0
        for _ in range(args.frames):
            sim.step()
            worst = max(worst, sim.stats()["max_density_error"])
        print("%10d  %17.4f  %6.2f" % (n, worst, time.perf_counter() - start))


if __name__ == "__main__":
    main()
