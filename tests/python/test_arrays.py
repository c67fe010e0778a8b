"""The particles where the engine keeps them: no copy, writes seen by the engine, views that stay right."""
import numpy as np
import pytest

import eddy
from conftest import COARSE, SCENES


def address(a):
    return a.__array_interface__["data"][0]


def by_id(sim):
    """Positions ordered by particle id, from the engine's own copy for output files."""
    host = sim.to_host()
    order = np.argsort(host["id"])
    return host["position"][order], host["velocity"][order]


# three substeps a frame: each substep sorts the particles into the engine's other buffer, so a frame leaves
# them in the other one unless the engine puts them back
ODD = dict(COARSE, **{"time.substeps": 3})


@pytest.fixture
def sim():
    s = eddy.Simulation(eddy.Scene.default(set=ODD), backend="cpu")
    s.step()
    return s


def test_arrays_are_the_engines_memory_and_stay_there(sim):
    names = sim.array_names()
    assert names[:4] == ["position", "velocity", "density", "id"] and "pbf_predicted" in names  # PBF's own
    p = sim.positions
    assert isinstance(p, np.ndarray) and p.dtype == np.float32 and p.shape == (sim.particle_count, 3)
    assert sim.ids.dtype == np.uint32 and sim.density.shape == (sim.particle_count,)
    assert not p.flags.owndata and p.flags.writeable
    first = address(p)
    for frame in range(4):  # odd and even numbers of sorts: 3 substeps, and a frame's densities or not
        sim.step()
        if frame % 2 == 0:
            sim.stats()
        assert np.array_equal(p, sim.to_host()["position"])  # the view taken before, read before another
        assert address(sim.positions) == first
    assert address(sim.array("position")) == first


def test_a_view_taken_before_a_step_shows_the_particles_after_it(sim):
    positions, ids = sim.positions, sim.ids
    ids_before = ids.copy()
    twin = eddy.Simulation(eddy.Scene.default(set=ODD), backend="cpu")  # no arrays taken from it
    twin.step()
    for _ in range(3):
        sim.step()
        twin.step()
        # read straight after the step, nothing asked of the simulation in between: by id, the positions
        # the twin's own copy for output holds
        mine = positions[np.argsort(ids)]
        host = twin.to_host()
        assert np.array_equal(mine, host["position"][np.argsort(host["id"])])
    assert not np.array_equal(ids, ids_before)  # the particles were re-sorted: match rows through ids
    assert np.array_equal(np.sort(ids), np.sort(ids_before))


def test_writes_through_a_view_are_what_the_engine_steps(sim):
    velocities, ids = sim.velocities, sim.ids
    velocities[:] = 0
    up = ids == 5
    velocities[up] = (0, 3.0, 0)
    # the engine's own copy for output sees the write before any step
    before, vel = by_id(sim)
    assert np.array_equal(vel[5], np.array([0, 3.0, 0], np.float32))
    sim.step()
    after, _ = by_id(sim)
    rise = after[:, 1] - before[:, 1]
    # particle 5 rose (3 m/s for 1/60 s, held back by its neighbours' density constraint); the rest, set at
    # rest, barely moved
    assert rise[5] > 0.01 and rise[5] > 10 * np.median(np.abs(rise))


def test_the_solvers_own_arrays_are_there():
    mpm = eddy.Simulation(eddy.Scene.default(set={"solver": "mpm", "fluid.spacing": 0.04}), backend="cpu")
    names = mpm.array_names()
    assert {"mpm_affine", "mpm_j", "mpm_material"} <= set(names)
    affine = mpm.array("mpm_affine")
    assert affine.shape == (mpm.particle_count, 9) and affine.dtype == np.float32
    with pytest.raises(ValueError, match="no particle array 'pressure'.*'position'"):
        mpm.array("pressure")


@pytest.mark.gpu
def test_cuda_arrays_are_read_by_torch_without_a_copy(coarse_scene):
    torch = pytest.importorskip("torch")
    sim = eddy.Simulation(coarse_scene, backend="cuda")
    sim.step()
    cuda_positions = sim.positions
    assert isinstance(cuda_positions, eddy.CudaArray)
    interface = cuda_positions.__cuda_array_interface__
    assert interface["version"] == 3 and interface["typestr"] == "<f4" and interface["stream"] == 1
    assert interface["shape"] == (sim.particle_count, 3)
    t = torch.from_dlpack(sim.positions)
    assert t.is_cuda and t.data_ptr() == interface["data"][0] == cuda_positions.ptr
    assert torch.as_tensor(cuda_positions, device="cuda").data_ptr() == cuda_positions.ptr
    ids = torch.from_dlpack(sim.ids)
    assert ids.dtype == torch.uint32
    sim.step()
    host = sim.to_host()
    assert np.array_equal(t.cpu().numpy(), host["position"])  # the same memory, the step's result in it
    assert np.array_equal(cuda_positions.numpy(), host["position"])
    # a write through torch is what the engine has
    v = torch.from_dlpack(sim.velocities)
    v.zero_()
    v[:, 1] = 2.5
    assert np.all(sim.to_host()["velocity"][:, 1] == np.float32(2.5))


@pytest.mark.gpu
def test_cuda_arrays_follow_a_consumer_stream(coarse_scene):
    cupy = pytest.importorskip("cupy")
    sim = eddy.Simulation(coarse_scene, backend="cuda")
    sim.step()
    with cupy.cuda.Stream(non_blocking=True):
        c = cupy.from_dlpack(sim.positions)
        total = float(c.sum())
    assert c.data.ptr == sim.positions.ptr
    assert total == pytest.approx(float(sim.to_host()["position"].astype(np.float64).sum()), rel=1e-5)


@pytest.mark.gpu
def test_cpu_and_cuda_agree_from_python(coarse_scene):
    cpu = eddy.Simulation(coarse_scene, backend="cpu")
    gpu = eddy.Simulation(coarse_scene, backend="cuda")
    cpu.step(3)
    gpu.step(3)
    a, b = cpu.stats(), gpu.stats()
    assert a["particles"] == b["particles"]
    assert b["kinetic_energy"] == pytest.approx(a["kinetic_energy"], rel=0.02)


def test_particles_added_from_arrays_join_the_simulation(tmp_path, coarse_scene):
    sim = eddy.Simulation(coarse_scene, backend="cpu")
    sim.step()
    n = sim.particle_count
    assert sim.particle_capacity == n  # the dam break has no nozzles: no room to spare
    block = np.stack(np.meshgrid(np.arange(4), np.arange(4), np.arange(4)), -1).reshape(-1, 3)
    fresh = 0.04 * block + np.array([1.0, 0.4, 0.2])  # a 4 x 4 x 4 block in the air at the far end
    sim.add_particles(fresh, velocities=np.tile([0.0, -1.0, 0.0], (64, 1)))
    assert sim.particle_count == n + 64 and sim.particle_capacity >= n + 64
    ids = sim.ids
    added = ids >= n
    assert np.array_equal(np.sort(ids[added]), np.arange(n, n + 64))  # ids continue from the last
    assert np.allclose(sim.velocities[added], [0, -1, 0])
    sim.step(3)
    assert sim.stats()["particles"] == n + 64
    # the block fell (thrown down at 1 m/s, then gravity): its top from 0.52 m by well over 3 cm in 3 frames
    assert sim.positions[sim.ids >= n][:, 1].max() < 0.4 + 0.12 - 0.03
    # a checkpoint holds them, and a fresh simulation of the scene takes it
    sim.save_checkpoint(tmp_path / "grown.eddy")
    again = eddy.Simulation(coarse_scene, backend="cpu")
    again.load_checkpoint(tmp_path / "grown.eddy")
    assert again.particle_count == n + 64
    assert np.array_equal(again.to_host()["position"], sim.to_host()["position"])


def test_growth_is_refused_while_arrays_are_alive_and_bad_particles_change_nothing(coarse_scene):
    sim = eddy.Simulation(coarse_scene, backend="cpu")
    n = sim.particle_count
    positions = sim.positions
    with pytest.raises(RuntimeError, match="still in use"):
        sim.add_particles([[1.0, 0.4, 0.2]])
    assert sim.particle_count == n
    del positions
    with pytest.raises(ValueError, match="outside the domain"):
        sim.add_particles([[1.0, 0.4, 0.2], [5.0, 0.4, 0.2]])
    with pytest.raises(ValueError, match="not finite"):
        sim.add_particles([[1.0, np.nan, 0.2]])
    with pytest.raises(ValueError, match=r"shape \(n, 3\), not \(2\)"):
        sim.add_particles([1.0, 0.4])
    with pytest.raises(ValueError, match=r"velocities: an array of shape \(1, 3\)"):
        sim.add_particles([[1.0, 0.4, 0.2]], velocities=[[0, 0, 0], [0, 0, 0]])
    with pytest.raises(ValueError, match="no emitter 3"):
        sim.add_particles([[1.0, 0.4, 0.2]], emitter=3)
    assert sim.particle_count == n
    sim.add_particles([[1.0, 0.4, 0.2]])
    assert sim.particle_count == n + 1


def test_added_mpm_particles_take_their_emitters_material():
    scene = eddy.Scene.load(SCENES / "mpm_elastic_ball_water.json", set={"fluid.spacing": 0.04})
    sim = eddy.Simulation(scene, backend="cpu")
    n = sim.particle_count
    sim.add_particles([[0.3, 0.5, 0.15]], emitter=1)  # made of emitter 1's material: the elastic ball's
    material = sim.array("mpm_material")
    assert material.shape == (n + 1,)
    assert material[sim.ids == n][0] == 1


def test_nozzles_keep_their_room_after_particles_are_added():
    # a jet that fills its budget while particles added from Python sit in the tank: the storage grows
    # only at add_particles, never inside a step, and every query reads whole buffers
    scene = eddy.Scene.load(SCENES / "jet_tank.json", set={"fluid.spacing": 0.03, "emitters.0.max_particles": 500,
                                                          "solver": "wcsph"})
    sim = eddy.Simulation(scene, backend="cpu")
    room = sim.particle_capacity
    assert room == sim.particle_count  # the nozzle's 500 are kept apart
    block = 0.03 * np.stack(np.meshgrid(np.arange(5), np.arange(5), np.arange(4)), -1).reshape(-1, 3)
    sim.add_particles(block + np.array([0.1, 0.02, -0.1]))
    for _ in range(40):
        sim.step()
        sim.stats()
        sim.to_host()
        sim.forces()
    assert sim.particle_count == 100 + 500
    assert sim.particle_capacity >= 100


def test_stale_arrays_are_warned_of_and_never_freed(tmp_path, coarse_scene):
    a = eddy.Simulation(coarse_scene, backend="cpu")
    a.add_particles([[1.0, 0.4, 0.2], [1.04, 0.4, 0.2]])
    a.step()
    a.save_checkpoint(tmp_path / "grown.eddy")
    b = eddy.Simulation(coarse_scene, backend="cpu")
    before = b.positions
    copy = before.copy()
    with pytest.warns(eddy.StaleArrayWarning, match="load_checkpoint: particle arrays taken before it"):
        b.load_checkpoint(tmp_path / "grown.eddy")
    # the old array shows the particles as they were, in memory the simulation still holds
    assert np.array_equal(before, copy)
    before[:] = 7  # harmless: it is not the simulation's storage any more
    assert b.particle_count == a.particle_count
    assert np.array_equal(b.to_host()["position"], a.to_host()["position"])


def test_views_after_a_blow_up_show_the_restored_state(tmp_path, coarse_scene):
    sim = eddy.Simulation(coarse_scene, backend="cpu")
    sim.step()
    positions = sim.positions
    sim.save_checkpoint(tmp_path / "one.eddy")
    saved = positions.copy()
    positions[3] = np.nan
    with pytest.raises(eddy.BlowUp):
        sim.step()
    assert sim.blown_up and np.isnan(sim.positions).any()  # reading the state that blew up is allowed
    assert sim.stats()["particles"] == sim.particle_count
    sim.load_checkpoint(tmp_path / "one.eddy")
    assert not sim.blown_up
    assert np.array_equal(positions, saved)  # the same array, the restored state in it


def test_ids_are_read_only(sim):
    with pytest.raises(ValueError, match="read-only"):
        sim.ids[0] = 5


def test_an_array_keeps_its_simulation_alive_and_the_simulation_dies_with_its_last_array(coarse_scene):
    import gc
    import weakref
    sim = eddy.Simulation(coarse_scene, backend="cpu")
    alive = weakref.ref(sim)
    positions = sim.positions
    del sim
    gc.collect()
    assert alive() is not None and np.isfinite(positions).all()
    del positions
    gc.collect()
    assert alive() is None


def test_another_thread_is_refused_while_a_step_runs():
    import threading
    import time
    sim = eddy.Simulation(SCENES / "sphere_obstacle.json", backend="cpu", set={"fluid.spacing": 0.04})
    stepping = threading.Thread(target=sim.step, args=(200,))
    stepping.start()
    while sim.frame == 0:  # the step has begun
        time.sleep(0.001)
    with pytest.raises(RuntimeError, match="busy with a call from another thread"):
        sim.add_particles([[1.0, 0.4, 0.2]])
    with pytest.raises(RuntimeError, match="busy"):
        sim.step()
    # what a step writes besides the counters: its warnings' text, the colliders' poses
    with pytest.raises(RuntimeError, match="busy"):
        sim.warnings
    with pytest.raises(RuntimeError, match="busy"):
        sim.collider_pose(0)
    busy_at = sim.frame
    stepping.join()
    assert busy_at < 200 and sim.frame == 200


def test_ctrl_c_stops_a_long_step_between_frames():
    import os
    import signal
    import threading
    sim = eddy.Simulation(set={"fluid.spacing": 0.03}, backend="cpu")
    threading.Timer(0.3, os.kill, (os.getpid(), signal.SIGINT)).start()
    with pytest.raises(KeyboardInterrupt):
        sim.step(400)
    assert 0 < sim.frame < 400


def test_arrays_taken_again_every_frame_are_warned_of_once_per_place():
    import warnings
    scene = eddy.Scene.load(SCENES / "jet_tank.json", set={"fluid.spacing": 0.03})
    sim = eddy.Simulation(scene, backend="cpu")
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("default")
        positions = sim.positions
        for _ in range(12):
            sim.step()  # the jet adds particles: the array taken last frame is stale
            positions = sim.positions
    stale = [w for w in seen if issubclass(w.category, eddy.StaleArrayWarning)]
    assert sim.particle_count > 0 and positions.shape[0] == sim.particle_count
    assert len(stale) == 1 and "step: particle arrays taken before it" in str(stale[0].message)


def test_rows_are_matched_after_the_last_call_that_needs_densities():
    # DFSPH sorts its particles again for the densities stats() reads: an order taken before it is stale,
    # one taken after it holds (docs/python.md)
    sim = eddy.Simulation(set={**COARSE, "solver": "dfsph"}, backend="cpu")
    pos, ids = sim.positions, sim.ids
    sim.step(3)
    before = np.argsort(ids)
    sim.stats()
    assert not np.array_equal(before, np.argsort(ids))
    host = sim.to_host()
    np.testing.assert_array_equal(pos[np.argsort(ids)], host["position"][np.argsort(host["id"])])


def test_stale_array_warnings_point_at_the_callers_line():
    import warnings
    scene = eddy.Scene.load(SCENES / "jet_tank.json", set={"fluid.spacing": 0.03})
    sim = eddy.Simulation(scene, backend="cpu")
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        positions = sim.positions  # noqa: F841  (alive, so the jet's particles make it stale)
        sim.step(6)
        positions = sim.positions  # noqa: F841
        sim.advance(6 / scene.fps)
    stale = [w for w in seen if issubclass(w.category, eddy.StaleArrayWarning)]
    assert [str(w.message).split(":")[0] for w in stale] == ["step", "advance"]
    assert all(w.filename == __file__ for w in stale), [w.filename for w in stale]


@pytest.mark.parametrize("solver", ["pbf", "dfsph"])  # WCSPH carries its density (continuity)
def test_densities_are_measured_where_positions_were_written(solver):
    sim = eddy.Simulation(set={**COARSE, "solver": solver}, backend="cpu")
    sim.step(2)
    before = sim.to_host()["density"].mean()
    positions = sim.positions
    positions[:, 1] = positions[:, 1] * 0.5 + 0.01  # the column squashed to half its height
    # twice the particles in each volume: far denser (the SPH sums see the neighbours the grid finds)
    assert sim.to_host()["density"].mean() > 1.3 * before
    assert sim.stats()["max_density_error"] > 0.3
