#include "surface/mesh_smoothing.h"

namespace eddy::EDDY_NS {

void MeshSmoothing::pass(const SurfaceMeshView& m, Real factor) {
  Vec4* sums = sums_.data();
  parallelFor(
      m.vertexCount, EDDY_KERNEL(Index v) {
        sums[v] = Vec4{0, 0, 0, 0};
      });
  // each edge of each triangle, both ways (an edge shared by two triangles counts twice for both ends,
  // which leaves the uniform weights uniform)
  const Vec3* x = m.vertices;
  const std::uint32_t* tri = m.triangles;
  parallelFor(
      m.triangleCount, EDDY_KERNEL(Index t) {
        for (int e = 0; e < 3; ++e) {
          std::uint32_t a = tri[3 * t + e], b = tri[3 * t + (e + 1) % 3];
          atomicAddReal4(&sums[a].x, withW(x[b], Real(1)));
          atomicAddReal4(&sums[b].x, withW(x[a], Real(1)));
        }
      });
  Vec3* moved = m.vertices;
  parallelFor(
      m.vertexCount, EDDY_KERNEL(Index v) {
        Vec4 s = sums[v];
        if (s.w > 0) moved[v] += (Vec3{s.x, s.y, s.z} / s.w - moved[v]) * factor;
      });
}

void MeshSmoothing::smooth(const SurfaceMeshView& m, int iterations) {
  if (m.vertexCount == 0 || iterations <= 0) return;
  ensureCapacity(sums_, std::size_t(m.vertexCount));
  for (int k = 0; k < iterations; ++k) {
    pass(m, kLambda);
    pass(m, kMu);
  }
  // normals from the smoothed triangles, weighted by their areas
  Vec4* sums = sums_.data();
  const Vec3* x = m.vertices;
  const std::uint32_t* tri = m.triangles;
  parallelFor(
      m.vertexCount, EDDY_KERNEL(Index v) {
        sums[v] = Vec4{0, 0, 0, 0};
      });
  parallelFor(
      m.triangleCount, EDDY_KERNEL(Index t) {
        std::uint32_t a = tri[3 * t], b = tri[3 * t + 1], c = tri[3 * t + 2];
        Vec3 n = cross(x[b] - x[a], x[c] - x[a]);  // twice the area, outward
        for (std::uint32_t v : {a, b, c}) atomicAddReal4(&sums[v].x, withW(n, Real(0)));
      });
  Vec3* normals = m.normals;
  parallelFor(
      m.vertexCount, EDDY_KERNEL(Index v) {
        Vec4 s = sums[v];
        normals[v] = normalizeOr(Vec3{s.x, s.y, s.z}, normals[v]);
      });
}

}  // namespace eddy::EDDY_NS
