"""docs/python.md documents every public name of the module, and names nothing the module lacks."""
import re

import eddy
from conftest import ROOT

DOC = (ROOT / "docs" / "python.md").read_text()


def public(cls):
    return {n for n in dir(cls) if not n.startswith("_")} | (
        {"__cuda_array_interface__", "__dlpack__", "__dlpack_device__"} if cls is eddy.CudaArray else set())


def documented():
    # headings and table rows name them as `Class.name` or `eddy.name`
    return set(re.findall(r"`((?:eddy|Scene|Simulation|CudaArray)\.[A-Za-z_]+)", DOC))


def test_every_public_name_is_documented():
    names = documented()
    missing = ["eddy." + n for n in eddy.__all__ if "eddy." + n not in names]
    for cls in (eddy.Scene, eddy.Simulation, eddy.CudaArray):
        missing += [cls.__name__ + "." + n for n in sorted(public(cls)) if cls.__name__ + "." + n not in names]
    assert not missing, "docs/python.md does not document " + ", ".join(missing)


def test_the_docs_name_nothing_the_module_lacks():
    stale = []
    for name in documented():
        owner, attr = name.split(".")
        target = eddy if owner == "eddy" else getattr(eddy, owner)
        if not hasattr(target, attr):
            stale.append(name)
    assert not stale, "docs/python.md names " + ", ".join(sorted(stale)) + ", which the module lacks"
