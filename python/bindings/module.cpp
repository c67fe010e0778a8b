// The Python module eddy._eddy (re-exported by the package eddy): scenes, simulations and their particles,
// through the public headers <eddy/...> alone. Host C++: nvcc never sees it.
#include <eddy/backend.h>
#include <eddy/checkpoint.h>
#include <eddy/error.h>
#include <eddy/interop.h>
#include <eddy/mesh.h>
#include <eddy/output.h>
#if EDDY_WITH_RENDER
#include <eddy/picture.h>
#endif
#include <eddy/scene.h>
#include <eddy/scene_io.h>
#include <eddy/simulation.h>
#include <eddy/version.h>
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "particle_arrays.h"
#include "simulation_handle.h"

namespace eddy::python {
namespace {

// ---------------------------------------------------------------- scenes

// the scene reader's own entry points, with the overrides as "--set" texts (the Python layer turns a dict
// {"pbf.iterations": 6} into "pbf.iterations=6", values as JSON)
SceneDesc sceneFromFile(const std::string& path, const std::vector<std::string>& overrides) {
  return loadScene(path, overrides);
}
SceneDesc sceneFromJson(const std::string& text, const std::string& source,
                        const std::vector<std::string>& overrides) {
  return parseScene(text, source, overrides);
}

Backend parseBackend(const std::string& name) {
  if (name == "auto") return Backend::Auto;
  if (name == "cpu") return Backend::Cpu;
  if (name == "cuda") return Backend::Cuda;
  throw InputError("backend '" + name + "': allowed are 'auto', 'cpu' and 'cuda'");
}

// ---------------------------------------------------------------- simulations

std::shared_ptr<SimulationHandle> makeSimulation(const SceneDesc& scene, const std::string& backendName) {
  Backend backend = resolveBackend(parseBackend(backendName));
  if (backend == Backend::Cuda && !cudaAvailable())
    throw InputError(
        "backend 'cuda': this build has no CUDA backend or this machine has no usable GPU "
        "(eddy.cuda_available() is False); use 'cpu' or 'auto'");
  auto handle = std::make_shared<SimulationHandle>();
  py::gil_scoped_release release;  // the set-up builds distance fields and fills emitters
  handle->sim = createSimulation(scene, backend);
  return handle;
}

// advances whole frames with the interpreter free for other threads; a blow-up stops the simulation for good
void stepFrames(SimulationHandle& h, long long frames) {
  if (frames < 0) throw InputError("frames = " + std::to_string(frames) + ": must be >= 0");
  SimulationHandle::Use use = h.live();
  try {
    for (long long i = 0; i < frames; ++i) {
      {
        py::gil_scoped_release release;
        use->advanceFrame();
      }
      // Ctrl-C stops a long call between frames
      if (PyErr_CheckSignals() != 0) throw py::error_already_set();
    }
  } catch (const SimulationBlowUp& e) {
    h.blowUp = e.what();
    throw;
  }
}

py::dict statsDict(const FrameStats& s) {
  py::dict d;
  d["frame"] = s.frame;
  d["time"] = s.time;
  d["particles"] = s.particles;
  d["mean_density_error"] = s.meanDensityError;
  d["max_density_error"] = s.maxDensityError;
  d["kinetic_energy"] = s.kineticEnergy;
  d["bounds_min"] = py::make_tuple(s.boundsMin.x, s.boundsMin.y, s.boundsMin.z);
  d["bounds_max"] = py::make_tuple(s.boundsMax.x, s.boundsMax.y, s.boundsMax.z);
  d["max_speed"] = s.maxSpeed;
  d["substeps"] = s.frameSubsteps;
  d["substeps_total"] = s.substeps;
  d["held_in"] = s.heldIn;
  return d;
}

Vec3 toVec3(const std::vector<double>& v, const char* what) {
  if (v.size() != 3)
    throw InputError(std::string(what) + ": 3 numbers (x, y, z), not " + std::to_string(v.size()));
  for (double x : v)
    if (!std::isfinite(x)) throw InputError(std::string(what) + ": numbers must be finite");
  return {Real(v[0]), Real(v[1]), Real(v[2])};
}

py::tuple tupleOf(Vec3 v) { return py::make_tuple(v.x, v.y, v.z); }

// one attribute: a numpy view on the CPU backend, a CudaArray on the CUDA backend
py::object arrayObject(const ParticleArray& a, py::object owner, std::shared_ptr<SimulationHandle> h) {
  if (a.device == Device::Host) return hostArray(a, owner);
  return py::cast(CudaArray{a, owner, std::move(h)});
}

// rows of 3 numbers, as many as `rows` (or any number where rows < 0)
std::vector<Vec3> vec3List(py::array_t<float, py::array::c_style | py::array::forcecast> a, const char* what,
                           py::ssize_t rows) {
  if (a.ndim() != 2 || a.shape(1) != 3 || (rows >= 0 && a.shape(0) != rows)) {
    std::string shape;
    for (py::ssize_t d = 0; d < a.ndim(); ++d) shape += (d ? ", " : "") + std::to_string(a.shape(d));
    throw InputError(std::string(what) + ": an array of shape (" + (rows >= 0 ? std::to_string(rows) : "n") +
                     ", 3), not (" + shape + ")");
  }
  std::vector<Vec3> out(std::size_t(a.shape(0)));
  std::copy_n(a.data(), 3 * out.size(), reinterpret_cast<float*>(out.data()));
  return out;
}

ParticleArray findArray(Simulation& sim, const std::string& name) {
  std::vector<ParticleArray> all = sim.particleArrays();
  std::string names;
  for (const ParticleArray& a : all) {
    if (a.name == name) return a;
    names += (names.empty() ? "'" : ", '") + a.name + "'";
  }
  throw InputError("no particle array '" + name + "' in this " + sim.scene().solver + " simulation; it has " +
                   names);
}

py::array_t<float> vec3Rows(const std::vector<Vec3>& v) {
  py::array_t<float> out({py::ssize_t(v.size()), py::ssize_t(3)});
  std::copy_n(reinterpret_cast<const float*>(v.data()), 3 * v.size(), out.mutable_data());
  return out;
}

void writeParticles(Simulation& sim, const std::string& path, const std::string& format) {
  if (format != "ply" && format != "vtk")
    throw InputError("format '" + format + "': allowed are 'ply' and 'vtk'");
  HostParticles host;
  sim.copyParticles(host);
  writeFileAtomic(path, format == "vtk" ? encodeVtu(host) : encodePly(host));
}

void restoreCheckpoint(Simulation& sim, const std::string& path) {
  Checkpoint c = readCheckpoint(path);
  SceneDesc saved = parseScene(c.sceneJson, path);
  std::string difference = sceneDifference(saved, sim.scene());
  if (!difference.empty()) throw InputError(path + ": the checkpoint is of another scene: " + difference);
  sim.restoreState(c.state);
}

void bindSimulation(py::module_& m) {
  py::class_<SimulationHandle, std::shared_ptr<SimulationHandle>>(m, "_Simulation")
      .def(py::init(&makeSimulation), py::arg("scene"), py::arg("backend") = "auto")
      .def("step", &stepFrames, py::arg("frames") = 1)
      .def("advance_substep",
           [](SimulationHandle& h, double dt) {
             if (!(dt > 0) || !std::isfinite(dt))
               throw InputError("dt = " + std::to_string(dt) + ": must be > 0");
             SimulationHandle::Use use = h.live();
             try {
               py::gil_scoped_release release;
               use->advanceSubstep(Real(dt));
             } catch (const SimulationBlowUp& e) {
               h.blowUp = e.what();
               throw;
             }
           })
      .def("stable_substep", [](SimulationHandle& h) { return double(h.live()->stableSubstep()); })
      .def_property_readonly("time", [](SimulationHandle& h) { return h.sim->time(); })
      .def_property_readonly("frame", [](SimulationHandle& h) { return h.sim->frame(); })
      .def_property_readonly("substeps", [](SimulationHandle& h) { return h.sim->substeps(); })
      .def_property_readonly("particle_count", [](SimulationHandle& h) { return h.sim->particleCount(); })
      .def_property_readonly("backend", [](SimulationHandle& h) { return backendName(h.sim->backend()); })
      .def_property_readonly("scene", [](SimulationHandle& h) { return h.sim->scene(); })
      .def_property_readonly("blown_up", [](SimulationHandle& h) { return !h.blowUp.empty(); })
      // through the lock: the warnings are strings a step may be writing (the frame counters above are read
      // without it, so another thread can follow a step's progress)
      .def_property_readonly("warnings", [](SimulationHandle& h) { return h.any()->warnings(); })
      .def_property_readonly("device_memory_bytes",
                             [](SimulationHandle& h) { return h.sim->deviceMemoryBytes(); })
      .def("stats", [](SimulationHandle& h) { return statsDict(h.any()->stats()); })
      .def("array_names",
           [](SimulationHandle& h) {
             std::vector<std::string> names;
             for (const ParticleArray& a : h.any()->particleArrays()) names.push_back(a.name);
             return names;
           })
      .def("array", [](std::shared_ptr<SimulationHandle> h, const std::string& name,
                       py::object owner) { return arrayObject(findArray(*h->any(), name), owner, h); })
      .def("layout",
           [](SimulationHandle& h) -> py::tuple {
             // where the arrays are now and how many rows they have (all of them move and grow together)
             for (const ParticleArray& a : h.any()->particleArrays())
               if (a.name == "position")
                 return py::make_tuple(reinterpret_cast<std::uintptr_t>(a.data), a.count);
             return py::make_tuple(std::uintptr_t(0), std::int64_t(0));
           })
      .def_property_readonly("particle_capacity",
                             [](SimulationHandle& h) { return h.sim->particleCapacity(); })
      .def("add_particles",
           [](SimulationHandle& h, py::array_t<float, py::array::c_style | py::array::forcecast> position,
              py::object velocity, std::size_t emitter) {
             std::vector<Vec3> x = vec3List(position, "positions", -1);
             std::vector<Vec3> v =
                 velocity.is_none()
                     ? std::vector<Vec3>(x.size())
                     : vec3List(
                           velocity.cast<py::array_t<float, py::array::c_style | py::array::forcecast>>(),
                           "velocities", py::ssize_t(x.size()));
             h.live()->addParticles(x, v, emitter);
           })
      .def("host_particles",
           [](SimulationHandle& h) {
             HostParticles p;
             h.any()->copyParticles(p);
             py::dict d;
             d["position"] = vec3Rows(p.position);
             d["velocity"] = vec3Rows(p.velocity);
             d["density"] = py::array_t<float>(py::ssize_t(p.density.size()), p.density.data());
             d["id"] = py::array_t<std::uint32_t>(py::ssize_t(p.id.size()), p.id.data());
             if (!p.pressure.empty())
               d["pressure"] = py::array_t<float>(py::ssize_t(p.pressure.size()), p.pressure.data());
             if (!p.material.empty())
               d["material"] = py::array_t<std::uint32_t>(py::ssize_t(p.material.size()), p.material.data());
             return d;
           })
      .def("write_particles", [](SimulationHandle& h, const std::string& path,
                                 const std::string& format) { writeParticles(*h.any(), path, format); })
      .def("probe_columns", [](SimulationHandle& h) { return h.sim->probeColumns(); })
      .def("take_probe_rows",
           [](SimulationHandle& h) {
             std::vector<std::vector<double>> rows;
             h.live()->takeProbeRows(rows);
             std::size_t width = 1 + h.sim->probeColumns().size();
             py::array_t<double> out({py::ssize_t(rows.size()), py::ssize_t(width)});
             double* o = out.mutable_data();
             for (const auto& row : rows)
               for (std::size_t j = 0; j < width; ++j) *o++ = j < row.size() ? row[j] : NAN;
             return out;
           })
      .def("force_columns", [](SimulationHandle& h) { return h.sim->forceColumns(); })
      .def("collider_forces", [](SimulationHandle& h) { return h.live()->colliderForces(); })
      .def("save_checkpoint",
           [](SimulationHandle& h, const std::string& path) {
             writeFileAtomic(path, encodeCheckpoint(makeCheckpoint(*h.live())));
           })
      .def("load_checkpoint",
           [](SimulationHandle& h, const std::string& path) {
             restoreCheckpoint(*h.any(), path);
             h.blowUp.clear();  // a restored state is a fresh start
           })
      .def("collider_pose",
           [](SimulationHandle& h, std::size_t i) {
             ColliderPose p = h.any()->colliderPose(i);  // a step moves the colliders
             py::dict d;
             d["center"] = tupleOf(p.center);
             d["orientation"] =
                 py::make_tuple(p.orientation.w, p.orientation.x, p.orientation.y, p.orientation.z);
             d["linear_velocity"] = tupleOf(p.linearVelocity);
             d["angular_velocity"] = tupleOf(p.angularVelocity);
             const FluidLoad load = h.any()->fluidLoad(i);
             d["fluid_force"] = tupleOf(load.force);
             d["fluid_torque"] = tupleOf(load.torque);
             return d;
           })
      .def("move_collider",
           [](SimulationHandle& h, std::size_t i, const std::vector<double>& center,
              const std::vector<double>& velocity) {
             h.live()->moveCollider(i, toVec3(center, "center"), toVec3(velocity, "velocity"));
           })
      .def("set_nozzle_active",
           [](SimulationHandle& h, std::size_t i, bool active) { h.live()->setNozzleActive(i, active); })
      .def("surface_mesh", [](SimulationHandle& h, const std::string& group) {
        TriangleMesh mesh;
        h.live()->buildSurface(mesh, nullptr, nullptr, group);
        py::array_t<std::uint32_t> triangles({py::ssize_t(mesh.triangles.size()), py::ssize_t(3)});
        std::copy_n(reinterpret_cast<const std::uint32_t*>(mesh.triangles.data()), 3 * mesh.triangles.size(),
                    triangles.mutable_data());
        return py::make_tuple(vec3Rows(mesh.vertices), triangles, vec3Rows(mesh.normals));
      });
}

// pictures into arrays, where the build has the renderer
void bindPictures(py::module_& m) {
#if EDDY_WITH_RENDER
  m.attr("_has_renderer") = true;
  py::class_<PictureMaker>(m, "_PictureMaker")
      .def(py::init([](SimulationHandle& h, int width, int height, const std::string& mode) {
        return std::make_unique<PictureMaker>(h.sim->scene(), width, height, mode);
      }))
      .def("draw", [](PictureMaker& maker, SimulationHandle& h) {
        Picture p = maker.draw(*h.live());
        py::array_t<std::uint8_t> out({py::ssize_t(p.height), py::ssize_t(p.width), py::ssize_t(4)});
        std::copy(p.rgba.begin(), p.rgba.end(), out.mutable_data());
        return out;
      });
#else
  m.attr("_has_renderer") = false;
#endif
}

void bindScene(py::module_& m) {
  py::class_<SceneDesc>(m, "_Scene")
      .def_readonly("name", &SceneDesc::name)
      .def_readonly("solver", &SceneDesc::solver)
      .def_readonly("source", &SceneDesc::sourcePath)
      .def_property_readonly("fps", [](const SceneDesc& s) { return double(s.time.fps); })
      .def_property_readonly("frames", [](const SceneDesc& s) { return s.time.frames; })
      .def_property_readonly("spacing", [](const SceneDesc& s) { return double(s.fluid.spacing); })
      .def("to_json", [](const SceneDesc& s) { return sceneToJson(s); });
  m.def("_scene_from_file", &sceneFromFile);
  m.def("_scene_from_json", &sceneFromJson);
  m.def("_default_scene_json", [] { return std::string(defaultSceneJson()); });
}

}  // namespace

PYBIND11_MODULE(_eddy, m) {
  m.doc() = "eddy's engine; use the package eddy, which wraps it";
  // bad input is a ValueError with the CLI's message; a blow-up is eddy.BlowUp; the machine failing is a
  // RuntimeError
  // the type lives as long as the interpreter holds the module (a reference of our own, never dropped)
  static PyObject* blowUpType = PyErr_NewException("eddy.BlowUp", PyExc_RuntimeError, nullptr);
  m.attr("BlowUp") = py::handle(blowUpType);
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const SimulationBlowUp& e) {
      PyErr_SetString(blowUpType, e.what());
    } catch (const InputError& e) {
      PyErr_SetString(PyExc_ValueError, e.what());
    } catch (const RuntimeFailure& e) {
      PyErr_SetString(PyExc_RuntimeError, e.what());
    }
  });
  m.attr("__version__") = kVersion;
  m.def("cuda_available", &cudaAvailable);
  m.def("cuda_device_name", &cudaDeviceName);
  m.def("solver_names", &solverNames);
  bindScene(m);
  bindSimulation(m);
  bindCudaArray(m);
  bindPictures(m);
}

}  // namespace eddy::python
