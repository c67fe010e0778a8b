// A closed triangle mesh's signed distance field, as the engine builds one for each mesh collider: its
// settings and what a build takes, for tools that time or inspect the build (`eddy mesh-info`). Scenes set
// the same settings per collider (shape.sdf_resolution, sdf_band, thickness).
#pragma once

#include <eddy/backend.h>
#include <eddy/mesh.h>
#include <eddy/vec3.h>

#include <vector>

namespace eddy {

struct MeshSdfSettings {
  int resolution = 256;     // nodes along the mesh's longest side
  Real band = 0;            // exact distances at least this far from the surface, m (at least 3 cells)
  Real shellThickness = 0;  // m: > 0 makes the mesh a thin shell of this thickness (it may be open)
};

// what a field build took
struct MeshSdfStats {
  int nx = 0, ny = 0, nz = 0;
  int propagationPasses = 0;
  int rowsOverflowed = 0;  // rows with more crossings than the fast path holds (counted the slow way)
  int thinCells = 0;       // cells the field cannot resolve, tested against their triangles instead
  int thinCellTriangles = 0;
  double milliseconds = 0;
};

// the median of `repeats` builds after a warm-up, on the given backend (for `eddy mesh-info`)
MeshSdfStats timeMeshSdfBuild(const TriangleMesh& mesh, const MeshSdfSettings& settings, int repeats,
                              Backend backend);
// one build on the given backend, its node values copied to `values` (x fastest; tests, tools)
MeshSdfStats buildMeshField(const TriangleMesh& mesh, const MeshSdfSettings& settings, Backend backend,
                            std::vector<Real>& values);

}  // namespace eddy
