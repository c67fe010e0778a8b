// The zero set of a grid field as a triangle mesh, by marching cubes with the generated case table
// (surface/marching_cubes_table.h). Every grid edge where the field changes sign holds one vertex, shared by
// index between the cells around it, so a closed zero set gives a closed, manifold mesh; triangles face out
// of the liquid (toward positive values). Vertex normals are the field's gradient by central differences
// at the nodes, interpolated along the edge, where that faces the same way as every triangle around the
// vertex; elsewhere (where the field folds within a cell, or the gradient vanishes) they are the
// area-weighted normal of those triangles, turned by a few projection steps towards any triangle it still
// faces away from. Where sheets of the surface fold onto each other at a vertex no direction faces the same
// way as all its triangles, so the geometry changes there (unfold): the corners of each triangle that a
// vertex normal still faces away from are moved, within half a cell of where they were placed, until every
// normal has a cosine above kFoldCos with every triangle of non-zero area around it (the untangling goal of
// L. Freitag, P. Plassmann, "Local optimization-based simplicial mesh untangling and improvement",
// Int. J. Numer. Meth. Eng. 49, 2000: every triangle positively oriented against the vertex's direction).
// The connectivity never changes, so the mesh stays closed and manifold. On frame 60 of the dam break
// every vertex of every method (smoothed too) agrees with all its triangles after at most 17 passes; in
// fields of random signs, folded all over, fewer than 1 in 10,000 vertices are still against a triangle
// after kUnfoldSteps passes.
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
  static constexpr int kUnfoldSteps = 128;           // the most passes of unfold
  static constexpr Real kUnfoldReach = Real(0.5);    // how far unfold may move a vertex, in cells
  static constexpr Real kFoldCos = Real(1e-3);       // the least cosine of a normal with its triangles
  static constexpr Real kUnfoldCos = Real(0.2);      // the cosine a triangle's corners are moved towards
  static constexpr Real kUnfoldSpread = Real(0.01);  // how far a sliver is opened, by its squared edges
  static constexpr Real kUnfoldRelax = Real(1.5);    // the over-relaxation of the summed steps
  // Moves the vertices of folds (see above) and sets every normal (agreeWithTriangles after each pass);
  // the normals it starts from are kept where they agree. Returns the passes that moved vertices. Run on
  // a fresh mesh by extract, and again after smoothing.
  int unfold(const SurfaceMeshView& mesh, Real cell);

 private:
  Buffer<std::uint8_t> caseTriangles_;  // the case table on the device
  Buffer<std::int8_t> caseEdges_;
  Buffer<std::uint32_t> crossed_, vertexAt_, counts_, firstTriangle_, triangles_;
  Buffer<std::uint8_t> cases_;  // per stored node: the case of the cell it is the lowest corner of
  Buffer<Vec3> vertices_, normals_;
  Buffer<Vec4> nudges_;   // per vertex: the projections towards the triangles its normal faces away from
  Buffer<Vec3> origins_;  // per vertex: where unfold found it
  Buffer<std::uint32_t> folded_;  // the (vertex, triangle) pairs unfold found against each other
  Buffer<Vec4> faceSums_;  // per vertex: its triangles' area-weighted normal, and how many it faces away from
  SurfaceMeshView mesh_{};
};

}  // namespace eddy::EDDY_NS
