#include "render/mesh_buffer.h"

#include <eddy/simulation.h>
#include <eddy/surface.h>

#include <cstdint>

namespace eddy::render {

void MeshBuffer::fill(Simulation& sim) {
  SurfaceMeshView mesh;
  sim.buildSurfaceOnDevice(mesh);
  const Backend backend = sim.backend();
  const std::size_t vertexBytes = std::size_t(mesh.vertexCount) * sizeof(Vec3);
  triangleCount_ = std::size_t(mesh.triangleCount);
  const std::size_t triangleBytes = triangleCount_ * 3 * sizeof(std::uint32_t);
  interop_ = copyIntoBuffers(backend,
                             {{&vertices_, mesh.vertices, vertexBytes},
                              {&normals_, mesh.normals, vertexBytes},
                              {&triangles_, mesh.triangles, triangleBytes}},
                             "surface buffers");
}

}  // namespace eddy::render
