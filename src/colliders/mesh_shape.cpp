#include "colliders/mesh_shape.h"

#include <eddy/error.h>
#include <eddy/mesh.h>

#include <algorithm>
#include <string>

namespace eddy {

PlacedMesh placeMesh(const ShapeDesc& shape, Quat orientation, const std::string& where, bool needsInside) {
  // the mesh comes read with the scene (loadSceneMeshes); the loader's message names the file and the line,
  // the key says which shape of the scene reads it
  if (!shape.mesh)
    throw InputError(where + "/file: " +
                     (shape.meshError.empty() ? "mesh '" + shape.file +
                                                    "' was not read: a scene made in code reads its meshes "
                                                    "with loadSceneMeshes (<eddy/scene_io.h>)"
                                              : shape.meshError));
  PlacedMesh out;
  out.mesh = *shape.mesh;
  MeshReport report = inspectMesh(out.mesh);
  if (!report.closed() && !(shape.thickness > 0))
    throw InputError(
        where + "/file: mesh '" + shape.file + "' is not closed (" + std::to_string(report.boundaryEdges) +
        " boundary and " + std::to_string(report.nonManifoldEdges) +
        " non-manifold edges): its inside is unknown; close the mesh" +
        (needsInside ? std::string(" (a tank, a filled mesh or a rigid body needs an inside)")
                     : std::string(", or give the shape a \"thickness\" to use it as a thin shell")));
  out.scale = shape.scale;
  out.translation = shape.translation;
  if (shape.fitInto.set()) {
    // the turned mesh's box, then the largest uniform scale that fits it in the target box, centred
    Vec3 lo = rotate(orientation, out.mesh.vertices[out.mesh.triangles[0][0]]), hi = lo;
    for (const auto& t : out.mesh.triangles)
      for (std::uint32_t v : t) {
        Vec3 p = rotate(orientation, out.mesh.vertices[v]);
        lo = cwiseMin(lo, p);
        hi = cwiseMax(hi, p);
      }
    Vec3 size = hi - lo, room = shape.fitInto.max - shape.fitInto.min;
    Real fit = 1e30f;
    if (size.x > 0) fit = std::min(fit, room.x / size.x);
    if (size.y > 0) fit = std::min(fit, room.y / size.y);
    if (size.z > 0) fit = std::min(fit, room.z / size.z);
    if (!(fit < 1e30f))
      throw InputError(where + "/fit_into: mesh '" + shape.file + "' has no extent to fit into a box");
    out.scale = fit;
    out.translation = (shape.fitInto.min + shape.fitInto.max) * Real(0.5) - (lo + hi) * (Real(0.5) * fit);
  }
  for (Vec3& v : out.mesh.vertices) v = v * out.scale;
  return out;
}

}  // namespace eddy
