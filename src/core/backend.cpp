#include <eddy/backend.h>

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

std::size_t freeHostMemoryBytes() { return freeDeviceBytes(Device::Host); }

}  // namespace eddy
