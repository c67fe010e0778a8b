"""eddy from Python: scenes, simulations, and the particles where the engine keeps them.

    import eddy
    sim = eddy.Simulation("scenes/dam_break.json", backend="cpu")
    sim.step(10)
    print(sim.time, sim.positions[:3])

The API is described in docs/python.md; every name below is documented there.
"""

import gc as _gc
import json as _json
import math as _math
import operator as _operator
import os as _os
import threading as _threading
import warnings as _warnings
import weakref as _weakref

try:
    import numpy as _numpy  # noqa: F401  (every particle array is one)
except ImportError:
    import sys as _sys
    raise ImportError(
        "eddy needs numpy, and this Python (%s) has none: run the python3 the build was configured with "
        "(cmake's line 'eddy: Python module ON' names it; /usr/bin/python3 where scripts/setup.sh installed "
        "python3-numpy), or install numpy into this one" % _sys.executable) from None

from . import _eddy
from ._eddy import BlowUp, CudaArray

__version__ = _eddy.__version__

__all__ = [
    "BlowUp",
    "CudaArray",
    "Scene",
    "Simulation",
    "StaleArrayWarning",
    "cuda_available",
    "cuda_device_name",
    "solver_names",
]


class StaleArrayWarning(RuntimeWarning):
    """Particle arrays taken earlier no longer show all of the simulation's particles: the count changed
    (nozzles, add_particles) or the storage grew (load_checkpoint). Take them again."""


def _json_value(value):
    """numpy scalars and arrays in overrides and dict scenes, as JSON takes them."""
    if hasattr(value, "tolist"):
        return value.tolist()
    raise TypeError("%s is not JSON" % type(value).__name__)


def _whole(value, what):
    """A whole number (numpy's too), or ValueError naming `what`."""
    if isinstance(value, bool):
        raise ValueError("%s: a whole number, not %r" % (what, value))
    try:
        return _operator.index(value)
    except TypeError:
        raise ValueError("%s: a whole number, not %r" % (what, value)) from None


def cuda_available():
    """True when this build has the CUDA backend and the machine a usable GPU."""
    return _eddy.cuda_available()


def cuda_device_name():
    """The GPU's name, or "" where there is none."""
    return _eddy.cuda_device_name()


def solver_names():
    """The registered solvers' names ("dfsph", "mpm", "pbf", "wcsph")."""
    return list(_eddy.solver_names())


def _override_texts(overrides):
    """{"pbf.iterations": 6} -> ["pbf.iterations=6"]: the CLI's --set texts, values as JSON."""
    if overrides is None:
        return []
    if not isinstance(overrides, dict):
        raise ValueError("set: a dict of key paths and values, for example {'pbf.iterations': 6}, not "
                         + type(overrides).__name__)
    texts = []
    for key, value in overrides.items():
        if not isinstance(key, str) or not key:
            raise ValueError("set: keys are key paths such as 'pbf.iterations', not %r" % (key,))
        try:
            text = _json.dumps(value, allow_nan=False, default=_json_value)
        except (TypeError, ValueError) as e:
            raise ValueError("set: %s: the value %r is not JSON (%s)" % (key, value, e)) from None
        texts.append(key + "=" + text)
    return texts


class Scene:
    """A validated scene: every key of the JSON format, defaults filled in.

    Make one with Scene.load(path), Scene.from_dict(d), Scene.from_json(text) or Scene.default(); each
    takes set={"key.path": value} overrides, as `eddy run --set key.path=value` does, and raises
    ValueError with the CLI's message (file, key, what is allowed) for bad input.
    """

    def __init__(self, desc):
        self._desc = desc

    @classmethod
    def load(cls, path, set=None):
        """The scene file at `path` (a str or os.PathLike); mesh paths in it are relative to its folder."""
        return cls(_eddy._scene_from_file(_os.fspath(path), _override_texts(set)))

    @classmethod
    def from_json(cls, text, set=None, source="<json>"):
        """A scene from JSON text; `source` names it in messages."""
        if not isinstance(text, str):
            raise ValueError("from_json: JSON text (a str), not " + type(text).__name__)
        return cls(_eddy._scene_from_json(text, source, _override_texts(set)))

    @classmethod
    def from_dict(cls, scene, set=None, source="<dict>"):
        """A scene from a dict of the JSON format (a dict Scene.to_dict gave, edited, say)."""
        if not isinstance(scene, dict):
            raise ValueError("from_dict: a dict, not " + type(scene).__name__)
        try:
            text = _json.dumps(scene, allow_nan=False, default=_json_value)
        except (TypeError, ValueError) as e:
            raise ValueError("%s: the scene is not JSON: %s" % (source, e)) from None
        return cls(_eddy._scene_from_json(text, source, _override_texts(set)))

    @classmethod
    def default(cls, set=None):
        """The built-in dam break (what `eddy run` runs without a scene)."""
        return cls(_eddy._scene_from_json(_eddy._default_scene_json(), "<default scene>",
                                          _override_texts(set)))

    def to_json(self):
        """The resolved scene as JSON text: every key, defaults filled in (what eddy writes as scene.json)."""
        return self._desc.to_json()

    def to_dict(self):
        """The resolved scene as a dict (Scene.from_dict reads it back)."""
        return _json.loads(self._desc.to_json())

    @property
    def name(self):
        """The scene's "name"."""
        return self._desc.name

    @property
    def solver(self):
        """The scene's "solver"."""
        return self._desc.solver

    @property
    def fps(self):
        """Frames per simulated second (time.fps)."""
        return self._desc.fps

    @property
    def frames(self):
        """Frames a run of it makes (time.frames)."""
        return self._desc.frames

    def __repr__(self):
        return "<eddy.Scene '%s' %s, %d frames at %g fps>" % (self.name, self.solver, self.frames, self.fps)


def _scene_of(scene, overrides):
    if isinstance(scene, Scene):
        if overrides:
            return Scene.from_json(scene.to_json(), set=overrides, source="<scene>")
        return scene
    if scene is None:
        return Scene.default(set=overrides)
    if isinstance(scene, dict):
        return Scene.from_dict(scene, set=overrides)
    if isinstance(scene, (str, _os.PathLike)):
        return Scene.load(scene, set=overrides)
    raise ValueError("scene: an eddy.Scene, a dict, a path or None (the default dam break), not "
                     + type(scene).__name__)


class _ArrayOwner:
    """What a particle array holds on to (a numpy array's base, a CudaArray's or DLPack tensor's owner): the
    simulation whose memory it shows, kept alive as long as the array is."""

    __slots__ = ("simulation", "layout", "__weakref__")

    def __init__(self, simulation, layout):
        self.simulation = simulation
        self.layout = layout  # (address, rows) of the storage when the array was taken


class Simulation:
    """A running simulation of one scene, on the CPU or the GPU.

    Simulation(scene=None, backend="auto", set=None): `scene` is an eddy.Scene, a dict, a scene file's
    path, or None for the default dam break; `backend` is "auto" (the GPU where there is one), "cpu" or
    "cuda". The engine runs without the GIL. A blow-up raises eddy.BlowUp naming the cause, and the
    simulation then refuses to go on (load_checkpoint restarts it).

    Particle arrays (positions, velocities, density, ids, array(name)) are the engine's own memory, not
    copies: numpy arrays on the CPU backend, eddy.CudaArray on the CUDA backend. They stay valid between
    frames and show the particles as they are now; the engine re-sorts particles every substep, so row i
    is not the same particle from one frame to the next: match rows through `ids`, taken at the same time.
    Values written into positions or velocities between frames are what the next substep starts from.
    """

    def __init__(self, scene=None, backend="auto", set=None):
        if not isinstance(backend, str):
            raise ValueError("backend: 'auto', 'cpu' or 'cuda', not %r" % (backend,))
        self._scene = _scene_of(scene, set)
        self._sim = _eddy._Simulation(self._scene._desc, backend)
        self._owners = _weakref.WeakSet()  # the arrays handed out that are still alive

    @property
    def scene(self):
        """The eddy.Scene it runs."""
        return self._scene

    # -------------------------------------------------------------- stepping

    def step(self, frames=1):
        """Advances `frames` whole frames (1/fps seconds each, in substeps)."""
        self._step(frames, "step")

    def _step(self, frames, after):
        frames = _whole(frames, "frames")
        if frames < 0 or frames > 2**62:
            raise ValueError("frames: a whole number >= 0, not %d" % frames)
        try:
            self._sim.step(frames)
        except (BlowUp, KeyboardInterrupt):
            self._warn_stale(after, 4)  # frames done before these still changed the count
            raise
        self._warn_stale(after, 4)

    def advance(self, seconds):
        """Advances `seconds` of simulated time: a whole number of frames, or ValueError naming the fps."""
        frames = float(seconds) * self.scene.fps
        if not _math.isfinite(frames) or frames < 0 or abs(frames - round(frames)) > 1e-6 * max(1.0, frames):
            raise ValueError("advance(%r): the simulation moves in frames of 1/%g s; give a multiple of that, "
                             ">= 0" % (seconds, self.scene.fps))
        self._step(int(round(frames)), "advance")

    def advance_substep(self, dt):
        """Advances exactly one substep of `dt` seconds (keep dt <= stable_substep())."""
        self._sim.advance_substep(float(dt))
        self._warn_stale("advance_substep")

    def stable_substep(self):
        """The longest substep the solver's stability allows now, in s (inf for a solver without a limit)."""
        return self._sim.stable_substep()

    @property
    def time(self):
        """Simulated time, s."""
        return self._sim.time

    @property
    def frame(self):
        """Frames done."""
        return self._sim.frame

    @property
    def substeps(self):
        """Substeps done."""
        return self._sim.substeps

    @property
    def particle_count(self):
        """Particles now (nozzles add some as they run)."""
        return self._sim.particle_count

    @property
    def backend(self):
        """"cpu" or "cuda"."""
        return self._sim.backend

    @property
    def blown_up(self):
        """True once a step has raised eddy.BlowUp: stepping is refused, reading the state is not."""
        return self._sim.blown_up

    @property
    def device_memory_bytes(self):
        """Bytes the simulation's storage takes on its device (host memory for the CPU backend): particles,
        neighbour grid, solver, surfaces; not the storage a growth left to arrays taken before it."""
        return self._sim.device_memory_bytes

    @property
    def warnings(self):
        """Conditions met during the run a user should know of, one line each."""
        return list(self._sim.warnings)

    def stats(self):
        """This frame's statistics, the keys of stats.jsonl: frame, time, particles, mean_density_error,
        max_density_error, kinetic_energy, bounds_min, bounds_max, max_speed, substeps, substeps_total,
        held_in."""
        return self._sim.stats()

    # -------------------------------------------------------------- particles

    def array_names(self):
        """Names of the particle arrays: position, velocity, density, id, then the solver's own."""
        return list(self._sim.array_names())

    def array(self, name):
        """The particle array `name`, where the engine keeps it (no copy): numpy on the CPU backend,
        eddy.CudaArray on the CUDA backend. Shape (particles,) or (particles, components)."""
        if not isinstance(name, str):
            raise ValueError("array: a name such as 'position', not %r" % (name,))
        owner = _ArrayOwner(self, self._sim.layout())
        self._owners.add(owner)
        return self._sim.array(name, owner)

    def _warn_stale(self, after, stacklevel=3):
        """StaleArrayWarning where arrays still alive were taken before the particle count changed or the
        storage moved (one text per call, so Python's filter shows it once per place); `stacklevel` reaches
        the caller's line from here."""
        if not len(self._owners):
            return
        now = self._sim.layout()
        stale = [owner for owner in list(self._owners) if owner.layout != now]
        if stale:
            _warnings.warn("%s: particle arrays taken before it no longer show all of the simulation's "
                           "particles (the count changed or the storage moved); take them again" % after,
                           StaleArrayWarning, stacklevel=stacklevel)
            for owner in stale:
                owner.layout = now  # warned once

    def arrays(self):
        """Every particle array, by name."""
        return {name: self.array(name) for name in self._sim.array_names()}

    @property
    def positions(self):
        """Positions, m, (particles, 3) float32, in the engine's memory."""
        return self.array("position")

    @property
    def velocities(self):
        """Velocities, m/s, (particles, 3) float32, in the engine's memory."""
        return self.array("velocity")

    @property
    def density(self):
        """Densities, kg/m^3, (particles,) float32, in the engine's memory (as the last substep left them)."""
        return self.array("density")

    @property
    def ids(self):
        """Persistent particle ids, (particles,) uint32, in the engine's memory: 0, 1, 2, ... in emission
        order, following each particle through every sort."""
        return self.array("id")

    @property
    def particle_capacity(self):
        """The particles (those there and those added) the storage holds before add_particles must grow it:
        its size less the room the nozzles keep for what they may still release."""
        return self._sim.particle_capacity

    def add_particles(self, positions, velocities=None, emitter=0):
        """Adds particles at `positions` ((n, 3), m) moving at `velocities` ((n, 3), m/s; at rest by
        default), made of scene emitter `emitter`'s material (MPM); their ids continue from the last.
        ValueError, adding none, for shapes that differ, values that are not finite or positions outside
        the domain. Past particle_capacity the storage grows, which would move every particle array: while
        arrays taken earlier are still alive, that raises RuntimeError instead (drop them first)."""
        import numpy as np
        positions = np.asarray(positions, dtype=np.float32)
        count = positions.shape[0] if positions.ndim == 2 else -1
        if count > 0 and self.particle_count + count > self.particle_capacity:
            _gc.collect()  # arrays only a reference cycle holds
            alive = len(self._owners)
            if alive:
                raise RuntimeError(
                    "add_particles: %d particles do not fit the %d the storage holds (%d now), and growing it "
                    "would move the particle arrays, %d of which are still in use; drop them (del) and take "
                    "them again after adding" % (count, self.particle_capacity, self.particle_count, alive))
        emitter = _whole(emitter, "emitter")
        if emitter < 0:
            raise ValueError("add_particles: emitter %d: the scene's emitters count from 0" % emitter)
        self._sim.add_particles(positions, None if velocities is None else np.asarray(velocities, np.float32),
                                emitter)
        self._warn_stale("add_particles")

    def to_host(self):
        """Copies of what the output files hold, as numpy arrays: position, velocity, density (fresh at the
        current positions), id, and pressure (WCSPH, DFSPH) and material (MPM) where the solver has them."""
        return self._sim.host_particles()

    def write_particles(self, path, format=None):
        """Writes the particles as `eddy run` does (PLY, or VTK .vtu), atomically; `format` is "ply" or
        "vtk", by default from the file's extension (.vtu: vtk)."""
        path = _os.fspath(path)
        if format is None:
            if path.endswith(".vtu"):
                format = "vtk"
            elif path.endswith(".ply"):
                format = "ply"
            else:
                raise ValueError("write_particles: '%s': name a .ply or .vtu file, or give format='ply' or 'vtk'"
                                 % path)
        self._sim.write_particles(path, format)

    # -------------------------------------------------------------- measurements

    @property
    def probe_columns(self):
        """The probes' columns after "time" (probes.csv's header)."""
        return list(self._sim.probe_columns())

    def take_probes(self):
        """The probes' samples since the last call, one row each: time, then one value per probe column
        (NaN where a probe was not due), as a (rows, 1 + columns) float64 array."""
        return self._sim.take_probe_rows()

    @property
    def force_columns(self):
        """NAME.fx .fy .fz .tx .ty .tz for each collider and the domain (forces.csv's header); empty for
        MPM, whose forces on bodies come from its grid (collider_pose's fluid_force)."""
        return list(self._sim.force_columns())

    def forces(self):
        """The force (N) and torque (N m) the fluid puts on each collider now, by forces.csv's column."""
        return dict(zip(self._sim.force_columns(), self._sim.collider_forces()))

    def surface_mesh(self, group=""):
        """The liquid's surface by the scene's "surface" settings, built where the particles are:
        (vertices (V, 3) float32, triangles (T, 3) uint32, normals (V, 3) float32). `group` names a
        material's own surface (surface.groups "material"), or "" for every particle."""
        return self._sim.surface_mesh(group)

    def render(self, width=640, height=360, mode=None):
        """A picture of the simulation now, as `eddy run --render` draws it (the scene's "render" section;
        `mode` "particles", "ssfr" or "surface" replaces render.mode): a (height, width, 4) uint8 RGBA numpy
        array, row 0 at the top. Drawn headless with OpenGL (EGL), with a context of its own for each thread
        that calls. RuntimeError where the build has no renderer."""
        if not _eddy._has_renderer:
            raise RuntimeError("render: this build of eddy has no renderer (EGL, OpenGL or libpng was missing; "
                               "bash scripts/setup.sh installs them)")
        size = (int(width), int(height), mode or "")
        # an OpenGL context is current on the thread that made it alone: one drawing per thread
        key = (_threading.get_ident(),) + size
        makers = self.__dict__.setdefault("_pictures", {})
        if key not in makers:
            makers[key] = _eddy._PictureMaker(self._sim, *size)
        return makers[key].draw(self._sim)

    # -------------------------------------------------------------- colliders and emitters

    def collider_pose(self, index):
        """Collider `index` (scene order) now: center, orientation (w, x, y, z), linear_velocity,
        angular_velocity, and for a rigid body (a collider with a density) fluid_force (N) and fluid_torque
        (N m about its centre of mass), the fluid's push over the last substep (zero for other colliders).
        A mesh's center is its origin, which with the orientation keys the mesh's transform."""
        index = _whole(index, "collider_pose: index")
        if index < 0:
            raise ValueError("collider_pose: index %d: colliders count from 0" % index)
        return self._sim.collider_pose(index)

    def move_collider(self, index, center, velocity=(0.0, 0.0, 0.0)):
        """Puts collider `index` (one without keyframes) at `center` now, moving on at `velocity` m/s;
        the water sees that velocity at its walls."""
        index = _whole(index, "move_collider: index")
        if index < 0:
            raise ValueError("move_collider: index %d: colliders count from 0" % index)
        self._sim.move_collider(index, [float(x) for x in center], [float(x) for x in velocity])

    def set_nozzle_active(self, index, active):
        """Pauses or resumes nozzle emitter `index` (counted among the nozzles alone)."""
        index = _whole(index, "set_nozzle_active: index")
        if index < 0:
            raise ValueError("set_nozzle_active: index %d: nozzles count from 0" % index)
        self._sim.set_nozzle_active(index, bool(active))

    # -------------------------------------------------------------- checkpoints

    def save_checkpoint(self, path):
        """Writes the state between frames to `path` (the format of `eddy run --checkpoint-every`)."""
        self._sim.save_checkpoint(_os.fspath(path))

    def load_checkpoint(self, path):
        """Continues from the checkpoint at `path`, which must be of this scene (time.frames aside);
        ValueError otherwise, and the simulation is left as it was."""
        self._sim.load_checkpoint(_os.fspath(path))
        self._warn_stale("load_checkpoint")

    def __repr__(self):
        return "<eddy.Simulation '%s' %s on %s: frame %d, %d particles>" % (
            self.scene.name, self.scene.solver, self.backend, self.frame, self.particle_count)
