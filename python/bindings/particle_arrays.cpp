#include "particle_arrays.h"

#include <eddy/interop.h>
#include <pybind11/numpy.h>

#include <cstdint>
#include <string>

#include "simulation_handle.h"

namespace eddy::python {

namespace {

// DLPack's C ABI (https://github.com/dmlc/dlpack, include/dlpack/dlpack.h, version 0.8): the structs a
// "dltensor" capsule carries, declared here to the letter of that header
struct DLDevice {
  std::int32_t device_type;
  std::int32_t device_id;
};
struct DLDataType {
  std::uint8_t code;
  std::uint8_t bits;
  std::uint16_t lanes;
};
struct DLTensor {
  void* data;
  DLDevice device;
  std::int32_t ndim;
  DLDataType dtype;
  std::int64_t* shape;
  std::int64_t* strides;
  std::uint64_t byte_offset;
};
struct DLManagedTensor {
  DLTensor dl_tensor;
  void* manager_ctx;
  void (*deleter)(DLManagedTensor* self);
};
constexpr std::int32_t kDLCUDA = 2;
constexpr std::uint8_t kDLUInt = 1;
constexpr std::uint8_t kDLFloat = 2;

// what a handed-out DLPack tensor keeps: its shape and a reference to the simulation
struct DLPackContext {
  DLManagedTensor tensor{};
  std::int64_t shape[2] = {0, 0};
  PyObject* owner = nullptr;
};

void deleteDLPack(DLManagedTensor* self) {
  auto* context = static_cast<DLPackContext*>(self->manager_ctx);
  if (Py_IsInitialized()) {      // a tensor released after the interpreter's end has nothing left to release
    py::gil_scoped_acquire gil;  // consumers may release a tensor on any thread
    Py_XDECREF(context->owner);
  }
  delete context;
}

// a capsule no consumer took still owns its tensor
void deleteUnusedCapsule(PyObject* capsule) {
  if (!PyCapsule_IsValid(capsule, "dltensor")) return;  // renamed "used_dltensor": the consumer owns it
  auto* tensor = static_cast<DLManagedTensor*>(PyCapsule_GetPointer(capsule, "dltensor"));
  if (tensor && tensor->deleter) tensor->deleter(tensor);
}

const char* typeString(AttributeType t) { return t == AttributeType::UInt32 ? "<u4" : "<f4"; }

}  // namespace

py::tuple shapeOf(const ParticleArray& a) {
  if (a.components == 1) return py::make_tuple(a.count);
  return py::make_tuple(a.count, a.components);
}

py::object hostArray(const ParticleArray& a, py::object owner) {
  py::dtype type = a.type == AttributeType::UInt32 ? py::dtype::of<std::uint32_t>() : py::dtype::of<float>();
  std::vector<py::ssize_t> shape{py::ssize_t(a.count)};
  std::vector<py::ssize_t> strides{py::ssize_t(4 * a.components)};
  if (a.components > 1) {
    shape.push_back(a.components);
    strides.push_back(4);
  }
  py::array out(type, shape, strides, a.data, owner);
  // ids are the engine's bookkeeping: read them, match rows through them, never write them
  if (a.name == "id") out.attr("setflags")(py::arg("write") = false);
  return out;
}

void CudaArray::checkCurrent() const {
  // through the simulation's lock: a consumer on another thread meets "busy" during a step instead of
  // reading (or, through particleArrays, moving) the storage under it
  SimulationHandle::Use use = simulation->any();
  std::int64_t now = use->particleCount();
  if (now != array.count)
    throw std::runtime_error("the CUDA array '" + array.name + "' was taken with " +
                             std::to_string(array.count) + " particles and the simulation has " +
                             std::to_string(now) + " now; take it again (sim.array('" + array.name + "'))");
  // growth moves the storage (addParticles): the address is checked as well
  for (const ParticleArray& a : use->particleArrays())
    if (a.name == array.name && a.data != array.data)
      throw std::runtime_error("the CUDA array '" + array.name +
                               "' was taken before the particle storage grew; take it again (sim.array('" +
                               array.name + "'))");
}

void bindCudaArray(py::module_& m) {
  py::class_<CudaArray>(m, "CudaArray", R"doc(
A particle attribute in the GPU's memory, where the CUDA backend keeps it: no copy is made. PyTorch
(torch.from_dlpack, torch.as_tensor), CuPy (cupy.asarray, cupy.from_dlpack) and Numba read it through
__dlpack__ or __cuda_array_interface__ (version 3). The engine queues its work on CUDA's legacy default
stream; a consumer on another stream is ordered after it on the GPU, without stopping the host.
The array stays valid (and keeps its simulation alive) between frames; a step rewrites its rows in place.
Once emitters have changed the particle count, using it raises RuntimeError: take it again.
)doc")
      .def_property_readonly(
          "name", [](const CudaArray& a) { return a.array.name; }, "the attribute's name")
      .def_property_readonly(
          "shape", [](const CudaArray& a) { return shapeOf(a.array); },
          "(particles,) or (particles, components)")
      .def_property_readonly(
          "dtype",
          [](const CudaArray& a) { return a.array.type == AttributeType::UInt32 ? "uint32" : "float32"; },
          "'float32' or 'uint32'")
      .def_property_readonly(
          "ptr", [](const CudaArray& a) { return reinterpret_cast<std::uintptr_t>(a.array.data); },
          "the device address of the first element")
      .def_property_readonly(
          "__cuda_array_interface__",
          [](const CudaArray& a) {
            a.checkCurrent();
            py::dict d;
            d["shape"] = shapeOf(a.array);
            d["typestr"] = typeString(a.array.type);
            d["data"] = py::make_tuple(reinterpret_cast<std::uintptr_t>(a.array.data), a.array.name == "id");
            d["strides"] = py::none();
            d["version"] = 3;
            d["stream"] = 1;  // the legacy default stream, where the engine queues its work
            return d;
          })
      .def(
          "__dlpack__",
          [](const CudaArray& a, py::object stream, py::kwargs kwargs) {
            a.checkCurrent();
            // the array API's keywords: a copy or another device is not what this array gives
            if (kwargs.contains("copy") && !kwargs["copy"].is_none() && kwargs["copy"].cast<bool>())
              throw py::buffer_error(
                  "eddy.CudaArray.__dlpack__: copy=True; the array is handed out in place "
                  "(use .numpy() for a copy)");
            if (kwargs.contains("dl_device") && !kwargs["dl_device"].is_none()) {
              auto device = kwargs["dl_device"].cast<py::tuple>();
              if (device[0].cast<int>() != kDLCUDA || device[1].cast<int>() != engineCudaDevice())
                throw py::buffer_error("eddy.CudaArray.__dlpack__: the array lives on cuda:" +
                                       std::to_string(engineCudaDevice()) + " and moves nowhere else");
            }
            if (!stream.is_none()) {
              auto s = stream.cast<std::int64_t>();
              if (s > 0) orderStreamAfterEngine(std::uintptr_t(s));  // -1: the consumer asks for no order
            }
            auto* context = new DLPackContext;
            context->shape[0] = a.array.count;
            context->shape[1] = a.array.components;
            context->owner = a.owner.ptr();
            Py_INCREF(context->owner);
            DLTensor& t = context->tensor.dl_tensor;
            t.data = a.array.data;
            t.device = {kDLCUDA, engineCudaDevice()};
            t.ndim = a.array.components == 1 ? 1 : 2;
            t.dtype = {a.array.type == AttributeType::UInt32 ? kDLUInt : kDLFloat, 32, 1};
            t.shape = context->shape;
            t.strides = nullptr;  // compact, row-major
            t.byte_offset = 0;
            context->tensor.manager_ctx = context;
            context->tensor.deleter = deleteDLPack;
            PyObject* capsule = PyCapsule_New(&context->tensor, "dltensor", deleteUnusedCapsule);
            if (!capsule) {
              deleteDLPack(&context->tensor);
              throw py::error_already_set();
            }
            return py::reinterpret_steal<py::object>(capsule);
          },
          py::arg("stream") = py::none(),
          "a DLPack capsule over the device memory (the array API's protocol); `stream` is the consumer's")
      .def(
          "__dlpack_device__", [](const CudaArray&) { return py::make_tuple(kDLCUDA, engineCudaDevice()); },
          "(2, device): kDLCUDA and the GPU's ordinal")
      .def(
          "numpy",
          [](const CudaArray& a) {
            a.checkCurrent();
            py::dtype type = a.array.type == AttributeType::UInt32 ? py::dtype::of<std::uint32_t>()
                                                                   : py::dtype::of<float>();
            std::vector<py::ssize_t> shape{py::ssize_t(a.array.count)};
            if (a.array.components > 1) shape.push_back(a.array.components);
            py::array out(type, shape);
            copyToHost(out.mutable_data(), a.array.data, std::size_t(a.array.count) * a.array.components * 4,
                       a.array.device);
            return out;
          },
          "a copy in host memory, as a numpy array (the only call here that copies)")
      .def("__len__", [](const CudaArray& a) { return a.array.count; })
      .def("__repr__", [](const CudaArray& a) {
        return "<eddy.CudaArray '" + a.array.name + "' " + std::to_string(a.array.count) + "x" +
               std::to_string(a.array.components) + " " +
               (a.array.type == AttributeType::UInt32 ? "uint32" : "float32") +
               " on cuda:" + std::to_string(engineCudaDevice()) + ">";
      });
}

}  // namespace eddy::python
