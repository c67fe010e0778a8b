// One OpenGL buffer that a simulation writes from its own memory: on the GPU through CUDA-OpenGL interop
// (the buffer mapped into CUDA and written device to device, never through the host), on the CPU through
// the mapped GL buffer. The particle and surface buffers the renderers draw from are made of these.
#pragma once

#include <eddy/backend.h>

#include <cstddef>
#include <functional>
#include <initializer_list>
#include <utility>

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
  // room for `bytes` at least, filled from the backend's memory (the contents are lost where it grows)
  void reserve(std::size_t bytes, Backend backend);
  // the buffer registered with CUDA (a cudaGraphicsResource_t), once per allocation
  void* cudaResource(const char* what);

 private:
  unsigned buffer_ = 0;
  std::size_t capacity_ = 0;
  unsigned usage_ = 0;            // the GL's usage hint it was made with
  void* cudaResource_ = nullptr;  // cudaGraphicsResource_t of the buffer, registered once per allocation
};

// several buffers filled at once, with one CUDA mapping for all of them (each mapping synchronises CUDA
// with the GL): copy gets one pointer per buffer, in order (null for 0 bytes). Otherwise as write.
bool writeBuffers(Backend backend, std::initializer_list<std::pair<InteropBuffer*, std::size_t>> buffers,
                  const std::function<void(void* const*)>& copy, const char* what);

// buffers filled with copies of arrays in the backend's own memory (device to device through one mapping on
// the GPU, memcpy on the CPU); returns whether it went through CUDA-OpenGL interop
struct BufferSource {
  InteropBuffer* buffer;
  const void* from;
  std::size_t bytes;
};
bool copyIntoBuffers(Backend backend, std::initializer_list<BufferSource> sources, const char* what);

// copies bytes within the backend's memory (device to device on the GPU)
void copyWithin(Backend backend, void* to, const void* from, std::size_t bytes);
// waits until the GPU has done all the work given it (benchmarks timing what a picture needs); nothing on
// the CPU backend
void finishDeviceWork(Backend backend);

}  // namespace eddy::render
