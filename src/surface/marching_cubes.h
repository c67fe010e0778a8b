// The zero set of a grid field as a triangle mesh, by marching cubes with the generated case table
// (surface/marching_cubes_table.h). Every grid edge where the field changes sign holds one vertex, shared by
// index between the cells around it, so a closed zero set gives a closed, manifold mesh; triangles face out
// of the liquid (toward positive values). Vertex normals are the field's gradient by central differences
// at the nodes, interpolated along the edge.
//
// Three passes over the grid, one source for the CPU and CUDA: flag the crossed edges and number them (a
// scan), place their vertices by linear interpolation, then count, number and write each cell's triangles.
#pragma once

#include "backend/primitives.h"
#include "colliders/triangle_mesh.h"
#include "surface/surface_grid.h"

namespace eddy::EDDY_NS {

class MarchingCubes {
 public:
  MarchingCubes();
  // the mesh of grid's zero set, copied to the host
  void extract(const SurfaceGridView& grid, Primitives& prims, TriangleMesh& out);

 private:
  Buffer<std::uint8_t> caseTriangles_;  // the case table on the device
  Buffer<std::int8_t> caseEdges_;
};

}  // namespace eddy::EDDY_NS
