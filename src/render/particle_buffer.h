// The particles' positions in an OpenGL buffer, filled from a running simulation on its own device: on the
// GPU through CUDA-OpenGL interop (the buffer is mapped into CUDA and the positions copied device to
// device, never through the host), on the CPU through a mapped GL buffer. The renderers draw from it.
#pragma once

#include <cstddef>
#include <string>

#include "render/interop_buffer.h"

namespace eddy {
class Simulation;
}

namespace eddy::render {

class ParticleBuffer {
 public:
  ParticleBuffer() = default;  // needs a current OpenGL context

  // the simulation's positions now, and with `quantity` one value per particle (Simulation::copyValues:
  // "speed", "density", "id", "material"; "" for none); throws RuntimeFailure where a CUDA simulation
  // cannot reach the GL (a build without CUDA-OpenGL interop, or a GL on another device)
  void fill(Simulation& sim, const std::string& quantity = {});
  unsigned id() const { return buffer_.id(); }
  // the values' buffer, 0 where the last fill took none
  unsigned valuesId() const { return hasValues_ ? values_.id() : 0; }
  std::size_t count() const { return count_; }
  // whether the last fill went device to device through CUDA-OpenGL interop
  bool throughInterop() const { return interop_; }

 private:
  InteropBuffer buffer_, values_;
  std::size_t count_ = 0;
  bool interop_ = false, hasValues_ = false;
};

}  // namespace eddy::render
