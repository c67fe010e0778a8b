#!/usr/bin/env python3
"""Runs every `eddy` command that README.md and docs/*.md show, made small, and prints a table of what each
returned. Run it in a fresh clone with a build at build/bin/eddy (and without ../shared beside it) to see
that the examples need nothing from outside the repository:

    git clone . /tmp/fresh && mkdir -p /tmp/fresh/build && cp -r build/bin /tmp/fresh/build/
    cd /tmp/fresh && python3 scripts/doc_commands.py

Made small: `eddy run` and `eddy view` 2 frames (`view` offscreen), spacings below 0.01 m raised to 0.01,
`eddy bench` 4,096 particles, 2 substeps after 1 warm-up (`--realtime` 2 frames), `eddy render` 160x90
pictures, `eddy mesh-info --sdf-resolution` 32. The commands run in the order the files show them, so the
renders find the runs before them. Usage lines with placeholders (SCENE, [--frames N]) and commands over
shell variables are skipped. Exit status 1 when a command fails with input or usage errors (2) or
crashes; a runtime failure (1), such as no GPU for `--backend cuda`, is reported but not counted.
"""
import glob
import os
import re
import shlex
import subprocess
import sys

EDDY = "./build/bin/eddy"


def commands(path):
    """(line, words after eddy) for every ./build/bin/eddy command, and `eddy ...` lines of fenced blocks."""
    lines = open(path, encoding="utf-8").read().split("\n")
    block = False
    i = 0
    while i < len(lines):
        line, at_line = lines[i], i + 1
        if line.startswith("```"):
            block = not block
            i += 1
            continue
        found = []
        if block or line.startswith("    "):
            at = line.find(EDDY + " ")
            if at < 0 and block and line.startswith("eddy "):
                at = 0
            if at >= 0:
                cmd = line[at:]
                while cmd.endswith("\\") and i + 1 < len(lines):
                    i += 1
                    cmd = cmd[:-1] + " " + lines[i]
                found.append(cmd)
        else:
            found += re.findall(r"`(\./build/bin/eddy [^`]*)`", line)
        for cmd in found:
            cmd = cmd.split(";")[0]
            if "$" in cmd or "[" in cmd.split("--set")[0] or re.search(r"\b(SCENE|DIR|FILE|OUT)\b", cmd):
                continue
            words = shlex.split(cmd, comments=True)
            yield at_line, words[1:]
        i += 1


def shrink(args):
    if not args:
        return args
    cmd, rest = args[0], list(args[1:])
    out = [cmd]
    skip = set()
    for k, a in enumerate(rest):
        if k in skip:
            continue
        value = rest[k + 1] if k + 1 < len(rest) else None
        if a == "--frames" and cmd in ("run", "view"):
            skip.add(k + 1)
            continue
        if a == "--set" and value and value.startswith("fluid.spacing="):
            skip.add(k + 1)
            spacing = max(float(value.split("=")[1]), 0.01)
            out += ["--set", f"fluid.spacing={spacing}"]
            continue
        if a == "--set" and value and value.startswith("time.frames="):
            skip.add(k + 1)
            out += ["--set", "time.frames=2"]
            continue
        if a in ("--particles", "--substeps", "--warmup") and cmd == "bench":
            skip.add(k + 1)
            continue
        if a in ("--size", "--render-size"):
            skip.add(k + 1)
            out += [a, "160x90"]
            continue
        if a == "--sdf-resolution":
            skip.add(k + 1)
            out += [a, "32"]
            continue
        out.append(a)
    if cmd in ("run", "view") and "--resume" not in out:
        out += ["--frames", "2"]
    if cmd == "view" and "--offscreen" not in out:
        out.append("--offscreen")
    if cmd == "bench":
        if "--realtime" in out:
            if not any(w.startswith("time.frames=") for w in out):
                out += ["--set", "time.frames=2"]
        else:
            out += ["--particles", "4096", "--substeps", "2", "--warmup", "1"]
    if cmd in ("run", "surface", "render") and "--quiet" not in out and "-q" not in out:
        out.append("--quiet")
    return out


def main():
    files = ["README.md"] + sorted(glob.glob("docs/*.md"))
    failed = 0
    rows = []
    for path in files:
        for line, args in commands(path):
            run = [EDDY] + shrink(args)
            try:
                p = subprocess.run(run, capture_output=True, text=True, timeout=900)
                code, err = p.returncode, (p.stderr.strip().split("\n") or [""])[-1]
            except subprocess.TimeoutExpired:
                code, err = "timeout", ""
            bad = code not in (0, 1)
            failed += bad
            rows.append((f"{path}:{line}", code, " ".join(shlex.quote(w) for w in args), err if code else ""))
            print(f"{'FAIL' if bad else 'ok  '} {code!s:>7}  {path}:{line}  eddy {' '.join(args)}"
                  + (f"\n               {err}" if code else ""), flush=True)
    print(f"{len(rows)} commands, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
