#include "surface/marching_cubes_table.h"

#include <eddy/error.h>

#include <string>
#include <vector>

namespace eddy {

namespace {

// the cube edge joining two corners that differ in one coordinate
int edgeBetween(int a, int b) {
  for (int e = 0; e < 12; ++e) {
    auto [p, q] = kCubeEdgeCorners[e];
    if ((p == a && q == b) || (p == b && q == a)) return e;
  }
  throw RuntimeFailure("marching cubes: corners " + std::to_string(a) + " and " + std::to_string(b) +
                       " share no edge");
}

// the six faces, each as its four corners counter-clockwise seen from outside the cube
constexpr int kFaces[6][4] = {
    {0, 4, 6, 2},  // x = 0 (normal -x)
    {1, 3, 7, 5},  // x = 1
    {0, 1, 5, 4},  // y = 0
    {2, 6, 7, 3},  // y = 1
    {0, 2, 3, 1},  // z = 0
    {4, 5, 7, 6},  // z = 1
};

bool edgesShareAFace(int a, int b) {
  for (const auto& face : kFaces) {
    bool hasA = false, hasB = false;
    for (int k = 0; k < 4; ++k) {
      int e = edgeBetween(face[k], face[(k + 1) % 4]);
      hasA |= e == a, hasB |= e == b;
    }
    if (hasA && hasB) return true;
  }
  return false;
}

// The first loop position from which a fan has no diagonal between two edges of one face, or -1. Such a
// diagonal lies in that face (with a third vertex there, a whole triangle does), and the cell across the
// face may draw the same one: four triangles on one edge. Kept off the faces, every diagonal belongs to
// this cell alone and every face segment to one triangle on each side, so the mesh is edge-manifold.
int fanStart(const std::vector<int>& loop) {
  const std::size_t m = loop.size();
  for (std::size_t s = 0; s < m; ++s) {
    bool clear = true;
    for (std::size_t k = 2; k + 1 < m && clear; ++k) clear = !edgesShareAFace(loop[s], loop[(s + k) % m]);
    if (clear) return int(s);
  }
  return -1;
}

}  // namespace

MarchingCubesTable buildMarchingCubesTable() {
  MarchingCubesTable table;
  for (int cs = 0; cs < 256; ++cs) {
    auto inside = [&](int corner) { return (cs >> corner) & 1; };
    // segments: next[from edge] = to edge
    int next[12];
    for (int& n : next) n = -1;
    for (const auto& face : kFaces) {
      int order[4];  // the crossings in traversal order: +1 + edge for an entry, -(1 + edge) for an exit
      int n = 0;
      for (int k = 0; k < 4; ++k) {
        int a = face[k], b = face[(k + 1) % 4];
        if (inside(a) == inside(b)) continue;
        int e = edgeBetween(a, b);
        order[n++] = inside(b) ? 1 + e : -(1 + e);
      }
      // each entry to the next exit along the traversal
      for (int k = 0; k < n; ++k) {
        if (order[k] < 0) continue;
        int from = order[k] - 1;
        for (int m = 1; m < n; ++m) {
          int o = order[(k + m) % n];
          if (o < 0) {
            next[from] = -o - 1;
            break;
          }
        }
      }
    }
    // the loops, each a fan
    bool used[12] = {};
    int count = 0;
    for (int start = 0; start < 12; ++start) {
      if (next[start] < 0 || used[start]) continue;
      std::vector<int> loop;
      for (int e = start; !used[e]; e = next[e]) {
        if (next[e] < 0) throw RuntimeFailure("marching cubes: an open loop in case " + std::to_string(cs));
        used[e] = true;
        loop.push_back(e);
      }
      // the fan's first vertex: one whose diagonals each join two edges on no common face
      int first = fanStart(loop);
      if (first < 0)
        throw RuntimeFailure("marching cubes: no fan of case " + std::to_string(cs) +
                             " keeps out of the faces");
      const std::size_t m = loop.size();
      for (std::size_t k = 1; k + 1 < m; ++k) {
        if (count == kMaxCaseTriangles)
          throw RuntimeFailure("marching cubes: too many triangles in case " + std::to_string(cs));
        table.edges[cs][3 * count] = std::int8_t(loop[std::size_t(first)]);
        table.edges[cs][3 * count + 1] = std::int8_t(loop[(std::size_t(first) + k) % m]);
        table.edges[cs][3 * count + 2] = std::int8_t(loop[(std::size_t(first) + k + 1) % m]);
        ++count;
      }
    }
    table.triangles[cs] = std::uint8_t(count);
  }
  return table;
}

}  // namespace eddy
