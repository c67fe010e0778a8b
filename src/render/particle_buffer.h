// The particles' positions in an OpenGL buffer, filled from a running simulation on its own device: on the
// GPU through CUDA-OpenGL interop (the buffer is mapped into CUDA and the positions copied device to
// device, never through the host), on the CPU through a mapped GL buffer. The renderers draw from it.
#pragma once

#include <cstddef>

namespace eddy {
class Simulation;
}

namespace eddy::render {

class ParticleBuffer {
 public:
  ParticleBuffer();  // needs a current OpenGL context
  ~ParticleBuffer();
  ParticleBuffer(const ParticleBuffer&) = delete;
  ParticleBuffer& operator=(const ParticleBuffer&) = delete;

  // the simulation's positions now; throws RuntimeFailure where a CUDA simulation cannot reach the GL
  // (a build without CUDA-OpenGL interop, or a GL on another device)
  void fill(Simulation& sim);
  unsigned id() const { return buffer_; }
  std::size_t count() const { return count_; }
  // whether the last fill went device to device through CUDA-OpenGL interop
  bool throughInterop() const { return interop_; }

 private:
  unsigned buffer_ = 0;
  std::size_t count_ = 0, capacity_ = 0;
  void* cudaResource_ = nullptr;  // cudaGraphicsResource_t of the buffer, registered once per allocation
  bool interop_ = false;
};

}  // namespace eddy::render
