"""PyTorch reading the GPU's particles in place: the centre of mass and the spread of the water computed
by torch after every frame, without a copy to the host (eddy's CUDA backend; needs torch and a GPU).

    python3 examples/python/torch_positions.py [--frames 60] [--spacing 0.02]
"""
import argparse

import torch

import eddy


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--frames", type=int, default=60)
    parser.add_argument("--spacing", type=float, default=0.02, help="particle spacing, m")
    args = parser.parse_args()
    if not eddy.cuda_available():
        raise SystemExit("torch_positions.py: needs eddy's CUDA backend and a GPU (eddy.cuda_available() is False)")

    sim = eddy.Simulation(set={"fluid.spacing": args.spacing}, backend="cuda")
    positions = torch.from_dlpack(sim.positions)  # the engine's memory: refreshed by every step, no copy
    print("frame  centre_x  centre_y  spread_m   (%d particles on %s)" % (sim.particle_count,
                                                                        eddy.cuda_device_name()))
    for _ in range(args.frames):
        sim.step()
        centre = positions.mean(dim=0)
        spread = (positions - centre).norm(dim=1).mean()
        print("%5d  %8.4f  %8.4f  %8.4f" % (sim.frame, centre[0].item(), centre[1].item(), spread.item()))


if __name__ == "__main__":
    main()
