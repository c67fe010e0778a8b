// Triangle-mesh files: OBJ and PLY read into a TriangleMesh and written from one, and the vertices of a
// PLY or VTK XML file read as points (particle frames).
//
// Host-only: compiled once, into namespace eddy.
#pragma once

#include <eddy/vec3.h>

#include <string>
#include <vector>

#include "colliders/triangle_mesh.h"

namespace eddy {

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
