"""A collider driven from Python: the ball of scenes/sphere_obstacle.json stirred in a circle through the
water, its pose set between frames, and the force the water puts on it read back (WCSPH has pressure).

    python3 examples/python/drive_collider.py [--frames 60] [--spacing 0.03]
"""
import argparse
import math
import pathlib

import eddy

SCENE = pathlib.Path(__file__).resolve().parents[2] / "scenes" / "sphere_obstacle.json"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--frames", type=int, default=60)
    parser.add_argument("--spacing", type=float, default=0.03, help="particle spacing, m")
    parser.add_argument("--backend", default="auto", choices=["auto", "cpu", "cuda"])
    args = parser.parse_args()

    sim = eddy.Simulation(SCENE, set={"fluid.spacing": args.spacing, "solver": "wcsph"}, backend=args.backend)
    ball = 1  # the scene's colliders: the tank, then the ball
    radius, turn = 0.15, 1.0  # m, and seconds per turn
    print("frame  ball_x  ball_z   force_x_N  force_z_N")
    for _ in range(args.frames):
        t = sim.time
        w = 2 * math.pi / turn
        center = (radius * math.cos(w * t), 0.25, radius * math.sin(w * t))
        velocity = (-radius * w * math.sin(w * t), 0.0, radius * w * math.cos(w * t))
        sim.move_collider(ball, center, velocity)
        sim.step()
        pose = sim.collider_pose(ball)
        f = sim.forces()
        print("%5d  %6.3f  %6.3f  %10.2f %10.2f" % (sim.frame, pose["center"][0], pose["center"][2],
                                                   f["ball.fx"], f["ball.fz"]))


if __name__ == "__main__":
    main()
