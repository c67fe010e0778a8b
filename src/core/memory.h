// Raw allocation and copies on the host or the CUDA device. Compiled once, by the C++ compiler.
#pragma once

#include <eddy/backend.h>

#include <cstddef>

namespace eddy {

void* allocateBytes(Device device, std::size_t bytes);
void releaseBytes(Device device, void* ptr);
void copyBytes(Device dstDevice, void* dst, Device srcDevice, const void* src, std::size_t bytes);
void fillBytes(Device device, void* dst, int value, std::size_t bytes);
void synchronizeDevice(Device device);

// bytes currently allocated through allocateBytes on a device (for reports)
std::size_t allocatedBytes(Device device);
// free device memory; for the host, the physical memory not in use
std::size_t freeDeviceBytes(Device device);

}  // namespace eddy
