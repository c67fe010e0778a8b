#include "probes/wall_forces.h"

namespace eddy::EDDY_NS {

void WallForces::reserve(Index particles, int slots) {
  std::size_t need = std::size_t(6) * slots * std::size_t(particles);
  if (scratch_.size() < need) scratch_ = Buffer<Real>(kDevice, need);
}

void WallForces::compute(const WallForceInputs& in, Primitives& prims, std::vector<double>& out) {
  int nc = int(in.colliders.size);
  Index n = in.count;
  out.assign(std::size_t(6) * nc, 0.0);
  if (n == 0 || nc == 0) return;
  reserve(n, nc);  // grown between frames only, where output is written
  shares(in, nullptr, nc);
  std::size_t stride = std::size_t(n);
  for (int q = 0; q < 6 * nc; ++q)
    out[q] = prims.sum(View<Real>{scratch_.data() + std::size_t(q) * stride, stride}, n);
}

void WallForces::computeOnDevice(const WallForceInputs& in, Primitives& prims, const int* slotOf, int slots,
                                 double* out) {
  Index n = in.count;
  if (slots == 0) return;
  std::size_t stride = std::size_t(n);
  if (n > 0) shares(in, slotOf, slots);
  // n == 0 sums to zero without reading the scratch
  for (int q = 0; q < 6 * slots; ++q)
    prims.sumInto(View<Real>{scratch_.data() + std::size_t(q) * stride, stride}, n, out + q);
}

void WallForces::shares(const WallForceInputs& in, const int* slotOf, int slots) {
  int nc = int(in.colliders.size);
  Index n = in.count;
  Real* s = scratch_.data();
  const Vec3* x = in.position;
  const Real* p = in.pressure;
  const Real* rho = in.density;
  const ColliderData* cs = in.colliders.data;
  WallKernel wall = in.wall;
  Real scale = in.mass * in.restDensity * in.gradientScale, t = in.time;
  Vec3 gravity = in.gravity * (2 * in.restDensity);
  std::size_t stride = std::size_t(n);
  const Vec3* lateral = in.terms.gradient;
  WallMoments moments = in.terms.moments;
  bool stepAtLeastZero = in.terms.stepAtLeastZero;
  Real lateralScale = in.mass * in.gradientScale;
  parallelFor(
      n, EDDY_KERNEL(Index i) {
        for (int c = 0; c < slots; ++c)
          for (int k = 0; k < 6; ++k) s[(std::size_t(c) * 6 + k) * stride + i] = 0;
        // the opposite of the wall term of the particle's pressure force (wallPressureAcceleration)
        Real inv = 1 / (rho[i] * rho[i]), pi = p[i] * inv;
        Vec3 hydrostatic = gravity * inv;
        wall.forEachWallShare(cs, nc, x[i], t, [&](int c, Vec3 g, Vec3 at) {
          int slot = slotOf ? slotOf[c] : c;
          if (slot < 0) return;
          Vec3 force = g * (scale * (2 * pi + mirrorStep(hydrostatic, at, x[i], stepAtLeastZero)));
          if (lateral)
            force -= wallLateralAcceleration(wall, moments, cs[c], g, at, x[i], lateral[i]) * lateralScale;
          Vec3 torque = cross(at - colliderCenter(cs[c], t), force);
          Real* base = s + std::size_t(slot) * 6 * stride + i;
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
