"""Shared set-up of the Python module's tests: where the build and the CLI are, small scenes, the gpu marker.

ctest runs this suite with PYTHONPATH=<build>/python and EDDY_CLI=<build>/bin/eddy; run by hand:
    PYTHONPATH=build/python EDDY_CLI=build/bin/eddy python3 -m pytest tests/python
"""
import os
import pathlib

import pytest

import eddy

ROOT = pathlib.Path(__file__).resolve().parents[2]
SCENES = ROOT / "scenes"


def pytest_configure(config):
    config.addinivalue_line("markers", "gpu: needs the CUDA backend and a GPU (skipped without one)")


def pytest_collection_modifyitems(config, items):
    if eddy.cuda_available():
        return
    skip = pytest.mark.skip(reason="no GPU here (eddy.cuda_available() is False): the CUDA cases skip")
    for item in items:
        if "gpu" in item.keywords:
            item.add_marker(skip)


@pytest.fixture
def cli():
    """The eddy program of the same build."""
    path = os.environ.get("EDDY_CLI")
    if not path or not pathlib.Path(path).exists():
        pytest.skip("EDDY_CLI does not name the eddy program (ctest sets it)")
    return path


# a coarse dam break: the default scene at 4 cm spacing (about 2,300 particles), a few frames
COARSE = {"fluid.spacing": 0.04, "time.frames": 6}


@pytest.fixture
def coarse_scene():
    return eddy.Scene.default(set=COARSE)
