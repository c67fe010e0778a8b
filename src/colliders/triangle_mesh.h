// Triangle meshes and their quality report (bounds, watertightness, degenerate triangles); the files they
// come from and go to are io/mesh_files.h's.
//
// Host-only: compiled once, into namespace eddy (see EDDY_HOST_FILES in src/CMakeLists.txt).
#pragma once

#include <eddy/vec3.h>

#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace eddy {

struct TriangleMesh {
  std::vector<Vec3> vertices;
  std::vector<std::array<std::uint32_t, 3>> triangles;  // indices into vertices
  std::vector<Vec3> normals;  // per vertex, or none (the readers leave it empty; the writers write it)
};

struct MeshReport {
  std::size_t vertices = 0, triangles = 0;
  Vec3 lo{}, hi{};                      // bounds of the vertices the triangles use; 0 without triangles
  std::size_t boundaryEdges = 0;        // edges used by exactly one triangle
  std::size_t nonManifoldEdges = 0;     // edges used by more than two triangles
  std::size_t degenerateTriangles = 0;  // zero area (repeated or collinear corners)
  bool closed() const { return boundaryEdges == 0 && nonManifoldEdges == 0; }  // watertight
};

// Every triangle index must be below vertices.size(), as loadTriangleMesh guarantees (std::out_of_range
// otherwise). Edges are counted on vertices welded by exact position: files often repeat a vertex along
// seams (UV or normal splits), which would otherwise read as boundary edges. An edge is an unordered pair
// of welded vertices, so it counts once whichever way the triangles run along it. Triangles that collapse
// to an edge or a point after welding contribute no edges (they are counted as degenerate).
MeshReport inspectMesh(const TriangleMesh& mesh);

}  // namespace eddy
