// The marching-cubes case table, generated rather than typed in: for each of the 256 sign patterns of a
// cube's corners, the triangles (as cube edges) that separate the inside corners (field < 0) from the rest.
//
// Generation: on each face, traversed counter-clockwise as seen from outside the cube, a segment runs
// from each edge where the traversal enters the inside to the next edge where it leaves. On a face with
// two inside corners on a diagonal this cuts each inside corner off on its own; the neighbouring cube
// traverses the shared face the other way and pairs the same edges, so the two agree on every face and
// the mesh has no cracks. The segments join into closed loops on the cube's surface (each crossed edge ends
// one segment and starts another), and each loop is triangulated as a fan. The fan starts at a vertex
// whose diagonals never join two edges of one cube face: a diagonal in a face (and with it, in 18 cases,
// a whole triangle lying flat in the face, as fans from an arbitrary vertex give) can be drawn by the cell
// across the face too, putting four triangles on one edge. So a closed zero set gives an edge-manifold
// mesh. The loops run counter-clockwise seen from outside the liquid, so triangles face out of it.
//
// Corner c of a cube is at (c & 1, (c >> 1) & 1, (c >> 2) & 1). Edges 0-3 run along x from corners 0, 2,
// 4, 6; edges 4-7 along y from corners 0, 1, 4, 5; edges 8-11 along z from corners 0, 1, 2, 3.
//
// Reference: W. E. Lorensen, H. E. Cline, "Marching cubes: a high resolution 3D surface construction
// algorithm", SIGGRAPH 1987 (the method; the face rule above is the usual fix for its ambiguous faces).
#pragma once

#include <array>
#include <cstdint>

namespace eddy {

constexpr int kMaxCaseTriangles = 12;

struct MarchingCubesTable {
  std::array<std::uint8_t, 256> triangles{};  // per case, how many
  // per case, three cube edges per triangle
  std::array<std::array<std::int8_t, 3 * kMaxCaseTriangles>, 256> edges{};
};

// the two corners of each cube edge, in the order of the header comment
constexpr std::array<std::array<int, 2>, 12> kCubeEdgeCorners = {
    {{0, 1}, {2, 3}, {4, 5}, {6, 7}, {0, 2}, {1, 3}, {4, 6}, {5, 7}, {0, 4}, {1, 5}, {2, 6}, {3, 7}}};

// builds the table (host; cheap enough to build where it is needed)
MarchingCubesTable buildMarchingCubesTable();

}  // namespace eddy
