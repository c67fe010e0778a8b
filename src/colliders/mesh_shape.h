// A scene's mesh shape made ready for its distance field: the mesh read with the scene, checked (closed,
// unless the shape is a thin shell with a thickness), its vertices scaled, and the translation that places
// it, chosen by "fit_into" where the scene asks for it.
//
// Host-only: compiled once, into namespace eddy (see EDDY_HOST_FILES in src/CMakeLists.txt).
#pragma once

#include <eddy/mesh.h>
#include <eddy/simulation_desc.h>
#include <eddy/vec3.h>

#include <string>

namespace eddy {

struct PlacedMesh {
  TriangleMesh mesh;  // scaled, in the shape's own frame (its origin at `translation`)
  Vec3 translation{};
  Real scale = 1;
};

// `orientation` is the shape's (the fit looks at the turned mesh); `where` names the shape in messages,
// e.g. "scene.json: /colliders/0/shape"; `needsInside` for a tank or a filled mesh, which cannot be a
// shell. Throws InputError naming the key (`where` + "/file") and the file for a mesh that was not read (a
// missing Stanford model: where to get it), an open mesh without a thickness, and a mesh with no extent to
// fit.
PlacedMesh placeMesh(const ShapeDesc& shape, Quat orientation, const std::string& where,
                     bool needsInside = false);

}  // namespace eddy
