// Handing the engine's device memory to other GPU code (the Python module's CUDA arrays: PyTorch, CuPy)
// without a copy and without stopping the host.
#pragma once

#include <eddy/backend.h>

#include <cstddef>
#include <cstdint>

namespace eddy {

// The CUDA backend queues its kernels on the legacy default stream, which CUDA's own rules already order
// against every other blocking stream. Work queued on `stream` (a cudaStream_t as an integer: a
// non-blocking stream, say) after this call waits for all the engine has queued so far, on the GPU; the
// host goes on at once. Nothing to do for 0, 1 (the legacy default stream), 2 (per-thread default: it
// orders itself against the legacy stream), or in a build without CUDA. Throws RuntimeFailure when CUDA
// refuses the stream.
void orderStreamAfterEngine(std::uintptr_t stream);

// copies `bytes` from memory on `device` (ParticleArray::device, say) into host memory, after the work the
// engine has queued; throws RuntimeFailure when CUDA fails
void copyToHost(void* host, const void* source, std::size_t bytes, Device device);

// the CUDA device the engine runs on (its ordinal), -1 in a build without CUDA or without a GPU
int engineCudaDevice();

}  // namespace eddy
