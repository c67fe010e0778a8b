// Builds a closed triangle mesh's signed distance field on the device (or the CPU, from the same source):
//
//   1. exact distances in a thin shell: every triangle writes its distance to the nodes around it, keeping
//      the nearest triangle per node (an atomic minimum on distance and triangle packed in 64 bits);
//   2. out to the band: passes that offer each node the nearest triangles of its six neighbours (closest
//      feature propagation, as in the fast sweeping of Tsai 2002 / Bridson's SDFGen, here as Jacobi passes
//      that touch only nodes next to a change);
//   3. the sign from ray parity along x: each row of nodes gathers the triangles whose y-z shadow holds the
//      row, with a top-left rule for rays through an edge or vertex so a shared edge counts exactly once;
//   4. beyond the band a coarse fill: |d| >= the band (and >= the distance to the mesh's box outside it);
//   5. the cells where the field misses the surface, with their triangles (colliders/thin_cells.h).
// A thin shell (an open mesh, or any mesh given a thickness) skips step 3: its value is the distance less
// half the thickness on both sides, so it has a solid slab of that thickness and no inside to fill.
//
// References:
//   C. Ericson, "Real-Time Collision Detection", 2005, section 5.1.5 (closest point on a triangle).
//   Y.-H. R. Tsai, "Rapid and accurate computation of the distance function using grids", J. Comput. Phys.
//     178, 2002 (closest-point propagation on a grid).
//   J. Pineda, "A parallel algorithm for polygon rasterization", SIGGRAPH 1988 (edge functions; the
//     top-left tie-break of Direct3D and OpenGL rasterizers).
#pragma once

#include <eddy/mesh.h>

#include <vector>

#include "backend/primitives.h"
#include "colliders/mesh_field.h"
#include "colliders/thin_cells.h"

namespace eddy::EDDY_NS {

// the thin cells of one mesh's field and their triangle lists, built on the device from the field
class ThinCells {
 public:
  // field: its values already set; vertices and corners: the mesh in the field's frame, on the device
  void build(const MeshFieldView& field, const Vec3* vertices, const std::uint32_t* corners, Index triangles,
             Primitives& prims);
  ThinCellsView view() const { return view_; }
  std::uint32_t triangleEntries() const { return listed_; }
  std::size_t bytes() const;

 private:
  ThinCellsView view_{};
  std::uint32_t listed_ = 0;
  Buffer<std::uint32_t> mask_, cells_, starts_, triangles_;
  Buffer<std::uint8_t> bricks_;
};

class MeshSdf {
 public:
  // mesh in its own (already scaled) frame; must be closed unless settings.shellThickness > 0 (the sign
  // comes from ray parity)
  MeshSdfStats build(const TriangleMesh& mesh, const MeshSdfSettings& settings, Primitives& prims);
  MeshFieldView view() const;
  std::size_t bytes() const;
  // host copy of the node values (tests, tools)
  std::vector<Real> download() const;

  // stages of build(), public for the CUDA lambdas
  void scatterNearTriangles(int reach);
  int propagate(int passes);
  int signByRayParity(Primitives& prims);
  void offsetShell();

 private:
  MeshFieldView field_{};
  Vec3 meshLo_{}, meshHi_{};
  Index triangleCount_ = 0;
  Buffer<Vec3> vertices_;
  Buffer<std::uint32_t> triangles_;  // three vertex indices per triangle
  Buffer<Real> values_;
  Buffer<unsigned long long> nearest_, nearestNext_;  // (distance bits << 32) | triangle, per node
  Buffer<std::uint8_t> changed_, changedNext_;
  Buffer<std::uint32_t> rowCounts_, rowStarts_, rowTriangles_, counter_;
  ThinCells thin_;
};

// builds the field `repeats` times after one warm-up build and returns the stats of the median build
// (`eddy mesh-info --sdf-resolution`)
MeshSdfStats timeMeshSdfBuild(const TriangleMesh& mesh, const MeshSdfSettings& settings, int repeats);
// one build, its node values copied to the host
MeshSdfStats buildMeshField(const TriangleMesh& mesh, const MeshSdfSettings& settings,
                            std::vector<Real>& values);

}  // namespace eddy::EDDY_NS
