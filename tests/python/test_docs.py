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


def python_blocks(path):
    return re.findall(r"```python\n(.*?)```", path.read_text(), re.S)


def test_the_readmes_python_runs_as_written():
    import subprocess
    import sys
    blocks = python_blocks(ROOT / "README.md")
    assert len(blocks) == 1 and len(blocks[0].strip().splitlines()) == 3
    run = subprocess.run([sys.executable, "-c", blocks[0]], cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stderr
    assert 0.4 < float(run.stdout.split()[-1]) <= 1.6  # the front has left the column's 0.4 m


def test_the_python_pages_examples_run_as_written():
    import subprocess
    import sys
    blocks = python_blocks(ROOT / "docs" / "python.md")
    assert len(blocks) >= 2
    for block in blocks:
        run = subprocess.run([sys.executable, "-c", block], cwd=ROOT, capture_output=True, text=True,
                             timeout=600)
        assert run.returncode == 0, block + run.stderr
