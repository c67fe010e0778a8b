// One OpenGL buffer that a simulation writes from its own memory: on the GPU through CUDA-OpenGL interop
// (the buffer mapped into CUDA and written device to device, never through the host), on the CPU through
// the mapped GL buffer. The particle and surface buffers the renderers draw from are made of these.
#pragma once

#include <eddy/backend.h>

#include <cstddef>
#include <functional>

namespace eddy::render {

class InteropBuffer {
 public:
  InteropBuffer();  // needs a current OpenGL context
  ~InteropBuffer();
  InteropBuffer(const InteropBuffer&) = delete;
  InteropBuffer& operator=(const InteropBuffer&) = delete;

  // makes room for `bytes` (grown by half again, so a growing run does not reallocate every frame), then
  // copy(pointer) writes them: a CUDA device pointer for Backend::Cuda, a host pointer for the CPU. Returns
  // whether it went through CUDA-OpenGL interop; throws RuntimeFailure where a CUDA simulation cannot reach
  // the GL (a build without interop, or a GL on another device). `what` names the buffer in messages.
  bool write(Backend backend, std::size_t bytes, const std::function<void(void*)>& copy, const char* what);
  unsigned id() const { return buffer_; }

 private:
  unsigned buffer_ = 0;
  std::size_t capacity_ = 0;
  void* cudaResource_ = nullptr;  // cudaGraphicsResource_t of the buffer, registered once per allocation
};

// copies bytes within the backend's memory (device to device on the GPU)
void copyWithin(Backend backend, void* to, const void* from, std::size_t bytes);

}  // namespace eddy::render
