// Triangle meshes: the files they come from and go to (OBJ, PLY; read by src/io/mesh_files.cpp), and their
// quality report (bounds, watertightness, degenerate triangles).
#pragma once

#include <eddy/vec3.h>

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
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

// Loads an OBJ or PLY (ascii, binary_little_endian, binary_big_endian) file, chosen by the extension
// (.obj / .ply, any case). Polygons are triangulated as fans from their first vertex. Vertices are kept as
// the file gives them (no welding, unused ones stay). Throws InputError with one message that names the
// file and, where it applies, "FILE:LINE" (OBJ, ASCII PLY) or "face K" / "vertex K" (binary PLY) for: a
// missing or unreadable file, another extension, a mesh without triangles, a coordinate that is not a
// finite number, a face with fewer than 3 vertices or indexing a missing vertex, a malformed or truncated
// PLY header or body, PLY property types it cannot use.
TriangleMesh loadTriangleMesh(const std::string& path);

// The vertices of a PLY file (ASCII or binary) as points: a particle frame, eddy's or any other with x, y and
// z per vertex; faces, if any, are read and dropped. The same checks and messages as loadTriangleMesh
// (naming a "particle file"), and none without points. A .vtu or .vtp file (VTK XML) gives its Points
// array, read by io/vtu_reader.h.
std::vector<Vec3> loadPointCloud(const std::string& path);

// Writes OBJ (.obj) or PLY (.ply: binary little-endian, or ASCII with binaryPly = false) atomically.
// Throws InputError for another extension, RuntimeFailure when the file cannot be written.
void writeTriangleMesh(const std::string& path, const TriangleMesh& mesh, bool binaryPly = true);

}  // namespace eddy
