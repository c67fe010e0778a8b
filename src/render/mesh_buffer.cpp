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
  interop_ = vertices_.write(
      backend, vertexBytes, [&](void* at) { copyWithin(backend, at, mesh.vertices, vertexBytes); },
      "surface vertex buffer");
  normals_.write(
      backend, vertexBytes, [&](void* at) { copyWithin(backend, at, mesh.normals, vertexBytes); },
      "surface normal buffer");
  const std::size_t triangleBytes = triangleCount_ * 3 * sizeof(std::uint32_t);
  triangles_.write(
      backend, triangleBytes, [&](void* at) { copyWithin(backend, at, mesh.triangles, triangleBytes); },
      "surface triangle buffer");
}

}  // namespace eddy::render
