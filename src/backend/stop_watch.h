// Wall time of the device work queued between two points: CUDA events on the GPU (so the host's own
// pace does not count), a steady clock on the CPU, where the work is done when the loop returns. lap()
// waits for the work queued so far; use it outside loops that must not stall.
#pragma once

#include <chrono>

#include "backend/parallel.h"

namespace eddy::EDDY_NS {

class StopWatch {
 public:
  StopWatch() {
#if EDDY_BACKEND_CUDA
    checkCuda(cudaEventCreate(&start_), "cudaEventCreate");
    checkCuda(cudaEventCreate(&stop_), "cudaEventCreate");
#endif
  }
  ~StopWatch() {
#if EDDY_BACKEND_CUDA
    cudaEventDestroy(start_);
    cudaEventDestroy(stop_);
#endif
  }
  StopWatch(const StopWatch&) = delete;
  StopWatch& operator=(const StopWatch&) = delete;

  void start() {
#if EDDY_BACKEND_CUDA
    checkCuda(cudaEventRecord(start_), "cudaEventRecord");
#else
    start_ = std::chrono::steady_clock::now();
#endif
  }
  // milliseconds since start() (or the last lap), and the next lap starts now
  double lap() {
#if EDDY_BACKEND_CUDA
    checkCuda(cudaEventRecord(stop_), "cudaEventRecord");
    checkCuda(cudaEventSynchronize(stop_), "cudaEventSynchronize");
    float ms = 0;
    checkCuda(cudaEventElapsedTime(&ms, start_, stop_), "cudaEventElapsedTime");
    std::swap(start_, stop_);
    return ms;
#else
    auto now = std::chrono::steady_clock::now();
    double ms = std::chrono::duration<double, std::milli>(now - start_).count();
    start_ = now;
    return ms;
#endif
  }

 private:
#if EDDY_BACKEND_CUDA
  cudaEvent_t start_ = nullptr, stop_ = nullptr;
#else
  std::chrono::steady_clock::time_point start_{};
#endif
};

}  // namespace eddy::EDDY_NS
