#include "surface/marching_cubes.h"

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

// cell c's corner (i, j, k) and its case: bit q set where corner q is inside
EDDY_HD inline int cellCase(const SurfaceGridView& g, Index c, int& i, int& j, int& k) {
  i = int(c % (g.nx - 1)), j = int((c / (g.nx - 1)) % (g.ny - 1)),
  k = int(c / (Index(g.nx - 1) * (g.ny - 1)));
  int cs = 0;
  for (int q = 0; q < 8; ++q) cs |= int(g.at(i + (q & 1), j + ((q >> 1) & 1), k + ((q >> 2) & 1)) < 0) << q;
  return cs;
}

// the field's gradient at a node by central differences (one-sided on the grid's faces)
EDDY_HD inline Vec3 nodeGradient(const SurfaceGridView& g, int i, int j, int k) {
  auto diff = [&](int a0, int a1, int b0, int b1, int c0, int c1, int span) {
    return (g.at(a1, b1, c1) - g.at(a0, b0, c0)) / (Real(span) * g.cell);
  };
  int ilo = i > 0 ? i - 1 : i, ihi = i < g.nx - 1 ? i + 1 : i;
  int jlo = j > 0 ? j - 1 : j, jhi = j < g.ny - 1 ? j + 1 : j;
  int klo = k > 0 ? k - 1 : k, khi = k < g.nz - 1 ? k + 1 : k;
  return {diff(ilo, ihi, j, j, k, k, ihi - ilo), diff(i, i, jlo, jhi, k, k, jhi - jlo),
          diff(i, i, j, j, klo, khi, khi - klo)};
}

}  // namespace

MarchingCubes::MarchingCubes() {
  MarchingCubesTable table = buildMarchingCubesTable();
  caseTriangles_ = Buffer<std::uint8_t>(kDevice, 256);
  caseTriangles_.upload(table.triangles.data(), 256);
  caseEdges_ = Buffer<std::int8_t>(kDevice, 256 * 3 * kMaxCaseTriangles);
  caseEdges_.upload(table.edges.front().data(), 256 * 3 * kMaxCaseTriangles);
}

void MarchingCubes::extract(const SurfaceGridView& g, Primitives& prims, TriangleMesh& out) {
  out = TriangleMesh{};
  std::size_t nodes = std::size_t(g.nx) * g.ny * g.nz;
  Index edges = Index(3 * nodes), cells = Index(g.nx - 1) * (g.ny - 1) * (g.nz - 1);
  if (cells <= 0) return;

  // 1. the crossed edges (from node (i, j, k) along axis a, as 3 * node + a), numbered
  Buffer<std::uint32_t> crossed(kDevice, std::size_t(edges) + 1), vertexAt(kDevice, std::size_t(edges) + 1);
  crossed.fillZero();
  std::uint32_t* flag = crossed.data();
  parallelFor(
      edges, EDDY_KERNEL(Index e) {
        Index node = e / 3;
        int axis = int(e % 3);
        int i = int(node % g.nx), j = int((node / g.nx) % g.ny), k = int(node / (Index(g.nx) * g.ny));
        int i2 = i + (axis == 0), j2 = j + (axis == 1), k2 = k + (axis == 2);
        if (i2 >= g.nx || j2 >= g.ny || k2 >= g.nz) return;
        flag[e] = (g.at(i, j, k) < 0) != (g.at(i2, j2, k2) < 0);
      });
  prims.exclusiveScan(crossed.view(), vertexAt.view(), edges + 1);
  std::uint32_t vertexCount = 0;
  vertexAt.download(&vertexCount, 1, std::size_t(edges));
  if (vertexCount == 0) return;

  // 2. a vertex on each crossed edge, where the linear interpolant is zero
  Buffer<Vec3> vertices(kDevice, vertexCount), normals(kDevice, vertexCount);
  {
    const std::uint32_t* at = vertexAt.data();
    Vec3* v = vertices.data();
    Vec3* nrm = normals.data();
    parallelFor(
        edges, EDDY_KERNEL(Index e) {
          if (!flag[e]) return;
          Index node = e / 3;
          int axis = int(e % 3);
          int i = int(node % g.nx), j = int((node / g.nx) % g.ny), k = int(node / (Index(g.nx) * g.ny));
          int i2 = i + (axis == 0), j2 = j + (axis == 1), k2 = k + (axis == 2);
          Real a = g.at(i, j, k), b = g.at(i2, j2, k2);
          Real t = a / (a - b);
          v[at[e]] = g.node(i, j, k) + (g.node(i2, j2, k2) - g.node(i, j, k)) * t;
          // the normal: the field's gradient, by central differences, interpolated along the edge
          Vec3 ga = nodeGradient(g, i, j, k), gb = nodeGradient(g, i2, j2, k2);
          nrm[at[e]] = normalizeOr(ga + (gb - ga) * t, Vec3{0, 1, 0});
        });
  }

  // 3. each cell's triangles: counted, numbered, written as the vertices of their edges
  Buffer<std::uint32_t> counts(kDevice, std::size_t(cells) + 1),
      firstTriangle(kDevice, std::size_t(cells) + 1);
  counts.fillZero();
  const std::uint8_t* caseCount = caseTriangles_.data();
  const std::int8_t* caseEdges = caseEdges_.data();
  {
    std::uint32_t* count = counts.data();
    parallelFor(
        cells, EDDY_KERNEL(Index c) {
          int i, j, k;
          count[c] = caseCount[cellCase(g, c, i, j, k)];
        });
  }
  prims.exclusiveScan(counts.view(), firstTriangle.view(), cells + 1);
  std::uint32_t triangleCount = 0;
  firstTriangle.download(&triangleCount, 1, std::size_t(cells));
  Buffer<std::uint32_t> triangles(kDevice, 3 * std::size_t(triangleCount) + 1);
  {
    const std::uint32_t* first = firstTriangle.data();
    const std::uint32_t* at = vertexAt.data();
    std::uint32_t* tri = triangles.data();
    EdgeStart es = edgeStarts();
    parallelFor(
        cells, EDDY_KERNEL(Index c) {
          int i, j, k;
          int cs = cellCase(g, c, i, j, k);
          int m = caseCount[cs];
          std::uint32_t base = 3 * first[c];
          for (int q = 0; q < 3 * m; ++q) {
            int e = caseEdges[cs * 3 * kMaxCaseTriangles + q];
            std::size_t node = g.index(i + es.dx[e], j + es.dy[e], k + es.dz[e]);
            tri[base + q] = at[3 * node + es.axis[e]];
          }
        });
  }
  out.vertices = vertices.toHost(vertexCount);
  out.normals = normals.toHost(vertexCount);
  std::vector<std::uint32_t> flat = triangles.toHost(3 * std::size_t(triangleCount));
  out.triangles.resize(triangleCount);
  for (std::size_t t = 0; t < triangleCount; ++t)
    out.triangles[t] = {flat[3 * t], flat[3 * t + 1], flat[3 * t + 2]};
}

}  // namespace eddy::EDDY_NS
