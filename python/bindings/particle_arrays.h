// The particles' attributes handed to Python where the engine keeps them: numpy arrays over host memory
// (CPU backend), and CudaArray objects over device memory (CUDA backend) that PyTorch, CuPy and others read
// through __cuda_array_interface__ or DLPack, without a copy either way.
#pragma once

#include <eddy/simulation.h>
#include <pybind11/pybind11.h>

#include <cstdint>
#include <memory>
#include <string>

namespace eddy::python {

namespace py = pybind11;

struct SimulationHandle;

// One attribute as Simulation::particleArrays gave it, with the Python object that keeps the simulation
// alive while anything reads the memory.
struct CudaArray {
  ParticleArray array;
  py::object owner;  // keeps the eddy.Simulation whose memory this is alive (eddy._ArrayOwner)
  std::shared_ptr<SimulationHandle> simulation;
  // checks that the simulation still has array.count particles (emitters add some between frames; the
  // engine keeps the address itself fixed); throws RuntimeError naming the attribute otherwise
  void checkCurrent() const;
};

// shape of an attribute as Python sees it: (count,) for one component, (count, components) otherwise
py::tuple shapeOf(const ParticleArray& a);

// a numpy array over host memory, writable, kept alive by `owner`
py::object hostArray(const ParticleArray& a, py::object owner);

// registers eddy.CudaArray
void bindCudaArray(py::module_& m);

}  // namespace eddy::python
