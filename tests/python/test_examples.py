"""Every example in examples/python runs as written (with fewer frames and coarser particles)."""
import os
import subprocess
import sys

import pytest

import eddy
from conftest import ROOT

EXAMPLES = ROOT / "examples" / "python"


def run(name, *args):
    result = subprocess.run([sys.executable, str(EXAMPLES / name)] + list(args), capture_output=True, text=True,
                            env=dict(os.environ), timeout=600)
    assert result.returncode == 0, result.stderr
    return result.stdout.splitlines()


def test_every_example_has_a_test():
    tested = {"dam_break_numpy.py", "parameter_sweep.py", "drive_collider.py", "torch_positions.py"}
    assert {p.name for p in EXAMPLES.glob("*.py")} == tested


def test_dam_break_numpy():
    lines = run("dam_break_numpy.py", "--frames", "20", "--spacing", "0.04", "--backend", "cpu")
    assert len(lines) == 21
    front = [float(line.split()[2]) for line in lines[1:]]
    assert front[-1] > front[0] + 0.05  # the column collapses: its front runs along the floor


def test_parameter_sweep():
    lines = run("parameter_sweep.py", "--frames", "8", "--spacing", "0.05", "--iterations", "1", "6",
                "--backend", "cpu")
    errors = [float(line.split()[1]) for line in lines[1:]]
    assert len(errors) == 2 and errors[1] < errors[0]  # more iterations, less compression


def test_drive_collider():
    lines = run("drive_collider.py", "--frames", "6", "--spacing", "0.05", "--backend", "cpu")
    assert len(lines) == 7
    x = [float(line.split()[1]) for line in lines[1:]]
    assert x[0] == pytest.approx(0.15, abs=0.01) and x[-1] < x[0]  # on its circle


@pytest.mark.gpu
def test_torch_positions():
    pytest.importorskip("torch")
    lines = run("torch_positions.py", "--frames", "5", "--spacing", "0.04")
    assert len(lines) == 6
