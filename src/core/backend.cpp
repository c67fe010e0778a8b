#include <eddy/backend.h>
#include <eddy/error.h>
#include <eddy/interop.h>

#include <cstring>
#include <string>

#include "core/memory.h"

#if EDDY_WITH_CUDA
#include <cuda_runtime_api.h>
#endif

namespace eddy {

const char* backendName(Backend b) {
  switch (b) {
    case Backend::Cpu:
      return "cpu";
    case Backend::Cuda:
      return "cuda";
    default:
      return "auto";
  }
}

bool cudaAvailable() {
#if EDDY_WITH_CUDA
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess) {
    cudaGetLastError();
    return false;
  }
  return count > 0;
#else
  return false;
#endif
}

std::string cudaDeviceName() {
#if EDDY_WITH_CUDA
  if (!cudaAvailable()) return {};
  cudaDeviceProp prop{};
  int dev = 0;
  cudaGetDevice(&dev);
  if (cudaGetDeviceProperties(&prop, dev) != cudaSuccess) return {};
  return prop.name;
#else
  return {};
#endif
}

Backend resolveBackend(Backend requested) {
  if (requested != Backend::Auto) return requested;
  return cudaAvailable() ? Backend::Cuda : Backend::Cpu;
}

void orderStreamAfterEngine(std::uintptr_t stream) {
#if EDDY_WITH_CUDA
  if (stream <= 2) return;
  // an event per call: it is recorded, waited on, and released (CUDA frees it once the wait is done)
  cudaEvent_t done = nullptr;
  cudaError_t e = cudaEventCreateWithFlags(&done, cudaEventDisableTiming);
  if (e == cudaSuccess) e = cudaEventRecord(done, cudaStreamLegacy);
  if (e == cudaSuccess) e = cudaStreamWaitEvent(reinterpret_cast<cudaStream_t>(stream), done, 0);
  if (done) cudaEventDestroy(done);
  if (e != cudaSuccess)
    throw RuntimeFailure(std::string("ordering a CUDA stream after the engine's work: ") +
                         cudaGetErrorString(e));
#else
  (void)stream;
#endif
}

void copyToHost(void* host, const void* source, std::size_t bytes, Device device) {
  if (bytes == 0) return;
  if (device == Device::Host) {
    std::memcpy(host, source, bytes);
    return;
  }
#if EDDY_WITH_CUDA
  cudaError_t e = cudaMemcpy(host, source, bytes, cudaMemcpyDeviceToHost);
  if (e != cudaSuccess) throw RuntimeFailure(std::string("copying to the host: ") + cudaGetErrorString(e));
#else
  throw RuntimeFailure("copying from CUDA memory in a build without CUDA");
#endif
}

int engineCudaDevice() {
#if EDDY_WITH_CUDA
  int device = -1;
  if (!cudaAvailable() || cudaGetDevice(&device) != cudaSuccess) return -1;
  return device;
#else
  return -1;
#endif
}

std::size_t freeHostMemoryBytes() { return freeDeviceBytes(Device::Host); }

}  // namespace eddy
