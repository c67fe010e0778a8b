// The zero set of a grid field as a triangle mesh, by marching cubes with the generated case table
// (surface/marching_cubes_table.h). Every grid edge where the field changes sign holds one vertex, shared by
// index between the cells around it, so a closed zero set gives a closed, manifold mesh; triangles face out
// of the liquid (toward positive values). Vertex normals are the field's gradient by central differences
// at the nodes, interpolated along the edge, where that faces the same way as every triangle around the
// vertex; elsewhere (where the field folds within a cell, or the gradient vanishes) they are the
// area-weighted normal of those triangles, turned by a few projection steps towards any triangle it still
// faces away from. Every normal has a positive cosine with the area-weighted normal of its triangles, and
// with each of them but where sheets of the surface fold onto or touch each other at the vertex (on frame
// 60 of the dam break, 63 of 33,566 vertices against 2,167 with the gradient alone).
//
// Three passes over the stored nodes of the block-sparse grid, one source for the CPU and CUDA: each
// node's cell case, crossed edges and triangle count (numbered by scans), then a vertex on each crossed
// edge by linear interpolation, then each cell's triangles.
#pragma once

#include <eddy/mesh.h>
#include <eddy/surface.h>

#include "backend/primitives.h"
#include "surface/surface_grid.h"

namespace eddy::EDDY_NS {

class MarchingCubes {
 public:
  MarchingCubes();
  // the mesh of grid's zero set, on the device until the next extract
  SurfaceMeshView extract(const SurfaceGridView& grid, Primitives& prims);
  // the last mesh, copied to the host
  void download(TriangleMesh& out) const;
  std::size_t bytes() const;
  static constexpr int kNormalSteps = 4;  // projection steps for a normal that faces away from a triangle
  // replaces the normals that face away from a triangle around them (public for the CUDA lambdas)
  void agreeWithTriangles(const SurfaceMeshView& mesh);

 private:
  Buffer<std::uint8_t> caseTriangles_;  // the case table on the device
  Buffer<std::int8_t> caseEdges_;
  Buffer<std::uint32_t> crossed_, vertexAt_, counts_, firstTriangle_, triangles_;
  Buffer<std::uint8_t> cases_;  // per stored node: the case of the cell it is the lowest corner of
  Buffer<Vec3> vertices_, normals_;
  Buffer<Vec4> nudges_;    // per vertex: the projections towards the triangles its normal faces away from
  Buffer<Vec4> faceSums_;  // per vertex: its triangles' area-weighted normal, and how many it faces away from
  SurfaceMeshView mesh_{};
};

}  // namespace eddy::EDDY_NS
