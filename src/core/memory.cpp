#include "core/memory.h"

#include <eddy/error.h>
#include <unistd.h>

#include <atomic>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <string>

#if EDDY_WITH_CUDA
#include <cuda_runtime_api.h>
#endif

namespace eddy {
namespace {

std::atomic<std::size_t> gAllocated[2];

#if EDDY_WITH_CUDA
void check(cudaError_t e, const char* what, std::size_t bytes = 0) {
  if (e == cudaSuccess) return;
  std::string msg = std::string("CUDA ") + what + " failed: " + cudaGetErrorString(e);
  if (bytes) msg += " (" + std::to_string(bytes >> 20) + " MiB requested)";
  throw RuntimeFailure(msg);
}
#endif

// allocation sizes are stored in a small header so release can keep the counter right
constexpr std::size_t kHeader = 64;

}  // namespace

void* allocateBytes(Device device, std::size_t bytes) {
  if (bytes == 0) return nullptr;
  if (device == Device::Host) {
    void* p = std::aligned_alloc(kHeader, ((bytes + kHeader - 1) / kHeader + 1) * kHeader);
    if (!p) throw RuntimeFailure("out of host memory allocating " + std::to_string(bytes >> 20) + " MiB");
    *static_cast<std::size_t*>(p) = bytes;
    gAllocated[0] += bytes;
    return static_cast<char*>(p) + kHeader;
  }
#if EDDY_WITH_CUDA
  void* p = nullptr;
  check(cudaMalloc(&p, bytes + kHeader), "cudaMalloc", bytes);
  check(cudaMemcpy(p, &bytes, sizeof bytes, cudaMemcpyHostToDevice), "cudaMemcpy");
  gAllocated[1] += bytes;
  return static_cast<char*>(p) + kHeader;
#else
  throw RuntimeFailure("this build has no CUDA backend");
#endif
}

void releaseBytes(Device device, void* ptr) {
  if (!ptr) return;
  char* base = static_cast<char*>(ptr) - kHeader;
  if (device == Device::Host) {
    gAllocated[0] -= *reinterpret_cast<std::size_t*>(base);
    std::free(base);
    return;
  }
#if EDDY_WITH_CUDA
  std::size_t bytes = 0;
  if (cudaMemcpy(&bytes, base, sizeof bytes, cudaMemcpyDeviceToHost) == cudaSuccess) gAllocated[1] -= bytes;
  cudaFree(base);
#endif
}

void copyBytes(Device dstDevice, void* dst, Device srcDevice, const void* src, std::size_t bytes) {
  if (bytes == 0) return;
  if (dstDevice == Device::Host && srcDevice == Device::Host) {
    std::memcpy(dst, src, bytes);
    return;
  }
#if EDDY_WITH_CUDA
  check(cudaMemcpy(dst, src, bytes, cudaMemcpyDefault), "cudaMemcpy");
#else
  throw RuntimeFailure("this build has no CUDA backend");
#endif
}

void fillBytes(Device device, void* dst, int value, std::size_t bytes) {
  if (bytes == 0) return;
  if (device == Device::Host) {
    std::memset(dst, value, bytes);
    return;
  }
#if EDDY_WITH_CUDA
  check(cudaMemsetAsync(dst, value, bytes), "cudaMemset");
#endif
}

void synchronizeDevice(Device device) {
#if EDDY_WITH_CUDA
  if (device == Device::Cuda) check(cudaDeviceSynchronize(), "kernel execution");
#endif
}

std::size_t allocatedBytes(Device device) { return gAllocated[device == Device::Host ? 0 : 1]; }

std::size_t freeDeviceBytes(Device device) {
#if EDDY_WITH_CUDA
  if (device == Device::Cuda) {
    std::size_t freeB = 0, totalB = 0;
    check(cudaMemGetInfo(&freeB, &totalB), "cudaMemGetInfo");
    return freeB;
  }
#endif
  // the host: physical memory not in use right now
  long pages = sysconf(_SC_AVPHYS_PAGES), pageSize = sysconf(_SC_PAGESIZE);
  if (pages <= 0 || pageSize <= 0) return std::numeric_limits<std::size_t>::max();
  return std::size_t(pages) * std::size_t(pageSize);
}

}  // namespace eddy
