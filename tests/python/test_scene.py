"""Scenes from files, dicts and JSON text: the CLI's validation, overrides and messages."""
import json
import subprocess

import pytest

import eddy
from conftest import SCENES


def test_file_dict_and_json_give_the_same_resolved_scene():
    from_file = eddy.Scene.load(SCENES / "dam_break.json")
    from_dict = eddy.Scene.from_dict(from_file.to_dict())
    from_json = eddy.Scene.from_json(from_file.to_json())
    assert from_dict.to_json() == from_file.to_json()
    assert from_json.to_json() == from_file.to_json()
    assert from_file.solver == "pbf" and from_file.fps == 60 and from_file.frames == 120


def test_overrides_take_values_as_json():
    scene = eddy.Scene.load(SCENES / "dam_break.json",
                            set={"pbf.iterations": 6, "solver": "wcsph", "forces.gravity": [0, -3, 0]})
    d = scene.to_dict()
    assert d["pbf"]["iterations"] == 6
    assert d["solver"] == "wcsph"
    assert d["forces"]["gravity"] == [0, -3, 0]


def test_resolved_scene_has_every_key_filled():
    box = {"type": "box", "center": [0.5, 0.3, 0.5], "half_extents": [0.1, 0.1, 0.1]}
    d = eddy.Scene.from_dict({"solver": "mpm", "emitters": [{"shape": box}]}).to_dict()
    assert d["solver"] == "mpm" and d["emitters"][0]["type"] == "volume"
    assert d["time"]["fps"] == 60 and d["fluid"]["spacing"] > 0


def cli_error(cli, args):
    run = subprocess.run([cli] + args, capture_output=True, text=True)
    assert run.returncode == 2, run.stderr
    line = run.stderr.strip().splitlines()[-1]
    assert line.startswith("eddy: error: ")
    return line[len("eddy: error: "):]


def test_bad_override_raises_the_cli_message(cli, tmp_path):
    scene = str(SCENES / "dam_break.json")
    expected = cli_error(cli, ["run", scene, "--set", "pbf.iterations=-1", "--out", str(tmp_path / "run")])
    with pytest.raises(ValueError) as e:
        eddy.Scene.load(scene, set={"pbf.iterations": -1})
    assert str(e.value) == expected
    assert "/pbf/iterations" in str(e.value) and "--set 'pbf.iterations=-1'" in str(e.value)
    assert not (tmp_path / "run").exists()


def test_unknown_key_raises_the_cli_message(cli, tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"solver": "pbf", "pbff": {}}))
    expected = cli_error(cli, ["run", str(bad), "--out", str(tmp_path / "run")])
    with pytest.raises(ValueError) as e:
        eddy.Scene.load(bad)
    assert str(e.value) == expected and "unknown key '/pbff'" in str(e.value)


def test_bad_input_names_what_is_allowed():
    with pytest.raises(ValueError, match="scene file '/nonexistent/scene.json' not found"):
        eddy.Scene.load("/nonexistent/scene.json")
    with pytest.raises(ValueError, match="<dict>: .*/solver"):
        eddy.Scene.from_dict({"solver": "sph"})
    with pytest.raises(ValueError, match="not JSON"):
        eddy.Scene.from_dict({"solver": object()})
    with pytest.raises(ValueError, match="key paths"):
        eddy.Scene.default(set={"": 1})
    with pytest.raises(ValueError, match="a dict"):
        eddy.Scene.default(set=["pbf.iterations=6"])
    with pytest.raises(ValueError, match="from_json"):
        eddy.Scene.from_json({"solver": "pbf"})
    with pytest.raises(ValueError, match="backend 'gpu'"):
        eddy.Simulation(backend="gpu")
    with pytest.raises(ValueError, match="scene: an eddy.Scene"):
        eddy.Simulation(scene=42)


def test_a_python_without_numpy_is_told_which_python_to_use():
    import subprocess
    import sys
    run = subprocess.run([sys.executable, "-c", "import sys; sys.modules['numpy'] = None; import eddy"],
                         capture_output=True, text=True, timeout=60)
    assert run.returncode != 0
    assert "eddy needs numpy" in run.stderr and sys.executable in run.stderr and "Python module ON" in run.stderr
