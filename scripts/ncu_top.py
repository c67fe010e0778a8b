#!/usr/bin/env python3
"""The heaviest kernels of each solver from the CSV files of `scripts/gpu/profile.sh top`.

    python3 scripts/ncu_top.py DIR [--top 3] [--substeps 3]

DIR holds ncu_<solver>.csv (`ncu --csv --page raw` over `eddy bench ... --substeps 2 --warmup 1`, so each
step kernel ran 3 substeps' worth of times). Kernels are named after the function whose loop they run;
launches of the same kernel are grouped, and those that ran fewer times than there were substeps (set-up)
are left out. Prints a Markdown table per solver: time per substep (median launch times launches per
substep), its share of the substep, achieved DRAM bandwidth as a share of the peak, achieved occupancy and
registers per thread."""
import argparse
import csv
import os
import re
import statistics
import sys

COLUMNS = {
    "name": "Kernel Name",
    "ns": "gpu__time_duration.sum",
    "dram": "dram__throughput.avg.pct_of_peak_sustained_elapsed",
    "occupancy": "sm__warps_active.avg.pct_of_peak_sustained_active",
    "registers": "launch__registers_per_thread",
}


def number(text):
    return float(text.replace(",", ""))


def short_name(kernel):
    """the function a parallelFor loop sits in, or the library kernel's own name"""
    m = re.search(r"forEachKernel(?:Bounded)?<(?:\d+, )?(?:void )?(?:eddy::\w+::)?([\w:]+(?:<[^>]*>)?)\(", kernel)
    if m:
        lam = re.search(r"\(instance (\d+)\)", kernel)
        return m.group(1) + (" #%s" % lam.group(1) if lam and lam.group(1) != "1" else "")
    return re.sub(r"^void ", "", kernel).split("<")[0]


def read(path):
    lines = [line for line in open(path) if line.startswith('"')]
    rows = list(csv.reader(lines))
    if len(rows) < 3:
        sys.exit("ncu_top: %s: no kernel rows" % path)
    header = rows[0]
    try:
        index = {key: header.index(column) for key, column in COLUMNS.items()}
    except ValueError as e:
        sys.exit("ncu_top: %s: %s" % (path, e))
    return [{key: row[i] for key, i in index.items()} for row in rows[2:]]


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("dir")
    parser.add_argument("--top", type=int, default=3)
    parser.add_argument("--substeps", type=int, default=3)
    args = parser.parse_args()
    for solver in ("pbf", "wcsph", "mpm"):
        path = os.path.join(args.dir, "ncu_%s.csv" % solver)
        if not os.path.isfile(path):
            continue
        groups = {}
        for row in read(path):
            groups.setdefault(short_name(row["name"]), []).append(row)
        kernels = []
        for name, rows in groups.items():
            if len(rows) < args.substeps:
                continue
            per_substep = len(rows) / args.substeps
            median = statistics.median(number(r["ns"]) for r in rows) / 1e6
            kernels.append((median * per_substep, name, per_substep, median,
                            statistics.median(number(r["dram"]) for r in rows),
                            statistics.median(number(r["occupancy"]) for r in rows), number(rows[0]["registers"])))
        total = sum(k[0] for k in kernels)
        print("%s: %.3f ms of kernels per substep (Nsight Compute, clocks as found)\n" % (solver, total))
        print("| kernel | ms per substep | share | launches per substep | DRAM % of peak | occupancy % | registers |")
        print("|---|---:|---:|---:|---:|---:|---:|")
        for k in sorted(kernels, reverse=True)[: args.top]:
            print("| `%s` | %.3f | %.0f %% | %g | %.1f | %.1f | %d |" % (k[1], k[0], 100 * k[0] / total, k[2], k[4], k[5], k[6]))
        print()


if __name__ == "__main__":
    main()
