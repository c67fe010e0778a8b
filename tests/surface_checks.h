// What the surface tests measure on a mesh: closedness through the same code as `eddy mesh-info`
// (inspectMesh), orientation, pieces, Euler characteristic, enclosed volume and area, which particles each
// piece encloses, and whether the vertex normals agree with the triangles around them.
#pragma once

#include <eddy/mesh.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <map>
#include <numeric>
#include <utility>
#include <vector>

namespace eddy {

struct Topology {
  MeshReport report;  // mesh-info's: closed() means no boundary and no non-manifold edges
  std::size_t vertices = 0, edges = 0, faces = 0;
  std::size_t directedRepeats = 0;  // directed edges used twice: neighbours facing opposite ways
  int components = 0;
  long euler() const { return long(vertices) - long(edges) + long(faces); }
  double volume = 0, area = 0;
};

// the piece (connected through shared vertices) of each triangle, numbered from 0
inline std::vector<int> trianglePieces(const TriangleMesh& m, int* count = nullptr) {
  std::vector<std::uint32_t> parent(m.vertices.size());
  std::iota(parent.begin(), parent.end(), 0u);
  auto find = [&](std::uint32_t a) {
    while (parent[a] != a) a = parent[a] = parent[parent[a]];
    return a;
  };
  for (const auto& tri : m.triangles)
    for (int e = 0; e < 3; ++e) parent[find(tri[e])] = find(tri[(e + 1) % 3]);
  std::map<std::uint32_t, int> number;
  std::vector<int> piece(m.triangles.size());
  for (std::size_t t = 0; t < m.triangles.size(); ++t)
    piece[t] = number.emplace(find(m.triangles[t][0]), int(number.size())).first->second;
  if (count) *count = int(number.size());
  return piece;
}

inline Topology inspect(const TriangleMesh& m) {
  Topology t;
  t.report = inspectMesh(m);
  std::map<std::pair<std::uint32_t, std::uint32_t>, int> undirected, directed;
  std::vector<bool> used(m.vertices.size(), false);
  for (const auto& tri : m.triangles) {
    for (int e = 0; e < 3; ++e) {
      std::uint32_t a = tri[e], b = tri[(e + 1) % 3];
      ++undirected[std::minmax(a, b)];
      ++directed[{a, b}];
      used[a] = true;
    }
    Vec3 p = m.vertices[tri[0]], q = m.vertices[tri[1]], r = m.vertices[tri[2]];
    t.volume += double(dot(p, cross(q, r))) / 6;
    t.area += 0.5 * double(length(cross(q - p, r - p)));
  }
  for (auto& [e, n] : directed) t.directedRepeats += n > 1;
  t.vertices = std::size_t(std::count(used.begin(), used.end(), true));
  t.edges = undirected.size();
  t.faces = m.triangles.size();
  trianglePieces(m, &t.components);
  return t;
}

// The winding number of one piece of a closed mesh around point x: 1 inside, 0 outside (the solid angles of
// its triangles over 4 pi; A. Van Oosterom, J. Strackee, "The solid angle of a plane triangle", IEEE Trans.
// Biomed. Eng. 30(2), 1983).
inline double windingNumber(const TriangleMesh& m, const std::vector<int>& pieces, int piece, Vec3 x) {
  double total = 0;
  for (std::size_t t = 0; t < m.triangles.size(); ++t) {
    if (pieces[t] != piece) continue;
    double a[3][3];
    for (int c = 0; c < 3; ++c) {
      Vec3 d = m.vertices[m.triangles[t][c]] - x;
      a[c][0] = d.x, a[c][1] = d.y, a[c][2] = d.z;
    }
    auto len = [](const double* v) { return std::sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]); };
    auto dotd = [](const double* u, const double* v) { return u[0] * v[0] + u[1] * v[1] + u[2] * v[2]; };
    double det = a[0][0] * (a[1][1] * a[2][2] - a[1][2] * a[2][1]) -
                 a[0][1] * (a[1][0] * a[2][2] - a[1][2] * a[2][0]) +
                 a[0][2] * (a[1][0] * a[2][1] - a[1][1] * a[2][0]);
    double la = len(a[0]), lb = len(a[1]), lc = len(a[2]);
    double den = la * lb * lc + dotd(a[0], a[1]) * lc + dotd(a[0], a[2]) * lb + dotd(a[1], a[2]) * la;
    total += 2 * std::atan2(det, den);
  }
  return total / (4 * M_PI);
}

// Vertex normals against the triangles around them: how many vertices have a normal with cos <= 0 against
// the area-weighted normal of their triangles (what eddy guarantees never happens), and how many against
// at least one of those triangles, with the worst cosine of the latter.
struct NormalAgreement {
  std::size_t againstWeighted = 0, againstSomeFace = 0;
  double worstCos = 1;  // over every (vertex, triangle around it)
};

inline NormalAgreement normalAgreement(const TriangleMesh& m) {
  std::vector<Vec3> weighted(m.vertices.size(), Vec3{0, 0, 0});
  std::vector<bool> againstFace(m.vertices.size(), false), used(m.vertices.size(), false);
  NormalAgreement a;
  for (const auto& tri : m.triangles) {
    Vec3 n = cross(m.vertices[tri[1]] - m.vertices[tri[0]], m.vertices[tri[2]] - m.vertices[tri[0]]);
    Real area2 = length(n);
    for (std::uint32_t v : tri) {
      used[v] = true;
      weighted[v] += n;
      if (area2 == 0) continue;
      double c = double(dot(m.normals[v], n)) / double(area2 * length(m.normals[v]));
      a.worstCos = std::min(a.worstCos, c);
      if (!(c > 0)) againstFace[v] = true;
    }
  }
  for (std::size_t v = 0; v < m.vertices.size(); ++v) {
    if (!used[v]) continue;
    a.againstSomeFace += againstFace[v];
    a.againstWeighted += !(dot(m.normals[v], weighted[v]) > 0);
  }
  return a;
}

}  // namespace eddy
