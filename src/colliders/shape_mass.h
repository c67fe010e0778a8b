// What a solid shape of uniform density weighs and how it turns: its volume, the centre of that volume,
// its principal second moments (the inertia per unit density) and axes, and the points a rigid body's
// contacts are sampled at. Analytic for the boxes, spheres, capsules and cylinders; a closed mesh by its
// signed tetrahedra (meshMass).
//
// Host-only: compiled once, into namespace eddy (see EDDY_HOST_FILES in src/CMakeLists.txt).
#pragma once

#include <eddy/mesh.h>
#include <eddy/simulation_desc.h>
#include <eddy/vec3.h>

#include <vector>

namespace eddy {

struct ShapeMass {
  double volume = 0;  // m^3
  Vec3 centre{};      // of the volume, in the shape's frame (from its centre, or a mesh's origin), m
  Vec3 moments{};     // principal moments of inertia per unit density, m^5 (times kg/m^3: kg m^2)
  Quat principal{};   // the principal axes' frame -> the shape's frame
  Real reach = 0;     // the farthest point of the shape from `centre`, m
  // where a rigid body's contacts are sampled, in the shape's frame: spheres of sampleRadius about them (a
  // box's corners, a capsule's segment ends, a cylinder's rims, a mesh's vertices spread over its hull)
  std::vector<Vec3> samples;
  Real sampleRadius = 0;
};

// the most contact samples a shape has (a cylinder's two rims, a mesh's spread vertices)
inline constexpr int kMostShapeSamples = 12;

// a box, sphere, capsule or cylinder (ShapeDesc's type; the rest have none: volume 0)
ShapeMass solidMass(const ShapeDesc& shape);

// A closed triangle mesh in its own frame, its triangles wound outward (a mesh wound inward gives a negative
// volume, which is turned). The volume integrals are sums over the tetrahedra each triangle makes with the
// origin, signed by the triangle's winding (Blow & Binstock, "How to find the inertia tensor (or other mass
// properties) of a 3D solid body represented by a triangle mesh", 2004): the volume, its first moment and
// its covariance, from which the inertia about the centre follows; the principal axes diagonalise it.
// Samples: kMostShapeSamples vertices, each the farthest from those taken (from the one farthest from the
// centre), which spreads them over the mesh's outside.
ShapeMass meshMass(const TriangleMesh& mesh);

}  // namespace eddy
