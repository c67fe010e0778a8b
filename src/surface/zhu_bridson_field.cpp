#include "surface/zhu_bridson_field.h"

namespace eddy::EDDY_NS {

namespace {

// a non-negative float's bits order as the float does, so an unsigned atomic minimum keeps the nearest
EDDY_HD inline std::uint32_t orderedBits(Real v) {
  std::uint32_t bits;
  static_assert(sizeof bits == sizeof v);
  __builtin_memcpy(&bits, &v, sizeof v);
  return bits;
}
EDDY_HD inline Real fromOrderedBits(std::uint32_t bits) {
  Real v;
  __builtin_memcpy(&v, &bits, sizeof v);
  return v;
}

}  // namespace

void ZhuBridsonField::build(const Vec3* positions, Index n, const SurfaceSettings& s, SurfaceGrid& grid,
                            Primitives& prims) {
  Real R = s.kernelRadius;
  grid.layout(positions, n, s.cell, R, R, prims);
  SurfaceGridView g = grid.view();
  Index nodes = g.storedNodes();
  // four sums per node: 4 * nodes passes 2^31 beyond 2^29 stored nodes (SurfaceGrid allows 2^31 / 3), so
  // the sums are indexed in 64 bits
  ensureCapacity(sums_, 4 * std::size_t(nodes));
  ensureCapacity(nearest_, 2 * std::size_t(nodes));
  Real* sums = sums_.data();
  std::uint32_t* nearest = nearest_.data();
  // the nearest distance matters up to r_reach + cell (see the header)
  Real reach = s.particleReach, tracked = reach + s.cell;
  Real tracked2 = tracked * tracked;
  std::uint32_t untracked = orderedBits(tracked2);
  parallelFor(
      nodes, EDDY_KERNEL(Index i) {
        reinterpret_cast<Vec4*>(sums)[i] = Vec4{0, 0, 0, 0};
        nearest[2 * std::size_t(i)] = untracked;
        nearest[2 * std::size_t(i) + 1] = untracked;
      });

  // every particle adds w and w (x_i - node) to the nodes within R (relative to the node, for precision),
  // and its squared distance to the two smallest of those within r_reach + cell: the first minimum keeps
  // the smaller of the two values, the second the larger, so it ends with the second smallest
  Real invR2 = 1 / (R * R);
  parallelFor(
      n, EDDY_KERNEL(Index p) {
        Vec3 x = positions[p];
        g.forNodesNear(x, R, [&](std::size_t at, Vec3 node) {
          Vec3 d = x - node;
          Real d2 = dot(d, d);
          Real s2 = d2 * invR2;
          if (s2 >= 1) return;
          Real u = 1 - s2;
          Real w = u * u * u;
          atomicAddReal4(sums + 4 * at, Vec4{w, w * d.x, w * d.y, w * d.z});
          if (d2 < tracked2) {
            std::uint32_t bits = orderedBits(d2), held = atomicMinU32(nearest + 2 * at, bits);
            atomicMinU32(nearest + 2 * at + 1, bits > held ? bits : held);
          }
        });
      });
  // phi = |x - xbar| - r, raised to the bound b = min(d1 - 0.7 r_reach, d2 - r_reach) where b is positive
  // and the weights are sparse; a node no particle reaches is outside by the kernel radius
  Real* values = grid.values();
  Real r = s.particleRadius;
  Real near = kNearReach * reach;
  parallelFor(
      nodes, EDDY_KERNEL(Index idx) {
        const Real* sum = sums + 4 * std::size_t(idx);
        Real w = sum[0];
        Real bound = fminf(sqrtf(fromOrderedBits(nearest[2 * std::size_t(idx)])) - near,
                           sqrtf(fromOrderedBits(nearest[2 * std::size_t(idx) + 1])) - reach);
        Real phi = w > 0 ? length(Vec3{sum[1], sum[2], sum[3]} / w) - r : R;
        values[idx] = w > 0 && w < kSparseWeight && bound > 0 ? fmaxf(phi, bound) : phi;
      });
}

}  // namespace eddy::EDDY_NS
