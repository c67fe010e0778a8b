#include "render/mesh_buffer.h"

#include <eddy/simulation.h>

#include <cstdint>

#include "surface/marching_cubes.h"

namespace eddy::render {

void MeshBuffer::fill(Simulation& sim) {
  SurfaceMeshView mesh;
  sim.buildSurfaceOnDevice(mesh);
  const Backend backend = sim.backend();
  const std::size_t vertexBytes = std::size_t(mesh.vertexCount) * sizeof(Vec3);
  triangleCount_ = std::size_t(mesh.triangleCount);
  const std::size_t triangleBytes = triangleCount_ * 3 * sizeof(std::uint32_t);
  const std::size_t bytes[3] = {vertexBytes, vertexBytes, triangleBytes};
  const void* from[3] = {mesh.vertices, mesh.normals, mesh.triangles};
  interop_ = writeBuffers(
      backend, {{&vertices_, bytes[0]}, {&normals_, bytes[1]}, {&triangles_, bytes[2]}},
      [&](void* const* to) {
        for (int k = 0; k < 3; ++k)
          if (bytes[k] > 0) copyWithin(backend, to[k], from[k], bytes[k]);
      },
      "surface buffers");
}

}  // namespace eddy::render
