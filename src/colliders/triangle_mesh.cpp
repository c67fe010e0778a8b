// The edge-based quality report of a triangle mesh (meshes are read and written by io/mesh_files.cpp).
#include <eddy/mesh.h>

#include <algorithm>
#include <bit>
#include <cstdint>
#include <unordered_map>

namespace eddy {
namespace {

// ids of vertices welded by exact position (-0 and +0 are the same position)
std::vector<std::uint32_t> weldByPosition(const std::vector<Vec3>& vertices) {
  struct Key {
    float x, y, z;
    bool operator==(const Key&) const = default;
  };
  struct KeyHash {
    std::size_t operator()(const Key& k) const {
      std::uint64_t h = 1469598103934665603ull;
      for (float f : {k.x, k.y, k.z}) h = (h ^ std::bit_cast<std::uint32_t>(f)) * 1099511628211ull;
      return static_cast<std::size_t>(h);
    }
  };
  auto canonical = [](float f) { return f == 0.0f ? 0.0f : f; };
  std::unordered_map<Key, std::uint32_t, KeyHash> ids;
  ids.reserve(vertices.size());
  std::vector<std::uint32_t> welded(vertices.size());
  for (std::size_t i = 0; i < vertices.size(); ++i) {
    const Key key{canonical(vertices[i].x), canonical(vertices[i].y), canonical(vertices[i].z)};
    welded[i] = ids.try_emplace(key, static_cast<std::uint32_t>(ids.size())).first->second;
  }
  return welded;
}

}  // namespace

MeshReport inspectMesh(const TriangleMesh& mesh) {
  MeshReport report;
  report.vertices = mesh.vertices.size();
  report.triangles = mesh.triangles.size();

  bool any = false;
  for (const auto& t : mesh.triangles)
    for (std::uint32_t i : t) {
      const Vec3 p = mesh.vertices.at(i);
      report.lo = any ? cwiseMin(report.lo, p) : p;
      report.hi = any ? cwiseMax(report.hi, p) : p;
      any = true;
    }

  const std::vector<std::uint32_t> welded = weldByPosition(mesh.vertices);
  std::vector<std::uint64_t> edges;
  edges.reserve(3 * mesh.triangles.size());
  for (const auto& t : mesh.triangles) {
    // the area in double: float cross products of long thin triangles round to zero too easily
    const Vec3 a = mesh.vertices[t[0]], b = mesh.vertices[t[1]], c = mesh.vertices[t[2]];
    const double ux = double(b.x) - a.x, uy = double(b.y) - a.y, uz = double(b.z) - a.z;
    const double vx = double(c.x) - a.x, vy = double(c.y) - a.y, vz = double(c.z) - a.z;
    const double nx = uy * vz - uz * vy, ny = uz * vx - ux * vz, nz = ux * vy - uy * vx;
    if (nx == 0 && ny == 0 && nz == 0) ++report.degenerateTriangles;

    const std::uint32_t w[3] = {welded[t[0]], welded[t[1]], welded[t[2]]};
    if (w[0] == w[1] || w[1] == w[2] || w[2] == w[0]) continue;  // collapsed: no edges of its own
    for (int k = 0; k < 3; ++k) {
      const std::uint64_t p = w[k], q = w[(k + 1) % 3];
      edges.push_back(std::min(p, q) << 32 | std::max(p, q));
    }
  }
  std::sort(edges.begin(), edges.end());
  for (std::size_t i = 0; i < edges.size();) {
    std::size_t j = i;
    while (j < edges.size() && edges[j] == edges[i]) ++j;
    if (j - i == 1) ++report.boundaryEdges;
    if (j - i > 2) ++report.nonManifoldEdges;
    i = j;
  }
  return report;
}

}  // namespace eddy
