#include "surface/marching_cubes.h"

#include <eddy/error.h>

#include <cstdint>
#include <string>

#include "surface/marching_cubes_table.h"

namespace eddy::EDDY_NS {

namespace {

// a cube edge as the corner it starts from (offsets) and its axis
struct EdgeStart {
  int dx[12], dy[12], dz[12], axis[12];
};

EdgeStart edgeStarts() {
  EdgeStart e{};
  for (int k = 0; k < 12; ++k) {
    int c = kCubeEdgeCorners[k][0];
    e.dx[k] = c & 1, e.dy[k] = (c >> 1) & 1, e.dz[k] = (c >> 2) & 1;
    e.axis[k] = k / 4;
  }
  return e;
}

}  // namespace

MarchingCubes::MarchingCubes() {
  MarchingCubesTable table = buildMarchingCubesTable();
  caseTriangles_ = Buffer<std::uint8_t>(kDevice, 256);
  caseTriangles_.upload(table.triangles.data(), 256);
  caseEdges_ = Buffer<std::int8_t>(kDevice, 256 * 3 * kMaxCaseTriangles);
  caseEdges_.upload(table.edges.front().data(), 256 * 3 * kMaxCaseTriangles);
}

SurfaceMeshView MarchingCubes::extract(const SurfaceGridView& g, Primitives& prims) {
  mesh_ = SurfaceMeshView{};
  Index nodes = g.storedNodes();
  Index edges = 3 * nodes, cells = nodes;
  if (cells <= 0) return mesh_;

  // 1. one pass over the nodes: the crossed edges from each (along axis a, as 3 n + a) and the case of the
  // cell whose lowest corner it is, with that cell's triangle count; both numbered by scans
  ensureCapacity(crossed_, std::size_t(edges) + 1);
  ensureCapacity(vertexAt_, std::size_t(edges) + 1);
  ensureCapacity(cases_, std::size_t(cells));
  ensureCapacity(counts_, std::size_t(cells) + 1);
  ensureCapacity(firstTriangle_, std::size_t(cells) + 1);
  std::uint32_t* flag = crossed_.data();
  std::uint8_t* cellCases = cases_.data();
  const std::uint8_t* caseCount = caseTriangles_.data();
  {
    std::uint32_t* count = counts_.data();
    parallelFor(
        cells + 1, EDDY_KERNEL(Index n) {
          if (n == cells) {
            flag[3 * std::size_t(n)] = 0;
            count[n] = 0;
            return;
          }
          int i, j, k;
          g.nodeOf(n, i, j, k);
          int cs = 0;
          for (int q = 0; q < 8; ++q)
            cs |= int(g.at(i + (q & 1), j + ((q >> 1) & 1), k + ((q >> 2) & 1)) < 0) << q;
          // corners 1, 2 and 4 are the neighbours along x, y and z
          bool in = cs & 1;
          flag[3 * std::size_t(n)] = in != bool(cs & 2);
          flag[3 * std::size_t(n) + 1] = in != bool(cs & 4);
          flag[3 * std::size_t(n) + 2] = in != bool(cs & 16);
          cellCases[n] = std::uint8_t(cs);
          count[n] = caseCount[cs];
        });
  }
  prims.exclusiveScan(crossed_.view(), vertexAt_.view(), edges + 1);
  std::uint32_t vertexCount = 0;
  vertexAt_.download(&vertexCount, 1, std::size_t(edges));
  if (vertexCount == 0) return mesh_;

  // 2. a vertex on each crossed edge, where the linear interpolant is zero
  ensureCapacity(vertices_, vertexCount);
  ensureCapacity(normals_, vertexCount);
  const std::uint32_t* at = vertexAt_.data();
  {
    Vec3* v = vertices_.data();
    Vec3* nrm = normals_.data();
    parallelFor(
        edges, EDDY_KERNEL(Index e) {
          if (!flag[e]) return;
          int axis = int(e % 3), i, j, k;
          g.nodeOf(e / 3, i, j, k);
          int i2 = i + (axis == 0), j2 = j + (axis == 1), k2 = k + (axis == 2);
          Real a = g.at(i, j, k), b = g.at(i2, j2, k2);
          Real t = a / (a - b);
          v[at[e]] = g.node(i, j, k) + (g.node(i2, j2, k2) - g.node(i, j, k)) * t;
          // the normal: the field's gradient, by central differences, interpolated along the edge
          Vec3 ga = g.gradient(i, j, k), gb = g.gradient(i2, j2, k2);
          nrm[at[e]] = normalizeOr(ga + (gb - ga) * t, Vec3{0, 1, 0});
        });
  }

  // 3. each cell's triangles, numbered, written as the vertices of their edges (a crossed edge always
  // starts at a stored node: see surface_grid.h)
  prims.exclusiveScan(counts_.view(), firstTriangle_.view(), cells + 1);
  std::uint32_t triangleCount = 0;
  firstTriangle_.download(&triangleCount, 1, std::size_t(cells));
  // three 32-bit corners per triangle, numbered by Index; the scan itself cannot wrap (at most 5 triangles
  // a cell, and fewer than 2^31 / 3 cells)
  if (triangleCount > std::uint32_t(INT32_MAX / 3))
    throw InputError("surface: the mesh would have " + std::to_string(triangleCount) +
                     " triangles, more than the 2^31 / 3 its indices can number; raise the cell size "
                     "(/surface/cell, or --cell of eddy surface)");
  ensureCapacity(triangles_, 3 * std::size_t(triangleCount) + 1);
  {
    const std::int8_t* caseEdges = caseEdges_.data();
    const std::uint32_t* first = firstTriangle_.data();
    std::uint32_t* tri = triangles_.data();
    EdgeStart es = edgeStarts();
    parallelFor(
        cells, EDDY_KERNEL(Index c) {
          int cs = cellCases[c];
          int m = caseCount[cs];
          if (m == 0) return;
          int i, j, k;
          g.nodeOf(c, i, j, k);
          std::uint32_t base = 3 * first[c];
          for (int q = 0; q < 3 * m; ++q) {
            int e = caseEdges[cs * 3 * kMaxCaseTriangles + q];
            long long node = g.storageOf(i + es.dx[e], j + es.dy[e], k + es.dz[e]);
            tri[base + q] = at[3 * node + es.axis[e]];
          }
        });
  }
  mesh_ = SurfaceMeshView{vertices_.data(), normals_.data(), triangles_.data(), Index(vertexCount),
                          Index(triangleCount)};
  unfold(mesh_, g.cell);
  return mesh_;
}

int MarchingCubes::unfold(const SurfaceMeshView& m, Real cell) {
  if (m.vertexCount == 0) return 0;
  ensureCapacity(nudges_, std::size_t(m.vertexCount));
  ensureCapacity(origins_, std::size_t(m.vertexCount));
  ensureCapacity(folded_, 1);
  Vec4* move = nudges_.data();  // free between the calls of agreeWithTriangles
  Vec3* origin = origins_.data();
  std::uint32_t* folded = folded_.data();
  Vec3* x = m.vertices;
  const Vec3* normals = m.normals;
  const std::uint32_t* tri = m.triangles;
  const Real reach = kUnfoldReach * cell;
  const Real foldCos = kFoldCos, towards = kUnfoldCos, spread = kUnfoldSpread, relax = kUnfoldRelax;
  int step = 0;
  for (;; ++step) {
    agreeWithTriangles(m);
    parallelFor(
        m.vertexCount, EDDY_KERNEL(Index v) {
          move[v] = Vec4{0, 0, 0, 0};
          if (v == 0) folded[0] = 0;
        });
    // Each (vertex, triangle around it) whose cosine is at most kFoldCos: f = n . ((b - a) x (c - a)), with n
    // the vertex's normal, is f = n . (a x b + b x c + c x a), linear in each corner with gradient (b - c) x
    // n for a (and likewise for b and c), which lies in the plane normal to n; one linearised projection step
    // of all three corners onto f = kUnfoldCos |(b - a) x (c - a)| + kUnfoldSpread (the squared edge
    // lengths), the second term opening up a sliver that would otherwise only flip. The steps a vertex
    // gets from its triangles are summed and over-relaxed by kUnfoldRelax (the simultaneous projections of
    // G. Cimmino, "Calcolo approssimato per le soluzioni dei sistemi di equazioni lineari", La Ricerca
    // Scientifica 9, 1938, average them), which unfolds in far fewer passes.
    parallelFor(
        m.triangleCount, EDDY_KERNEL(Index t) {
          const std::uint32_t* corner = tri + 3 * t;
          Vec3 a = x[corner[0]], b = x[corner[1]], c = x[corner[2]];
          Vec3 n = cross(b - a, c - a);
          Real area2 = length(n);
          if (!(area2 > 0)) return;  // no direction to agree with (and none that a reader checks)
          for (int q = 0; q < 3; ++q) {
            Vec3 nv = normals[corner[q]];
            Real f = dot(nv, n);
            if (f > foldCos * area2) continue;
            atomicIncrementU32(folded);
            Vec3 ga = cross(b - c, nv), gb = cross(c - a, nv), gc = cross(a - b, nv);
            Real g2 = dot(ga, ga) + dot(gb, gb) + dot(gc, gc);
            if (!(g2 > 0)) continue;
            Real edges2 = dot(b - a, b - a) + dot(c - b, c - b) + dot(a - c, a - c);
            Real k = (towards * area2 + spread * edges2 - f) / g2;
            atomicAddReal4(&move[corner[0]].x, withW(ga * k, Real(1)));
            atomicAddReal4(&move[corner[1]].x, withW(gb * k, Real(1)));
            atomicAddReal4(&move[corner[2]].x, withW(gc * k, Real(1)));
          }
        });
    std::uint32_t count = 0;
    folded_.download(&count, 1);
    if (count == 0 || step == kUnfoldSteps) break;
    if (step == 0)
      parallelFor(
          m.vertexCount, EDDY_KERNEL(Index v) { origin[v] = x[v]; });
    // every move kept within kUnfoldReach cells of where the vertex was placed
    parallelFor(
        m.vertexCount, EDDY_KERNEL(Index v) {
          Vec4 d = move[v];
          if (!(d.w > 0)) return;
          Vec3 to = x[v] + Vec3{d.x, d.y, d.z} * relax - origin[v];
          Real len = length(to);
          if (len > reach) to = to * (reach / len);
          x[v] = origin[v] + to;
        });
  }
  return step;
}

void MarchingCubes::agreeWithTriangles(const SurfaceMeshView& m) {
  ensureCapacity(faceSums_, std::size_t(m.vertexCount));
  Vec4* sums = faceSums_.data();
  parallelFor(
      m.vertexCount, EDDY_KERNEL(Index v) {
        sums[v] = Vec4{0, 0, 0, 0};
      });
  const Vec3* x = m.vertices;
  const std::uint32_t* tri = m.triangles;
  Vec3* normals = m.normals;
  // the vertices whose gradient faces away from a triangle around them (few: a count in w)
  parallelFor(
      m.triangleCount, EDDY_KERNEL(Index t) {
        std::uint32_t a = tri[3 * t], b = tri[3 * t + 1], c = tri[3 * t + 2];
        Vec3 n = cross(x[b] - x[a], x[c] - x[a]);
        for (std::uint32_t v : {a, b, c})
          if (!(dot(normals[v], n) > 0)) atomicAddReal(&sums[v].w, Real(1));
      });
  // their triangles' normals, weighted by area (w is only read here)
  parallelFor(
      m.triangleCount, EDDY_KERNEL(Index t) {
        std::uint32_t a = tri[3 * t], b = tri[3 * t + 1], c = tri[3 * t + 2];
        if (!(sums[a].w > 0 || sums[b].w > 0 || sums[c].w > 0)) return;
        Vec3 n = cross(x[b] - x[a], x[c] - x[a]);  // twice the area, outward
        for (std::uint32_t v : {a, b, c})
          if (sums[v].w > 0) {
            atomicAddReal(&sums[v].x, n.x);
            atomicAddReal(&sums[v].y, n.y);
            atomicAddReal(&sums[v].z, n.z);
          }
      });
  parallelFor(
      m.vertexCount, EDDY_KERNEL(Index v) {
        Vec4 s = sums[v];
        if (s.w > 0) normals[v] = normalizeOr(Vec3{s.x, s.y, s.z}, normals[v]);
      });
  // Where that normal still faces away from a triangle (a fold, a fin), a few projection steps towards the
  // triangles it disagrees with (each lifts the cosine against one of them to 0.1), kept only while the
  // normal stays on the side of the area-weighted one. A vertex where two sheets of the surface meet may
  // have no direction on the side of every triangle.
  ensureCapacity(nudges_, std::size_t(m.vertexCount));
  Vec4* nudge = nudges_.data();
  for (int step = 0; step < kNormalSteps; ++step) {
    parallelFor(
        m.vertexCount, EDDY_KERNEL(Index v) {
          nudge[v] = Vec4{0, 0, 0, 0};
        });
    parallelFor(
        m.triangleCount, EDDY_KERNEL(Index t) {
          std::uint32_t a = tri[3 * t], b = tri[3 * t + 1], c = tri[3 * t + 2];
          if (!(sums[a].w > 0 || sums[b].w > 0 || sums[c].w > 0)) return;
          Vec3 n = cross(x[b] - x[a], x[c] - x[a]);
          Real area2 = length(n);
          if (!(area2 > 0)) return;
          n = n / area2;
          for (std::uint32_t v : {a, b, c}) {
            Real cs = dot(normals[v], n);
            if (sums[v].w > 0 && cs <= 0) atomicAddReal4(&nudge[v].x, withW(n * (Real(0.1) - cs), Real(1)));
          }
        });
    parallelFor(
        m.vertexCount, EDDY_KERNEL(Index v) {
          Vec4 s = sums[v], d = nudge[v];
          if (!(s.w > 0 && d.w > 0)) return;
          Vec3 n = normalizeOr(normals[v] + Vec3{d.x, d.y, d.z}, normals[v]);
          if (dot(n, Vec3{s.x, s.y, s.z}) > 0) normals[v] = n;
        });
  }
}

void MarchingCubes::download(TriangleMesh& out) const {
  // into the caller's arrays, which keep their storage between frames (no fresh pages every frame)
  static_assert(sizeof(out.triangles[0]) == 3 * sizeof(std::uint32_t));
  out.vertices.resize(std::size_t(mesh_.vertexCount));
  out.normals.resize(std::size_t(mesh_.vertexCount));
  out.triangles.resize(std::size_t(mesh_.triangleCount));
  vertices_.download(out.vertices.data(), out.vertices.size());
  normals_.download(out.normals.data(), out.normals.size());
  triangles_.download(reinterpret_cast<std::uint32_t*>(out.triangles.data()), 3 * out.triangles.size());
}

std::size_t MarchingCubes::bytes() const {
  return crossed_.bytes() + vertexAt_.bytes() + cases_.bytes() + counts_.bytes() + firstTriangle_.bytes() +
         triangles_.bytes() + vertices_.bytes() + normals_.bytes() + faceSums_.bytes() + nudges_.bytes() +
         origins_.bytes() + folded_.bytes();
}

}  // namespace eddy::EDDY_NS
