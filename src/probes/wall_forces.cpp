#include "probes/wall_forces.h"

namespace eddy::EDDY_NS {

void WallForces::reserve(Index particles, int colliders) {
  std::size_t need = std::size_t(6) * colliders * std::size_t(particles);
  if (scratch_.size() < need) scratch_ = Buffer<Real>(kDevice, need);
}

void WallForces::compute(const WallForceInputs& in, Primitives& prims, std::vector<double>& out) {
  int nc = int(in.colliders.size);
  Index n = in.count;
  out.assign(std::size_t(6) * nc, 0.0);
  if (n == 0 || nc == 0) return;
  reserve(n, nc);  // grown between frames only, where output is written
  shares(in);
  std::size_t stride = std::size_t(n);
  for (int q = 0; q < 6 * nc; ++q)
    out[q] = prims.sum(View<Real>{scratch_.data() + std::size_t(q) * stride, stride}, n);
}

void WallForces::shares(const WallForceInputs& in) {
  int nc = int(in.colliders.size);
  Index n = in.count;
  Real* s = scratch_.data();
  std::size_t stride = std::size_t(n);
  WallShares each = WallShares::of(in);
  parallelFor(
      n, EDDY_KERNEL(Index i) {
        for (int c = 0; c < nc; ++c)
          for (int k = 0; k < 6; ++k) s[(std::size_t(c) * 6 + k) * stride + i] = 0;
        each.forEach(
            i, [](int) { return true; },
            [&](int c, Vec3 force, Vec3 torque) {
              Real* base = s + std::size_t(c) * 6 * stride + i;
              base[0] += force.x;
              base[stride] += force.y;
              base[2 * stride] += force.z;
              base[3 * stride] += torque.x;
              base[4 * stride] += torque.y;
              base[5 * stride] += torque.z;
            });
      });
}

}  // namespace eddy::EDDY_NS
