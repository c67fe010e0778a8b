// Small geometry of one triangle, on the host and the device: the closest point to a point, whether it
// overlaps an axis-aligned box, and where a segment crosses it; and a mesh's triangles as kernels read them.
//
// References:
//   C. Ericson, "Real-Time Collision Detection", 2005, section 5.1.5 (closest point on a triangle).
//   T. Akenine-Möller, "Fast 3D triangle-box overlap testing", J. Graphics Tools 6(1), 2001.
//   T. Möller, B. Trumbore, "Fast, minimum storage ray-triangle intersection", J. Graphics Tools 2(1), 1997.
#pragma once

#include <eddy/vec3.h>

#include <cstdint>

namespace eddy {

// closest point to p on triangle abc (Ericson 2005, 5.1.5), by the Voronoi region p falls in
EDDY_HD inline Vec3 closestOnTriangle(Vec3 p, Vec3 a, Vec3 b, Vec3 c) {
  Vec3 ab = b - a, ac = c - a, ap = p - a;
  Real d1 = dot(ab, ap), d2 = dot(ac, ap);
  if (d1 <= 0 && d2 <= 0) return a;
  Vec3 bp = p - b;
  Real d3 = dot(ab, bp), d4 = dot(ac, bp);
  if (d3 >= 0 && d4 <= d3) return b;
  Real vc = d1 * d4 - d3 * d2;
  if (vc <= 0 && d1 >= 0 && d3 <= 0) return a + ab * (d1 / (d1 - d3));
  Vec3 cp = p - c;
  Real d5 = dot(ab, cp), d6 = dot(ac, cp);
  if (d6 >= 0 && d5 <= d6) return c;
  Real vb = d5 * d2 - d1 * d6;
  if (vb <= 0 && d2 >= 0 && d6 <= 0) return a + ac * (d2 / (d2 - d6));
  Real va = d3 * d6 - d5 * d4;
  if (va <= 0 && (d4 - d3) >= 0 && (d5 - d6) >= 0) return b + (c - b) * ((d4 - d3) / ((d4 - d3) + (d5 - d6)));
  Real denom = 1 / (va + vb + vc);
  return a + ab * (vb * denom) + ac * (vc * denom);
}

// whether triangle abc overlaps the cube of half-width `half` around `center`, by the separating axes:
// the cube's three, the triangle's normal, and the nine cross products of their edges
EDDY_HD inline bool triangleOverlapsCube(Vec3 center, Real half, Vec3 a, Vec3 b, Vec3 c) {
  Vec3 v0 = a - center, v1 = b - center, v2 = c - center;
  // the cube's own axes: the triangle's box against the cube
  if (fminf(v0.x, fminf(v1.x, v2.x)) > half || fmaxf(v0.x, fmaxf(v1.x, v2.x)) < -half) return false;
  if (fminf(v0.y, fminf(v1.y, v2.y)) > half || fmaxf(v0.y, fmaxf(v1.y, v2.y)) < -half) return false;
  if (fminf(v0.z, fminf(v1.z, v2.z)) > half || fmaxf(v0.z, fmaxf(v1.z, v2.z)) < -half) return false;
  Vec3 edges[3] = {v1 - v0, v2 - v1, v0 - v2};
  Vec3 units[3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
  auto separates = [&](Vec3 axis) {
    Real p0 = dot(v0, axis), p1 = dot(v1, axis), p2 = dot(v2, axis);
    Real reach = half * (fabsf(axis.x) + fabsf(axis.y) + fabsf(axis.z));
    return fminf(p0, fminf(p1, p2)) > reach || fmaxf(p0, fmaxf(p1, p2)) < -reach;
  };
  if (separates(cross(edges[0], edges[1]))) return false;  // the triangle's plane
  for (const Vec3& e : edges)
    for (const Vec3& u : units)
      if (separates(cross(u, e))) return false;
  return true;
}

// a mesh's triangles as kernels read them: vertex positions and three vertex indices per triangle
struct TriangleSoup {
  const Vec3* v;
  const std::uint32_t* t;
  EDDY_HD void corners(std::uint32_t tri, Vec3& a, Vec3& b, Vec3& c) const {
    a = v[t[3 * tri]];
    b = v[t[3 * tri + 1]];
    c = v[t[3 * tri + 2]];
  }
  EDDY_HD Real distance(std::uint32_t tri, Vec3 p) const {
    Vec3 a, b, c;
    corners(tri, a, b, c);
    return length(p - closestOnTriangle(p, a, b, c));
  }
};

constexpr Real kEdgeSlack = Real(1e-5);  // barycentric: a path through a shared edge still hits a triangle

// Möller–Trumbore from either side: the parameter s in [s0, s1] where a + dir s crosses triangle p0 p1 p2
EDDY_HD inline bool segmentCrossesTriangle(Vec3 a, Vec3 dir, Real s0, Real s1, Vec3 p0, Vec3 p1, Vec3 p2,
                                           Real& s) {
  Vec3 e1 = p1 - p0, e2 = p2 - p0;
  Vec3 q = cross(dir, e2);
  Real det = dot(e1, q);
  if (det == 0) return false;  // the path runs in the triangle's plane: its neighbours face it
  Real inv = 1 / det;
  Vec3 w = a - p0;
  Real u = dot(w, q) * inv;
  if (!(u >= -kEdgeSlack && u <= 1 + kEdgeSlack)) return false;
  Vec3 m = cross(w, e1);
  Real v = dot(dir, m) * inv;
  if (!(v >= -kEdgeSlack && u + v <= 1 + kEdgeSlack)) return false;
  s = dot(e2, m) * inv;
  return s >= s0 && s <= s1;
}

}  // namespace eddy
