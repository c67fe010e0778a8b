#!/usr/bin/env python3
"""Checks that source folders include only folders on their own floor or below.

The floors (lowest first) are the declared layering of eddy; docs/architecture.md draws them. A file may
include headers from its own folder, from any folder on a lower floor, and the public headers <eddy/...>.
`render/` and `viewer/` are clients of the engine: below them they may see only the public headers,
`io/` (file formats) and `render/`, never the engine's own folders; and the engine never includes `io/`.
The CLI (`apps/`), the Python module (`python/`) and the examples (`examples/`) are built on the public
headers alone (the renderer's and the viewer's among them: <eddy/picture.h>, <eddy/render.h>,
<eddy/viewer.h>): they include nothing from `src/`.

Known exceptions are listed in ALLOWED with the reason they still exist; the check fails when an include
breaks the layering and is not listed, and when a listed exception no longer exists (so the list only
shrinks). Run: python3 scripts/check_layering.py [--list]
"""
import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent

# Floor of each folder under src/ (and apps/). Folders on one floor may not include each other.
FLOORS = {
    "core": 0,
    "backend": 1,
    "particles": 2,
    "colliders": 2,
    "neighbors": 3,
    "emitters": 3,
    "solvers": 4,
    "probes": 5,
    "surface": 5,
    "sim": 6,
    "io": 7,
    "render": 8,
    "viewer": 9,
    "apps": 10,
}
# Clients of the engine: they reach it only through include/eddy.
CLIENTS = {"render", "viewer", "apps"}
ENGINE = {name for name in FLOORS if name not in CLIENTS and name != "io"}
# Built on include/eddy alone (and their own files).
PUBLIC_ONLY = {"python", "examples", "apps"}

# (including file, included header): why it is still allowed.
ALLOWED = {}

# quoted or bracketed: <render/camera.h> would compile too, since the renderer's library hands src/ on
INCLUDE = re.compile(r'^\s*#\s*include\s+["<]([^">]+)[">]', re.MULTILINE)


def folder_of(path: pathlib.Path) -> str:
    rel = path.relative_to(ROOT)
    if rel.parts[0] in ("apps", "python", "examples"):
        return rel.parts[0]
    return rel.parts[1]


def allowed_target(source: str, target: str) -> bool:
    if target == source:
        return True
    if source in PUBLIC_ONLY:
        return False
    if source in CLIENTS:
        return (target in CLIENTS or target == "io") and FLOORS[target] < FLOORS[source]
    if source in ENGINE and target == "io":
        return False
    return FLOORS[target] < FLOORS[source]


def violations():
    found = []
    files = sorted(p for d in ("src", "apps", "python", "examples") for p in (ROOT / d).rglob("*")
                   if p.suffix in (".h", ".cpp", ".cu", ".cuh"))
    for path in files:
        source = folder_of(path)
        if source not in FLOORS and source not in PUBLIC_ONLY:
            found.append((path, "", f"folder '{source}' has no floor in scripts/check_layering.py"))
            continue
        for header in INCLUDE.findall(path.read_text(encoding="utf-8")):
            target = header.split("/")[0] if "/" in header else source
            if target not in FLOORS:
                continue  # a header beside the file, or a system header spelt with quotes
            if not allowed_target(source, target):
                if source in PUBLIC_ONLY:
                    why = f"{source} is built on include/eddy alone and includes {target}"
                else:
                    why = f"{source} (floor {FLOORS[source]}) includes {target} (floor {FLOORS[target]})"
                found.append((path, header, why))
    return found


def main() -> int:
    found = violations()
    listed = {(str(p.relative_to(ROOT)), h) for p, h, _ in found}
    unexpected = [(p, h, why) for p, h, why in found if (str(p.relative_to(ROOT)), h) not in ALLOWED]
    stale = sorted(key for key in ALLOWED if key not in listed)
    if "--list" in sys.argv:
        for p, h, why in found:
            print(f"{p.relative_to(ROOT)}: {h}: {why}")
    print(f"includes against the layering: {len(found)} ({len(found) - len(unexpected)} listed as known)")
    for p, h, why in unexpected:
        print(f"error: {p.relative_to(ROOT)} includes \"{h}\": {why}", file=sys.stderr)
    for p, h in stale:
        print(f"error: scripts/check_layering.py lists {p} -> {h}, which no longer exists: remove it",
              file=sys.stderr)
    return 1 if unexpected or stale else 0


if __name__ == "__main__":
    sys.exit(main())
