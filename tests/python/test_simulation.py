"""Stepping, statistics, checkpoints, blow-ups and the interpreter left free while the engine runs."""
import json
import math
import subprocess
import threading

import numpy as np
import pytest

import eddy
from conftest import COARSE, SCENES


def test_step_and_advance_count_frames_and_time(coarse_scene):
    sim = eddy.Simulation(coarse_scene, backend="cpu")
    assert sim.backend == "cpu" and sim.frame == 0 and sim.time == 0
    sim.step()
    sim.step(2)
    assert sim.frame == 3 and sim.time == pytest.approx(3 / 60, abs=1e-12)
    sim.advance(2 / 60)
    assert sim.frame == 5 and sim.substeps == 5 * 4
    with pytest.raises(ValueError, match="frames of 1/60 s"):
        sim.advance(0.001)
    with pytest.raises(ValueError, match="whole number"):
        sim.step(1.5)
    assert sim.frame == 5


def test_stats_are_the_keys_of_stats_jsonl(cli, tmp_path, coarse_scene):
    sim = eddy.Simulation(coarse_scene, backend="cpu")
    sim.step(2)
    s = sim.stats()
    out = tmp_path / "run"
    subprocess.run([cli, "run", "--set", "fluid.spacing=0.04", "--frames", "2", "--backend", "cpu",
                    "--out", str(out), "-q"], check=True)
    line = json.loads((out / "stats.jsonl").read_text().splitlines()[-1])
    assert set(s) == set(line)
    assert s["frame"] == 2 and s["particles"] == sim.particle_count == line["particles"]
    for key in ("kinetic_energy", "max_speed", "mean_density_error", "max_density_error"):
        assert s[key] == pytest.approx(line[key], rel=1e-6), key


def test_python_and_cli_write_byte_identical_particle_files(cli, tmp_path):
    out = tmp_path / "run"
    subprocess.run([cli, "run", str(SCENES / "dam_break.json"), "--set", "fluid.spacing=0.04", "--frames", "3",
                    "--backend", "cpu", "--out", str(out), "-q"], check=True)
    sim = eddy.Simulation(SCENES / "dam_break.json", backend="cpu", set={"fluid.spacing": 0.04})
    positions = sim.positions  # arrays handed out: the engine keeps them in place from now on
    for frame in (1, 2, 3):
        sim.step()
        name = "particles_%06d.ply" % frame
        sim.write_particles(tmp_path / name)
        assert (tmp_path / name).read_bytes() == (out / name).read_bytes(), name
    assert positions.shape == (sim.particle_count, 3)


def test_checkpoint_resumes_bit_for_bit(tmp_path, coarse_scene):
    a = eddy.Simulation(coarse_scene, backend="cpu")
    a.step(2)
    a.save_checkpoint(tmp_path / "two.eddy")
    a.step(2)
    b = eddy.Simulation(coarse_scene, backend="cpu")
    b.load_checkpoint(tmp_path / "two.eddy")
    assert b.frame == 2
    b.step(2)
    ha, hb = a.to_host(), b.to_host()
    assert np.array_equal(ha["position"], hb["position"])
    assert np.array_equal(ha["id"], hb["id"])


def test_checkpoint_of_another_scene_is_refused_and_changes_nothing(tmp_path, coarse_scene):
    a = eddy.Simulation(coarse_scene, backend="cpu")
    a.step()
    a.save_checkpoint(tmp_path / "one.eddy")
    b = eddy.Simulation(eddy.Scene.default(set=dict(COARSE, **{"pbf.iterations": 6})), backend="cpu")
    before = b.to_host()["position"]
    with pytest.raises(ValueError, match="another scene: /pbf/iterations"):
        b.load_checkpoint(tmp_path / "one.eddy")
    with pytest.raises(ValueError, match="missing.eddy"):
        b.load_checkpoint(tmp_path / "missing.eddy")
    assert b.frame == 0 and np.array_equal(before, b.to_host()["position"])


def test_blow_up_raises_its_own_exception_and_stops_the_simulation(coarse_scene):
    sim = eddy.Simulation(coarse_scene, backend="cpu")
    sim.step()
    sim.positions[7] = np.nan  # a fault written through the engine's own memory
    with pytest.raises(eddy.BlowUp, match="not finite|frame 2") as e:
        sim.step()
    assert isinstance(e.value, RuntimeError)
    assert sim.frame == 1
    with pytest.raises(eddy.BlowUp, match="cannot go on"):
        sim.step()


def test_the_engine_runs_without_the_interpreter_lock():
    sim = eddy.Simulation(set={"time.frames": 8}, backend="cpu")
    counted = [0]
    stepping = threading.Thread(target=sim.step, args=(3,))
    stepping.start()
    while stepping.is_alive():
        counted[0] += 1
    stepping.join()
    assert sim.frame == 3
    # with the lock held through a frame the loop above could only run between frames
    assert counted[0] > 10000


def csv_rows(path):
    lines = path.read_text().splitlines()
    return lines[0].split(","), [[float(v) if v else float("nan") for v in line.split(",")] for line in lines[1:]]


def test_probes_and_forces_are_those_eddy_run_writes(cli, tmp_path):
    scene = SCENES / "validation" / "tank_at_rest.json"
    out = tmp_path / "run"
    subprocess.run([cli, "run", str(scene), "--frames", "3", "--backend", "cpu", "--out", str(out), "-q"],
                   check=True)
    sim = eddy.Simulation(scene, backend="cpu")
    probe_rows, force_rows = [], []
    for _ in range(3):
        sim.step()
        probe_rows += sim.take_probes().tolist()
        forces = sim.forces()
        force_rows.append([sim.time] + [forces[c] for c in sim.force_columns])
    assert sim.take_probes().shape[0] == 0  # taken
    header, rows = csv_rows(out / "probes.csv")
    assert header == ["time"] + sim.probe_columns and len(sim.probe_columns) > 0
    np.testing.assert_allclose(np.array(probe_rows), np.array(rows), rtol=1e-6, atol=1e-9, equal_nan=True)
    header, rows = csv_rows(out / "forces.csv")
    assert header == ["time"] + sim.force_columns and "domain.fy" in sim.force_columns
    np.testing.assert_allclose(np.array(force_rows), np.array(rows)[-3:], rtol=1e-6, atol=1e-9)


def test_surface_mesh_is_closed(coarse_scene):
    sim = eddy.Simulation(coarse_scene, backend="cpu")
    sim.step()
    vertices, triangles, normals = sim.surface_mesh()
    assert vertices.shape[1] == 3 and triangles.shape[1] == 3 and len(triangles) > 100
    assert normals.shape == vertices.shape and triangles.max() < len(vertices)
    edges = np.sort(np.concatenate([triangles[:, [0, 1]], triangles[:, [1, 2]], triangles[:, [2, 0]]]), axis=1)
    _, uses = np.unique(edges, axis=0, return_counts=True)
    assert np.all(uses == 2)


def test_colliders_driven_from_python():
    sim = eddy.Simulation(SCENES / "sphere_obstacle.json", backend="cpu", set={"fluid.spacing": 0.04})
    ball = 1  # colliders: the tank, then the ball
    start = sim.collider_pose(ball)
    assert start["center"] == pytest.approx((0, 0.25, 0)) and start["orientation"] == pytest.approx((1, 0, 0, 0))
    sim.step()
    sim.move_collider(ball, center=(0.1, 0.25, 0), velocity=(0.2, 0, 0))
    pose = sim.collider_pose(ball)
    assert pose["center"] == pytest.approx((0.1, 0.25, 0), abs=1e-6)
    assert pose["linear_velocity"] == pytest.approx((0.2, 0, 0))
    sim.step(3)
    assert sim.collider_pose(ball)["center"] == pytest.approx((0.1 + 0.2 * 3 / 60, 0.25, 0), abs=1e-5)
    with pytest.raises(RuntimeError, match="no collider 5"):
        sim.collider_pose(5)
    with pytest.raises(ValueError, match="3 numbers"):
        sim.move_collider(ball, center=(0, 0))


def test_keyframed_collider_pose_follows_its_keyframes():
    scene = eddy.Scene.load(SCENES / "keyframed_paddle.json", set={"fluid.spacing": 0.04})
    keys = scene.to_dict()["colliders"][0]["keyframes"]
    sim = eddy.Simulation(scene, backend="cpu")
    assert sim.collider_pose(0)["center"] == pytest.approx(keys[0]["translation"], abs=1e-6)
    with pytest.raises(RuntimeError, match="keyframes"):
        sim.move_collider(0, center=(0, 0, 0))
    sim.advance(keys[1]["time"])
    assert sim.collider_pose(0)["center"] == pytest.approx(keys[1]["translation"], abs=1e-5)


def test_render_into_an_array_shows_the_water(coarse_scene):
    if not eddy._eddy._has_renderer:
        pytest.skip("this build has no renderer")
    sim = eddy.Simulation(coarse_scene, backend="cpu")
    sim.step()
    picture = sim.render(160, 90, mode="particles")
    assert picture.shape == (90, 160, 4) and picture.dtype == np.uint8
    assert np.all(picture[:, :, 3] == 255)
    # the column stands at the tank's -x end: the picture's left half holds far more of the particles'
    # colour (not the grey of the background) than its right half
    rgb = picture[:, :, :3].astype(int)
    colourful = (rgb.max(axis=2) - rgb.min(axis=2)) > 40
    assert colourful[:, :80].sum() > 3 * colourful[:, 80:].sum() + 20
    with pytest.raises(ValueError, match="picture mode 'x'"):
        sim.render(160, 90, mode="x")
    with pytest.raises(ValueError, match="from 16 to 16384"):
        sim.render(8, 8)


def test_render_from_another_thread_draws_the_same_picture(coarse_scene):
    if not eddy._eddy._has_renderer:
        pytest.skip("this build has no renderer")
    sim = eddy.Simulation(coarse_scene, backend="cpu")
    sim.step()
    here = sim.render(64, 48, mode="particles")
    there = {}

    def draw():
        try:
            there["picture"] = sim.render(64, 48, mode="particles")
        except Exception as e:  # handed back to the test's thread
            there["error"] = e

    worker = threading.Thread(target=draw)
    worker.start()
    worker.join()
    assert "error" not in there, there.get("error")
    np.testing.assert_array_equal(there["picture"], here)


def test_device_memory_grows_with_the_particles(coarse_scene):
    sim = eddy.Simulation(coarse_scene, backend="cpu")
    before = sim.device_memory_bytes
    # positions and velocities alone take 24 bytes a particle
    assert before > 24 * sim.particle_count
    sim.add_particles(np.tile([1.2, 0.4, 0.3], (sim.particle_count, 1)))
    assert sim.device_memory_bytes > before + 24 * sim.particle_count // 2
