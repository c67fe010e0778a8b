"""The default dam break, read as numpy arrays while it runs: the water front's position frame by frame.

    python3 examples/python/dam_break_numpy.py [--frames 60] [--spacing 0.02] [--backend auto]

The arrays are the engine's own memory (no copy on the CPU backend; .numpy() copies from the GPU).
"""
import argparse

import numpy as np

import eddy


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--frames", type=int, default=60)
    parser.add_argument("--spacing", type=float, default=0.02, help="particle spacing, m")
    parser.add_argument("--backend", default="auto", choices=["auto", "cpu", "cuda"])
    args = parser.parse_args()

    sim = eddy.Simulation(set={"fluid.spacing": args.spacing}, backend=args.backend)
    positions = sim.positions  # taken once: it shows the particles as they are after every step
    if not isinstance(positions, np.ndarray):
        positions = None  # on the GPU: copy each frame with .numpy()
    print("frame  time_s  front_m  height_m")
    for _ in range(args.frames):
        sim.step()
        p = positions if positions is not None else sim.positions.numpy()
        print("%5d  %6.3f  %7.3f  %8.3f" % (sim.frame, sim.time, p[:, 0].max(), p[:, 1].max()))


if __name__ == "__main__":
    main()
