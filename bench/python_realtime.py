#!/usr/bin/env python3
"""What stepping from Python costs against the eddy program: `eddy bench --realtime` and the same loop from
Python (one frame a call, its statistics read, as `eddy run` and the benchmark do), alternated in one run.

    PYTHONPATH=build/python python3 bench/python_realtime.py --eddy build/bin/eddy [--backend cpu]
        [--scene scenes/dam_break.json] [--rounds 3] [--set fluid.spacing=0.01 ...] [--torch]

Prints a table: per round, each side's median frame time and wall time for frames 2..N, and Python's
overhead on the wall time. --torch (CUDA backend) also reads the positions as a torch tensor after every
frame, counting the device-to-host copies the profiler sees (there should be none).
"""
import argparse
import json
import re
import statistics
import subprocess
import sys
import time

import eddy


def cli_round(args):
    command = [args.eddy, "bench", "--realtime", "--backend", args.backend]
    if args.scene:
        command.insert(3, args.scene)
    for s in args.set:
        command += ["--set", s]
    text = subprocess.run(command, check=True, capture_output=True, text=True).stdout
    median = float(re.search(r"frame ms\s+median ([0-9.]+)", text).group(1))
    wall = float(re.search(r"wall clock\s+([0-9.]+) s", text).group(1))
    return median, wall


def python_round(args, scene, positions_as_torch):
    sim = eddy.Simulation(scene, backend=args.backend)
    tensor = None
    if positions_as_torch:
        import torch
        tensor = torch.from_dlpack(sim.positions)
    # as the benchmark: the first frame pays for first touches, before the clock starts
    sim.step()
    sim.stats()
    frames = max(1, scene.frames - 1)
    times = []
    start = time.perf_counter()
    for _ in range(frames):
        t0 = time.perf_counter()
        sim.step()
        sim.stats()
        if tensor is not None:
            float(tensor[:, 1].max())  # a reduction on the GPU, one number back
        times.append(1000 * (time.perf_counter() - t0))
    wall = time.perf_counter() - start
    return statistics.median(times), wall


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--eddy", required=True, help="the eddy program of the same build")
    parser.add_argument("--scene", default="", help="a scene file (default: the built-in dam break)")
    parser.add_argument("--backend", default="cpu", choices=["cpu", "cuda"])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--set", action="append", default=[], help="KEY=VALUE, as eddy --set")
    parser.add_argument("--torch", action="store_true", help="read positions as a torch tensor each frame")
    args = parser.parse_args()

    overrides = {}
    for s in args.set + ["output.particles=false"]:
        key, value = s.split("=", 1)
        try:
            overrides[key] = json.loads(value)
        except ValueError:
            overrides[key] = value
    scene = eddy.Scene.load(args.scene, set=overrides) if args.scene else eddy.Scene.default(set=overrides)
    device = eddy.cuda_device_name() if args.backend == "cuda" else "CPU"
    print("scene '%s' (%s), backend %s (%s), frames 2..%d, %d rounds alternated"
          % (scene.name, scene.solver, args.backend, device, scene.frames, args.rounds))
    print("| round | eddy bench --realtime: median frame ms | wall s | Python: median frame ms | wall s | "
          "Python overhead (wall) |")
    print("|---|---|---|---|---|---|")
    overheads = []
    for r in range(args.rounds):
        cli_median, cli_wall = cli_round(args)
        py_median, py_wall = python_round(args, scene, args.torch)
        overheads.append(100 * (py_wall / cli_wall - 1))
        print("| %d | %.3f | %.3f | %.3f | %.3f | %+.1f %% |" % (r + 1, cli_median, cli_wall, py_median, py_wall,
                                                            overheads[-1]))
        sys.stdout.flush()
    print("median overhead: %+.1f %%" % statistics.median(overheads))
    if args.torch:
        print("device-to-host copies over 10 frames (CUDA profiler): %d stepping alone, %d stepping and "
              "reading the positions as a torch tensor each frame (torch.from_dlpack, a mean on the GPU)"
              % (host_copies(scene, args.backend, False), host_copies(scene, args.backend, True)))


def host_copies(scene, backend, read):
    import torch
    sim = eddy.Simulation(scene, backend=backend)
    sim.step()
    torch.cuda.synchronize()
    with torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CUDA]) as prof:
        for _ in range(10):
            sim.step()
            if read:
                centre = torch.from_dlpack(sim.positions).mean(dim=0)  # stays on the GPU
        torch.cuda.synchronize()
    return sum(1 for e in prof.events() if "DtoH" in e.name or "Device -> Pageable" in e.name)

if __name__ == "__main__":
    main()
