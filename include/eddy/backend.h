// Where a simulation runs.
#pragma once

#include <cstddef>
#include <string>

namespace eddy {

enum class Backend { Auto, Cpu, Cuda };

// device memory a buffer lives in
enum class Device { Host, Cuda };

const char* backendName(Backend b);

// true when this build has CUDA and a usable GPU is present
bool cudaAvailable();

// GPU name, or an empty string where there is none
std::string cudaDeviceName();

// Auto becomes Cuda where available, otherwise Cpu
Backend resolveBackend(Backend requested);

// host memory free for new allocations (MemAvailable), bytes
std::size_t freeHostMemoryBytes();

}  // namespace eddy
