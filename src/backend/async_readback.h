// A few words of device memory that the host reads without draining the GPU: queueCopy() puts their copy
// into pinned host memory behind the work already queued and marks that point with an event; read()
// waits for that point only, so work queued after the copy keeps the GPU busy while the host waits. Two
// slots, so that one can be read while the next is written (the frame loop reads the CFL maxima one
// substep late this way; the neighbour grid reads its list check through one). On the CPU backend the device
// is the host and the copy a memcpy.
#pragma once

#include <cstdint>
#include <cstring>

#include "backend/primitives.h"

namespace eddy::EDDY_NS {

class AsyncReadback {
 public:
  static constexpr int kSlots = 2;
  static constexpr int kWords = 8;

  AsyncReadback() = default;
  AsyncReadback(const AsyncReadback&) = delete;
  AsyncReadback& operator=(const AsyncReadback&) = delete;
  ~AsyncReadback() {
#if EDDY_BACKEND_CUDA
    for (cudaEvent_t e : copied_)
      if (e) cudaEventDestroy(e);
    if (pinned_) cudaFreeHost(pinned_);
#endif
  }

  // the slot's kWords words on the device
  std::uint32_t* words(int slot) {
    if (device_.size() == 0) {  // allocated by the first use (set-up, not the step loop)
      device_.resize(kDevice, kSlots * kWords);
      device_.fillZero();
#if EDDY_BACKEND_CUDA
      for (cudaEvent_t& e : copied_)
        checkCuda(cudaEventCreateWithFlags(&e, cudaEventDisableTiming), "event create");
      checkCuda(cudaHostAlloc(reinterpret_cast<void**>(&pinned_), sizeof(host_), cudaHostAllocDefault),
                "pinned allocation");
#endif
    }
    return device_.data() + slot * kWords;
  }
  // the same once allocated (by a call of words above)
  const std::uint32_t* words(int slot) const { return device_.data() + slot * kWords; }

  std::size_t bytes() const { return device_.bytes(); }

  // the copy of the slot's words, queued behind the work that writes them
  void queueCopy(int slot) {
#if EDDY_BACKEND_CUDA
    checkCuda(cudaMemcpyAsync(pinned_ + slot * kWords, words(slot), kWords * sizeof(std::uint32_t),
                              cudaMemcpyDeviceToHost),
              "read-back");
    checkCuda(cudaEventRecord(copied_[slot]), "read-back");
#else
    std::memcpy(host_ + slot * kWords, words(slot), kWords * sizeof(std::uint32_t));
#endif
  }

  // the slot's words as its last queueCopy found them (waits for that copy, not for later work)
  const std::uint32_t* read(int slot) {
#if EDDY_BACKEND_CUDA
    checkCuda(cudaEventSynchronize(copied_[slot]), "read-back");
    return pinned_ + slot * kWords;
#else
    return host_ + slot * kWords;
#endif
  }

 private:
  Buffer<std::uint32_t> device_;
  std::uint32_t host_[kSlots * kWords] = {};
#if EDDY_BACKEND_CUDA
  std::uint32_t* pinned_ = nullptr;
  cudaEvent_t copied_[kSlots] = {};
#endif
};

}  // namespace eddy::EDDY_NS
