// A running simulation's liquid surface in OpenGL buffers: built on the simulation's device
// (Simulation::buildSurfaceOnDevice) and copied from there into the buffers, device to device through
// CUDA-OpenGL interop on the GPU, so the mesh never goes through the host. The surface renderer draws
// from it.
#pragma once

#include <cstddef>

#include "render/interop_buffer.h"

namespace eddy {
class Simulation;
}

namespace eddy::render {

class MeshBuffer {
 public:
  MeshBuffer() = default;  // needs a current OpenGL context

  // the simulation's surface now, by its scene's "surface" settings
  void fill(Simulation& sim);
  // vertex positions and normals (packed xyz floats) and three vertex indices per triangle
  unsigned vertices() const { return vertices_.id(); }
  unsigned normals() const { return normals_.id(); }
  unsigned triangles() const { return triangles_.id(); }
  std::size_t triangleCount() const { return triangleCount_; }
  bool throughInterop() const { return interop_; }

 private:
  InteropBuffer vertices_, normals_, triangles_;
  std::size_t triangleCount_ = 0;
  bool interop_ = false;
};

}  // namespace eddy::render
