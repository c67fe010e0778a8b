#include "surface/zhu_bridson_field.h"

namespace eddy::EDDY_NS {

void ZhuBridsonField::build(const Vec3* positions, Index n, const SurfaceSettings& s, SurfaceGrid& grid,
                            Primitives& prims) {
  Real R = s.kernelRadius;
  grid.layout(positions, n, s.cell, R, R, prims);
  SurfaceGridView g = grid.view();
  Index nodes = g.storedNodes();
  // four sums per node: 4 * nodes passes 2^31 beyond 2^29 stored nodes (SurfaceGrid allows 2^31 / 3), so
  // the sums are indexed in 64 bits
  ensureCapacity(sums_, 4 * std::size_t(nodes));
  Real* sums = sums_.data();
  parallelFor(
      nodes, EDDY_KERNEL(Index i) {
        reinterpret_cast<Vec4*>(sums)[i] = Vec4{0, 0, 0, 0};
      });

  // every particle adds w and w (x_i - node) to the nodes within R (relative to the node, for precision)
  Real invR2 = 1 / (R * R);
  parallelFor(
      n, EDDY_KERNEL(Index p) {
        Vec3 x = positions[p];
        g.forNodesNear(x, R, [&](std::size_t at, Vec3 node) {
          Vec3 d = x - node;
          Real s2 = dot(d, d) * invR2;
          if (s2 >= 1) return;
          Real u = 1 - s2;
          Real w = u * u * u;
          atomicAddReal4(sums + 4 * at, Vec4{w, w * d.x, w * d.y, w * d.z});
        });
      });
  // phi = |x - xbar| - r; a node no particle reaches is outside by the kernel radius
  Real* values = grid.values();
  Real r = s.particleRadius;
  parallelFor(
      nodes, EDDY_KERNEL(Index idx) {
        const Real* sum = sums + 4 * std::size_t(idx);
        Real w = sum[0];
        values[idx] = w > 0 ? length(Vec3{sum[1], sum[2], sum[3]} / w) - r : R;
      });
}

}  // namespace eddy::EDDY_NS
