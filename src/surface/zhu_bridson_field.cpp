#include "surface/zhu_bridson_field.h"

#include <eddy/error.h>

#include <algorithm>
#include <cmath>
#include <string>

namespace eddy::EDDY_NS {

namespace {

constexpr double kMaxNodes = double(1u << 30);  // a dense grid past this is refused, not attempted

}  // namespace

void ZhuBridsonField::build(const Vec3* positions, Index n, const SurfaceSettings& s, Primitives& prims) {
  if (!(s.cell > 0) || !(s.kernelRadius > 0) || !(s.particleRadius > 0))
    throw InputError("surface: the cell, the kernel radius and the particle radius must be positive");
  if (n <= 0) throw InputError("surface: there are no particles");
  // the particles' box, one coordinate at a time through a scratch array
  Buffer<Real> scratch(kDevice, std::size_t(n));
  Real lo[3], hi[3];
  for (int axis = 0; axis < 3; ++axis) {
    Real* c = scratch.data();
    parallelFor(
        n, EDDY_KERNEL(Index i) {
          c[i] = axis == 0 ? positions[i].x : (axis == 1 ? positions[i].y : positions[i].z);
        });
    lo[axis] = prims.min(scratch.view(), n);
    hi[axis] = prims.max(scratch.view(), n);
    if (!std::isfinite(lo[axis]) || !std::isfinite(hi[axis]))
      throw InputError("surface: a particle position is not a finite number");
  }
  // one cell beyond the kernel's reach on every side, so the boundary nodes are outside
  Real margin = s.kernelRadius + s.cell;
  grid_ = SurfaceGridView{};
  grid_.cell = s.cell;
  grid_.origin = Vec3{lo[0], lo[1], lo[2]} - Vec3{margin, margin, margin};
  double nodes = 1;
  int dims[3];
  for (int axis = 0; axis < 3; ++axis) {
    double d = std::ceil((double(hi[axis]) - lo[axis] + 2 * margin) / s.cell) + 1;
    nodes *= d;
    dims[axis] = int(std::min(d, kMaxNodes));
  }
  if (nodes > kMaxNodes)
    throw InputError("surface: a grid of " + std::to_string(dims[0]) + " x " + std::to_string(dims[1]) +
                     " x " + std::to_string(dims[2]) + " nodes is too large; raise the cell size");
  grid_.nx = dims[0], grid_.ny = dims[1], grid_.nz = dims[2];
  std::size_t count = std::size_t(nodes);
  values_ = Buffer<Real>(kDevice, count);
  sums_ = Buffer<Real>(kDevice, 4 * count);
  sums_.fillZero();
  grid_.values = values_.data();

  // every particle adds w and w (x_i - node) to the nodes within R (relative to the node, for precision)
  SurfaceGridView g = grid_;
  Real* sums = sums_.data();
  Real R = s.kernelRadius, invR2 = 1 / (s.kernelRadius * s.kernelRadius), inv = 1 / s.cell;
  parallelFor(
      n, EDDY_KERNEL(Index p) {
        Vec3 x = positions[p];
        Vec3 a = (x - g.origin - Vec3{R, R, R}) * inv, b = (x - g.origin + Vec3{R, R, R}) * inv;
        int i0 = std::max(int(ceilf(a.x)), 0), j0 = std::max(int(ceilf(a.y)), 0),
            k0 = std::max(int(ceilf(a.z)), 0);
        int i1 = std::min(int(floorf(b.x)), g.nx - 1), j1 = std::min(int(floorf(b.y)), g.ny - 1),
            k1 = std::min(int(floorf(b.z)), g.nz - 1);
        for (int k = k0; k <= k1; ++k)
          for (int j = j0; j <= j1; ++j)
            for (int i = i0; i <= i1; ++i) {
              Vec3 d = x - g.node(i, j, k);
              Real s2 = dot(d, d) * invR2;
              if (s2 >= 1) continue;
              Real u = 1 - s2;
              Real w = u * u * u;
              Real* at = sums + 4 * g.index(i, j, k);
              atomicAddReal(at, w);
              atomicAddReal(at + 1, w * d.x);
              atomicAddReal(at + 2, w * d.y);
              atomicAddReal(at + 3, w * d.z);
            }
      });
  // phi = |x - xbar| - r; a node no particle reaches is outside by the kernel radius
  Real* values = values_.data();
  Real r = s.particleRadius;
  parallelFor(
      Index(count), EDDY_KERNEL(Index idx) {
        const Real* at = sums + 4 * idx;
        Real w = at[0];
        values[idx] = w > 0 ? length(Vec3{at[1], at[2], at[3]} / w) - r : R;
      });
  synchronizeDevice(kDevice);
  sums_ = Buffer<Real>();
}

}  // namespace eddy::EDDY_NS
