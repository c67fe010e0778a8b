// The particles as ellipsoids (surface/particle_ellipsoids.h) in OpenGL buffers, for screen-space fluid
// rendering: from a running simulation, built on its device and copied device to device through
// CUDA-OpenGL interop on the GPU; or from a run's frame, computed on the host's backend and uploaded.
#pragma once

#include <cstddef>

#include "render/interop_buffer.h"
#include "render/sphere_splatting.h"

namespace eddy {
class Simulation;
struct HostEllipsoids;
}  // namespace eddy

namespace eddy::render {

class EllipsoidBuffer {
 public:
  EllipsoidBuffer() = default;  // needs a current OpenGL context

  // the simulation's particles now, by its scene's "surface" settings
  void fill(Simulation& sim);
  void upload(const HostEllipsoids& ellipsoids);
  // the centres (packed xyz floats), what the splatting reads in place of positions
  unsigned centres() const { return centres_.id(); }
  SplatShapes shapes() const { return {shapes_.id(), bounds_.id()}; }
  std::size_t count() const { return count_; }
  bool throughInterop() const { return interop_; }

 private:
  InteropBuffer centres_, shapes_, bounds_;
  std::size_t count_ = 0;
  bool interop_ = false;
};

}  // namespace eddy::render
